/**
 * HTTP/1.1 text as the lab's programs speak it: curl 7.88.1's request and the pods' server
 * (Go net/http, like agnhost netexec) responses.
 *
 * The web server answers `GET /` with one line naming the pod that answered, the address it was
 * reached at, and the peer it saw — the three facts Service networking changes:
 *
 *     web-6bc869c565-g2952 (10.244.1.3:8080): you are 10.244.0.5:51234
 *
 * (the destination is the pod's own address after DNAT; the peer is the client, or the node's
 * address when the packet was masqueraded). agnhost netexec's `/hostname` (the pod name) and
 * `/clientip` (`ip:port`) answer as agnhost does, without a newline; other paths get Go's
 * `404 page not found`. agnhost itself answers `/` with the time; the lab's line replaces it.
 */
import { httpDate } from '../output/time';

export const CURL_USER_AGENT = 'curl/7.88.1';

/**
 * curl's request (`HEAD` for -I): `Host` carries the port only when it is not the scheme's
 * default.
 */
export function curlRequest(host: string, port: number, path: string, method = 'GET'): string {
  const hostHeader = port === 80 ? host : `${host}:${port}`;
  return (
    `${method} ${path} HTTP/1.1\r\n` +
    `Host: ${hostHeader}\r\n` +
    `User-Agent: ${CURL_USER_AGENT}\r\n` +
    `Accept: */*\r\n\r\n`
  );
}

export const WGET_USER_AGENT = 'Wget/1.21.3';

/**
 * GNU Wget 1.21.3's request (http.c gethttp; `HEAD` for --spider), as captured from the real
 * wget: its own headers, then the --header lines in the order given.
 */
export function wgetRequest(
  opts: { readonly host: string; readonly port: number; readonly path: string },
  extra: {
    readonly method: string;
    readonly userAgent: string;
    readonly headers: readonly string[];
  },
): string {
  const hostHeader = opts.port === 80 ? opts.host : `${opts.host}:${opts.port}`;
  return (
    `${extra.method} ${opts.path} HTTP/1.1\r\n` +
    `Host: ${hostHeader}\r\n` +
    `User-Agent: ${extra.userAgent}\r\n` +
    `Accept: */*\r\nAccept-Encoding: identity\r\nConnection: Keep-Alive\r\n` +
    extra.headers.map((h) => `${h}\r\n`).join('') +
    '\r\n'
  );
}

export interface HttpResponse {
  readonly status: number;
  readonly reason: string;
  readonly version: string;
  /** Header lines in wire order, without CRLF. */
  readonly headers: readonly string[];
  readonly body: string;
}

export interface ParsedRequest {
  readonly method: string;
  readonly path: string;
  readonly version: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The request's method, path, version and headers. Remembered per text (bounded): a load run's
 * clients send the same few requests thousands of times, and the answer is frozen data.
 */
export function parseRequest(text: string): ParsedRequest | undefined {
  let r = parsedRequests.get(text);
  if (r === undefined) {
    if (parsedRequests.size >= PARSED_REQUESTS) parsedRequests.clear();
    parsedRequests.set(text, (r = parseRequestText(text) ?? null));
  }
  return r ?? undefined;
}

const PARSED_REQUESTS = 4096;
const parsedRequests = new Map<string, ParsedRequest | null>();

/** parseRequest without the memo. */
export function parseRequestText(text: string): ParsedRequest | undefined {
  const [head] = text.split('\r\n\r\n');
  const lines = (head ?? '').split('\r\n');
  const m = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(lines[0] ?? '');
  if (m === null) return undefined;
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  return Object.freeze({
    method: m[1] ?? 'GET',
    path: m[2] ?? '/',
    version: m[3] ?? 'HTTP/1.1',
    headers: Object.freeze(headers),
  });
}

/** The web server's answer to a request (Go's header order: Date, Content-Length, Content-Type). */
export function webResponse(
  req: ParsedRequest,
  who: { readonly name: string; readonly local: string; readonly peer: string },
  unixMs: number,
): HttpResponse {
  const q = req.path.indexOf('?');
  const path = q < 0 ? req.path : req.path.slice(0, q);
  const date = `Date: ${httpDate(unixMs)}`;
  const body =
    path === '/'
      ? `${who.name} (${who.local}): you are ${who.peer}\n`
      : path === '/hostname'
        ? who.name
        : path === '/clientip'
          ? who.peer
          : undefined;
  if (body === undefined) {
    const text = '404 page not found\n';
    return {
      status: 404,
      reason: 'Not Found',
      version: 'HTTP/1.1',
      headers: [
        'Content-Type: text/plain; charset=utf-8',
        'X-Content-Type-Options: nosniff',
        date,
        `Content-Length: ${text.length}`,
      ],
      body: text,
    };
  }
  return {
    status: 200,
    reason: 'OK',
    version: 'HTTP/1.1',
    headers: [date, `Content-Length: ${body.length}`, 'Content-Type: text/plain; charset=utf-8'],
    body,
  };
}

/**
 * What a Go TLS server (kube-apiserver, kubelet) answers to plain HTTP: crypto/tls recognises an
 * HTTP request in the first record and net/http writes this, then closes the connection.
 */
export function tlsPlainHttpResponse(): HttpResponse {
  return {
    status: 400,
    reason: 'Bad Request',
    version: 'HTTP/1.0',
    headers: [],
    body: 'Client sent an HTTP request to an HTTPS server.\n',
  };
}

/**
 * The answer to HEAD: the same head as GET's, without the body. Go's net/http still sends the
 * Content-Length of what the handler wrote (chunkWriter.writeHeader: the handler finished and
 * its buffered bytes are the whole body) and sniffs the Content-Type from them.
 */
export function headResponse(r: HttpResponse): HttpResponse {
  return { ...r, body: '' };
}

export function responseText(r: HttpResponse): string {
  // Concatenated in a loop (every response): no array of lines to join.
  let text = `${r.version} ${r.status} ${r.reason}\r\n`;
  for (const h of r.headers) text += `${h}\r\n`;
  return `${text}\r\n${r.body}`;
}

/**
 * A response's status line and headers, then its body. The head is parsed once per text
 * (bounded memo, frozen answers): a load run's servers send the same few heads (the Date
 * changes once a second) before bodies that differ.
 */
export function parseResponse(text: string): HttpResponse | undefined {
  const i = text.indexOf('\r\n\r\n');
  if (i < 0) return undefined;
  const headText = text.slice(0, i);
  let head = parsedHeads.get(headText);
  if (head === undefined) {
    if (parsedHeads.size >= PARSED_HEADS) parsedHeads.clear();
    parsedHeads.set(headText, (head = parseHead(headText) ?? null));
  }
  if (head === null) return undefined;
  return {
    version: head.version,
    status: head.status,
    reason: head.reason,
    headers: head.headers,
    body: text.slice(i + 4),
  };
}

type ResponseHead = Omit<HttpResponse, 'body'>;

const PARSED_HEADS = 1024;
const parsedHeads = new Map<string, ResponseHead | null>();

function parseHead(headText: string): ResponseHead | undefined {
  const lines = headText.split('\r\n');
  const m = /^(HTTP\/1\.[01]) (\d{3}) ?(.*)$/.exec(lines[0] ?? '');
  if (m === null) return undefined;
  return Object.freeze({
    version: m[1] ?? 'HTTP/1.1',
    status: Number(m[2]),
    reason: m[3] ?? '',
    headers: Object.freeze(lines.slice(1)),
  });
}

/** parseResponse without the memo (for the tests). */
export function parseResponseText(text: string): HttpResponse | undefined {
  const i = text.indexOf('\r\n\r\n');
  if (i < 0) return undefined;
  const head = parseHead(text.slice(0, i));
  return head === undefined ? undefined : { ...head, body: text.slice(i + 4) };
}
