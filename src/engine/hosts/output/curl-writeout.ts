/**
 * curl's `-w` / `--write-out FORMAT` (src/tool_writeout.c of curl 7.88.1): after each transfer,
 * FORMAT with `%{variable}` replaced by what curl knows of the transfer, `%header{name}` by a
 * response header, `%%` by `%`, and `\n`, `\r`, `\t` by their characters; an unknown variable
 * gets `curl: unknown --write-out variable: 'NAME'` on stderr, `%{stderr}` and `%{stdout}` switch
 * the stream, `%{onerror}` ends the output of a transfer that succeeded. Values as the real curl
 * printed them in a namespace: `000` and empty addresses when no connection was made, times as
 * seconds with six decimals (here from the lab's virtual clock, on which the network takes no
 * time), speeds in bytes per second.
 */
import type { HttpResponse } from '../apps/http';
import { labNote } from '../../model/lab-notes';
import type { StdioWrite } from '../../model/stdio';
import type { CurlOptions, TranscriptEntry } from '../programs/types';

/** What curl knows of one transfer (the CURLINFO values -w reads). */
export interface TransferInfo {
  readonly httpCode: number;
  /** GET, or HEAD for -I. */
  readonly method: string;
  /** `1.1`, `1`, or `0` when there was no response. */
  readonly httpVersion: string;
  /** Response headers as received, `Name: value` (no status line). */
  readonly headers: readonly string[];
  readonly sizeHeader: number;
  readonly sizeRequest: number;
  readonly sizeDownload: number;
  /** Set once connected: curl keeps no address of a connection that failed. */
  readonly remote?: { readonly ip: string; readonly port: number };
  readonly local?: { readonly ip: string; readonly port: number };
  readonly numConnects: number;
  readonly url: string;
  readonly urlEffective: string;
  readonly urlnum: number;
  /** -o's file name, unless it is `-` (stdout). */
  readonly filename?: string | undefined;
  readonly exitCode: number;
  readonly errorMessage?: string | undefined;
  /** Times from the start of the transfer, ms (undefined: not reached). */
  readonly times: {
    readonly namelookup: number;
    readonly connect?: number | undefined;
    readonly starttransfer?: number | undefined;
    readonly total: number;
  };
}

/** `%ld` of a time in µs as curl prints it: seconds with six decimals. */
function seconds(ms: number | undefined): string {
  const us = Math.round((ms ?? 0) * 1000);
  return `${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}`;
}

function header(info: TransferInfo, name: string): string | undefined {
  const h = info.headers.find((l) => l.slice(0, l.indexOf(':')).toLowerCase() === name.toLowerCase()); // prettier-ignore
  return h?.slice(h.indexOf(':') + 1).trim();
}

/** Each variable of curl 7.88.1 the lab answers, by name. */
const VARIABLES: Readonly<Record<string, (i: TransferInfo) => string>> = {
  content_type: (i) => header(i, 'content-type') ?? '',
  errormsg: (i) => i.errorMessage ?? '',
  exitcode: (i) => String(i.exitCode),
  filename_effective: (i) => i.filename ?? '',
  ftp_entry_path: () => '',
  http_code: (i) => String(i.httpCode).padStart(3, '0'),
  http_connect: () => '000',
  http_version: (i) => i.httpVersion,
  local_ip: (i) => i.local?.ip ?? '',
  local_port: (i) => String(i.local?.port ?? 0),
  method: (i) => i.method,
  num_certs: () => '0',
  certs: () => '',
  num_connects: (i) => String(i.numConnects),
  num_headers: (i) => String(i.headers.length),
  num_redirects: () => '0',
  proxy_ssl_verify_result: () => '0',
  redirect_url: () => '',
  referer: () => '',
  remote_ip: (i) => i.remote?.ip ?? '',
  remote_port: (i) => String(i.remote?.port ?? 0),
  response_code: (i) => String(i.httpCode).padStart(3, '0'),
  scheme: (i) => (i.remote === undefined ? '' : 'HTTP'),
  size_download: (i) => String(i.sizeDownload),
  size_header: (i) => String(i.sizeHeader),
  size_request: (i) => String(i.sizeRequest),
  size_upload: () => '0',
  // Curl_pgrsUpdate: bytes × 1,000,000 / µs (a transfer of no time counts as 1 µs).
  speed_download: (i) =>
    String(Math.floor((i.sizeDownload * 1e6) / Math.max(1, Math.round(i.times.total * 1000)))),
  speed_upload: () => '0',
  ssl_verify_result: () => '0',
  time_appconnect: () => seconds(0),
  time_connect: (i) => seconds(i.times.connect),
  time_namelookup: (i) => seconds(i.times.namelookup),
  time_pretransfer: (i) => seconds(i.times.connect),
  time_redirect: () => seconds(0),
  time_starttransfer: (i) => seconds(i.times.starttransfer),
  time_total: (i) => seconds(i.times.total),
  url: (i) => i.url,
  url_effective: (i) => i.urlEffective,
  urlnum: (i) => String(i.urlnum),
};

/** The writes of `-w FORMAT` for one transfer, in order (stdout unless `%{stderr}`). */
export function writeOut(format: string, info: TransferInfo): StdioWrite[] {
  const writes: StdioWrite[] = [];
  let fd: 1 | 2 = 1;
  const put = (text: string) => {
    const last = writes.at(-1);
    if (last !== undefined && 'fd' in last && last.fd === fd)
      writes[writes.length - 1] = { fd, text: last.text + text }; // prettier-ignore
    else writes.push({ fd, text });
  };
  for (let p = 0; p < format.length;) {
    const c = format[p]!;
    const next = format[p + 1];
    if (c === '%' && next !== undefined) {
      if (next === '%') {
        put('%');
        p += 2;
      } else if (next === '{') {
        const end = format.indexOf('}', p);
        if (end < 0) {
          put('%{');
          p += 2;
          continue;
        }
        const name = format.slice(p + 2, end);
        p = end + 1;
        const known = Object.hasOwn(VARIABLES, name) ? VARIABLES[name] : undefined;
        if (known !== undefined) put(known(info));
        else if (name === 'stdout' || name === 'stderr') fd = name === 'stdout' ? 1 : 2;
        else if (name === 'onerror') {
          if (info.exitCode === 0) break;
        } else if (name === 'json' || name === 'header_json')
          writes.push({ fd: 2, text: labNote('curl.writeout', { variable: name }) });
        else writes.push({ fd: 2, text: `curl: unknown --write-out variable: '${name}'\n` });
      } else if (format.startsWith('header{', p + 1)) {
        const end = format.indexOf('}', p);
        if (end < 0) {
          put('%header{');
          p += 8;
          continue;
        }
        put(header(info, format.slice(p + 8, end)) ?? '');
        p = end + 1;
      } else {
        // Not a variable: curl prints the two characters as they are.
        put(`%${next}`);
        p += 2;
      }
    } else if (c === '\\' && next !== undefined) {
      put(next === 'n' ? '\n' : next === 'r' ? '\r' : next === 't' ? '\t' : `\\${next}`);
      p += 2;
    } else {
      put(c);
      p++;
    }
  }
  return writes;
}

/** The two ends of a connection. */
export interface ReusedConnection {
  readonly remote: { readonly ip: string; readonly port: number };
  readonly local: { readonly ip: string; readonly port: number };
}

/** What the transcript of one transfer tells -w (see curlOutput). */
export function transferInfo(
  target: CurlOptions,
  tr: readonly TranscriptEntry[],
  t: {
    readonly start: number;
    readonly end: number;
    readonly res: HttpResponse | undefined;
    /** The body received (empty for a failed transfer). */
    readonly received: string;
    readonly fail: { readonly code: number; readonly message: string } | undefined;
    readonly urlnum: number;
    /** The connection a transfer over a kept-alive one re-uses. */
    readonly reusedConnection?: ReusedConnection | undefined;
  },
): TransferInfo {
  let trying: { addr: string; port: number } | undefined;
  let connected: { t: number; ip: string; port: number } | undefined;
  let resolvedAt: number | undefined;
  let firstByte: number | undefined;
  let sizeRequest = 0;
  let reused = false;
  let response = '';
  for (const e of tr) {
    if (e.kind === 'resolved') resolvedAt ??= e.t;
    else if (e.kind === 'trying') trying = { addr: e.addr, port: e.port };
    else if (e.kind === 'connected') connected = { t: e.t, ip: e.local.addr, port: e.local.port };
    else if (e.kind === 'reused') reused = true;
    else if (e.kind === 'sent') sizeRequest += e.text.length;
    else if (e.kind === 'received') {
      firstByte ??= e.t;
      response += e.text;
    }
  }
  const ok = t.fail === undefined && t.res !== undefined;
  const kept = reused ? t.reusedConnection : undefined;
  const up = connected !== undefined || kept !== undefined;
  const headEnd = response.indexOf('\r\n\r\n');
  return {
    httpCode: ok ? t.res!.status : 0,
    method: target.head === true ? 'HEAD' : 'GET',
    httpVersion: !ok ? '0' : t.res!.version === 'HTTP/1.0' ? '1' : '1.1',
    headers: ok ? t.res!.headers : [],
    sizeHeader: ok && headEnd >= 0 ? headEnd + 4 : 0,
    sizeRequest: up ? sizeRequest : 0,
    sizeDownload: t.received.length,
    ...(connected !== undefined && trying !== undefined
      ? { remote: { ip: trying.addr, port: trying.port } }
      : kept !== undefined
        ? { remote: kept.remote }
        : {}),
    ...(connected !== undefined
      ? { local: { ip: connected.ip, port: connected.port } }
      : kept !== undefined
        ? { local: kept.local }
        : {}),
    numConnects: connected !== undefined ? 1 : 0,
    url: target.url,
    urlEffective: target.effectiveUrl,
    urlnum: t.urlnum,
    filename: target.output === '-' ? undefined : target.output,
    exitCode: t.fail?.code ?? 0,
    errorMessage: t.fail?.message,
    times: {
      namelookup: (resolvedAt ?? t.start) - t.start,
      connect: connected === undefined ? undefined : connected.t - t.start,
      starttransfer: firstByte === undefined ? undefined : firstByte - t.start,
      // curl notices -m on its next tick: the limit + 1 ms, as its message says (curl.ts).
      total: t.end - t.start + (tr.at(-1)?.kind === 'deadline' ? 1 : 0),
    },
  };
}
