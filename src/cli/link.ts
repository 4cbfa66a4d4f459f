/**
 * `kube-proxy-lab link SCENARIO.yaml [--base URL]`: the web lab's share link for a scenario
 * file, for an instructor who keeps scenarios in git and hands out links (a course page, a
 * slide). The link's format is the web lab's (src/ui/app/share-link.ts: `#scenario=1.` and the
 * text, deflated raw and base64url-encoded, in the fragment, which no browser sends to a
 * server); tests/cli/link.test.ts opens every link this makes with the web lab's own decoder.
 */
/** Where `npm start` serves the lab (README). */
export const DEFAULT_BASE = 'http://127.0.0.1:5173/';
/** As the web lab's Copy link: longer links are refused (chat tools and QR codes cut them). */
export const MAX_LINK_CHARS = 32_000;

/** The base URL without its fragment, or why it cannot be one. */
export function linkBase(base: string): string | { readonly error: string } {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return { error: `${base} is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: `${base} is not an http or https URL` };
  url.hash = '';
  return url.href;
}

export async function scenarioLink(base: string, text: string): Promise<string> {
  // Loaded here, not with the command: every other command starts some 3 ms sooner.
  const { deflateRawSync } = await import('node:zlib');
  const packed = deflateRawSync(Buffer.from(text, 'utf8'), { level: 9 }).toString('base64url');
  return `${base}#scenario=1.${packed}`;
}
