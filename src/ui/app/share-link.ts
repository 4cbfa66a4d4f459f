/**
 * A scenario as a link: the text, compressed (deflate, raw) and base64url-encoded, in the
 * URL's fragment (`#scenario=1.…`). A fragment is never sent to a server (the browser keeps it
 * to itself), so a link carries the scenario from one browser to another without the lab
 * uploading anything: the learner who opens it gets the same text, and with the same seed the
 * same packets.
 */

const PREFIX = 'scenario=';
/** The format of the encoded text; a link of another version is refused, never guessed at. */
const VERSION = '1.';
/** Longer links are refused by the button (chat tools and QR codes cut them); save a file instead. */
export const MAX_LINK_CHARS = 32_000;
/** A link never unpacks to more than this (a small link can hold a very large, repetitive text). */
export const MAX_LINK_SCENARIO_CHARS = 4 << 20;

export class LinkError extends Error {}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream) {
  const out = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = out.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_LINK_SCENARIO_CHARS * 3) {
      await reader.cancel();
      throw new LinkError(`it unpacks to more than ${MAX_LINK_SCENARIO_CHARS >> 20} MiB`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new LinkError('it holds characters base64url has not');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/');
  let binary: string;
  try {
    binary = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4));
  } catch {
    throw new LinkError('it is not base64url');
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The fragment (without `#`) that carries `text`. */
export async function encodeScenario(text: string): Promise<string> {
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  return `${PREFIX}${VERSION}${toBase64Url(packed)}`;
}

/** The encoded scenario of a location's hash (`#scenario=…`), if it has one. */
export function scenarioInHash(hash: string): string | undefined {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  return fragment.startsWith(PREFIX) ? fragment : undefined;
}

/** The scenario a fragment carries; a LinkError says why a link cannot be read. */
export async function decodeScenario(fragment: string): Promise<string> {
  const body = fragment.startsWith(PREFIX) ? fragment.slice(PREFIX.length) : fragment;
  if (!body.startsWith(VERSION)) throw new LinkError('it is not a link of this lab version');
  const bytes = fromBase64Url(body.slice(VERSION.length));
  let unpacked: Uint8Array;
  try {
    unpacked = await pipe(bytes, new DecompressionStream('deflate-raw'));
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError('it is cut short or damaged');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(unpacked);
  } catch {
    throw new LinkError('it does not hold UTF-8 text');
  }
  if (text.length > MAX_LINK_SCENARIO_CHARS)
    throw new LinkError(`it unpacks to more than ${MAX_LINK_SCENARIO_CHARS >> 20} MiB`);
  return text;
}

/** The page's address with `fragment` as its hash (any other hash replaced). */
export function linkFor(href: string, fragment: string): string {
  const at = href.indexOf('#');
  return `${at < 0 ? href : href.slice(0, at)}#${fragment}`;
}
