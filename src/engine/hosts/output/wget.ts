/**
 * What GNU Wget 1.21.3 prints, from a wget transcript (../programs/wget.ts). The texts are the
 * real wget's (http.c, retr.c, main.c; each compared with the real one in a namespace by
 * tests/kernel/wget.test.ts):
 *
 *     --2026-12-06 05:30:00--  http://web/
 *     Resolving web (web)... 10.96.0.10
 *     Connecting to web (web)|10.96.0.10|:80... connected.
 *     HTTP request sent, awaiting response... 200 OK
 *     Length: 56 [text/plain]
 *     Saving to: ‘STDOUT’
 *
 * Times are the lab clock's (UTC). The transfer takes no time on it, so the progress bar
 * ends `in 0s` and the rate is what wget computes for a zero time (calc_rate: half the timer's
 * resolution, 1 ns); the lab says so (the `wget.rate` note). The bar when stderr is the
 * terminal, else the dots.
 */
import { civilFromUnixMs } from '../../model/civil-time';
import { labNote } from '../../model/lab-notes';
import type { StdioWrite } from '../../model/stdio';
import { parseResponse, type HttpResponse } from '../apps/http';
import type { TranscriptEntry, WgetOptions } from '../programs/types';
import { strerror, type ToolOutput } from './curl';
import { barImage, dotsLine } from './wget-bar';

/** wget's exit status (man wget, EXIT STATUS): 0, 4 network failure, 8 server error. */
export function wgetExitCode(tr: readonly TranscriptEntry[]): number {
  const res = lastResponse(tr);
  if (res === undefined) return 4;
  return res.status >= 400 ? 8 : 0;
}

/** The response of the last try (a complete head), if it got one. */
function lastResponse(tr: readonly TranscriptEntry[]): HttpResponse | undefined {
  let text = '';
  for (const e of tr) {
    if (e.kind === 'wget-try') text = '';
    if (e.kind === 'received') text += e.text;
  }
  return parseResponse(text);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-12-06 05:30:00`: wget's datetime_str(), local time (UTC in the lab's hosts). */
export function wgetDate(unixMs: number): string {
  const c = civilFromUnixMs(unixMs);
  return `${c.year}-${pad(c.month)}-${pad(c.day)} ${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`;
}

/** retr_rate(): bytes over seconds in B/s … GB/s; a zero time counts as 0.5 ns (calc_rate). */
export function wgetRate(bytes: number, seconds: number): string {
  const secs = seconds === 0 ? 0.5e-9 : seconds;
  let rate = bytes / secs;
  const names = ['B/s', 'KB/s', 'MB/s', 'GB/s', 'TB/s'];
  let unit = 0;
  while (unit < names.length - 1 && rate >= 1024) {
    rate /= 1024;
    unit++;
  }
  const digits = rate >= 99.95 ? 0 : rate >= 9.995 ? 1 : 2;
  return `${rate.toFixed(digits)} ${names[unit]}`;
}

/** The file wget saves to without -O: the URL's last path segment, or index.html. */
export function wgetFileName(path: string): string {
  const q = path.indexOf('?');
  const name = (q < 0 ? path : path.slice(0, q)).split('/').pop() ?? '';
  const base = name === '' ? 'index.html' : name;
  return q < 0 ? base : `${base}?${path.slice(q + 1)}`;
}

const isAddress = (host: string) => /^\d+\.\d+\.\d+\.\d+$/.test(host);

/** Content-Type without its parameters, as wget's `Length: N [type]` shows it. */
function header(res: HttpResponse, name: string): string | undefined {
  const line = res.headers.find((h) => h.toLowerCase().startsWith(`${name}:`));
  return line?.slice(name.length + 1).trim();
}

export function wgetOutput(
  opts: WgetOptions,
  tr: readonly TranscriptEntry[],
  env: { readonly epochSeconds: number },
): ToolOutput {
  const writes: StdioWrite[] = [];
  const err = (text: string) => writes.push({ fd: 2, text });
  const date = (t: number) => wgetDate(env.epochSeconds * 1000 + t);
  const verbose = opts.verbosity === 'verbose';
  const brief = opts.verbosity === 'brief';
  const toStdout = opts.output === '-';
  const file = opts.output ?? wgetFileName(opts.path);
  if (verbose && opts.spider) err('Spider mode enabled. Check if remote file exists.\n');
  let tryNo = 0;
  let response = '';
  for (const e of tr) {
    if (e.kind === 'wget-try') {
      tryNo = e.try;
      response = '';
      const which = e.try > 1 ? `(try:${String(e.try).padStart(2)})  ` : '';
      if (verbose) err(`--${date(e.t)}--  ${which}${opts.url}\n`);
    } else if (e.kind === 'resolved' || e.kind === 'resolve-failed') {
      if (isAddress(opts.host) || tryNo > 1) continue;
      const said = `Resolving ${opts.host} (${opts.host})... `;
      if (e.kind === 'resolved') {
        if (verbose) err(`${said}${e.addr}\n`);
        continue;
      }
      const why = e.reason === 'nxdomain' ? 'Name or service not known' : e.reason === 'dns-timeout' ? 'Connection timed out' : 'Temporary failure in name resolution'; // prettier-ignore
      if (verbose) err(`${said}failed: ${why}.\n`);
      if (!(opts.verbosity === 'quiet'))
        err(`wget: unable to resolve host address ‘${opts.host}’\n`);
    } else if (e.kind === 'trying') {
      const where = isAddress(opts.host) ? `${e.addr}:${e.port}` : `${opts.host} (${opts.host})|${e.addr}|:${e.port}`; // prettier-ignore
      if (verbose) err(`Connecting to ${where}... `);
    } else if (e.kind === 'connected') {
      if (verbose) err('connected.\n');
    } else if (e.kind === 'connect-failed') {
      if (opts.verbosity !== 'quiet') err(`failed: ${strerror(e.errno)}.\n`);
      if (verbose && e.errno !== 'ECONNREFUSED') err(retryLine(tryNo, opts.tries));
    } else if (e.kind === 'sent') {
      if (verbose) err('HTTP request sent, awaiting response... ');
    } else if (e.kind === 'reset' || e.kind === 'deadline' || e.kind === 'eof') {
      if (parseResponse(response) !== undefined) continue;
      const why = e.kind === 'reset' ? 'Read error (Connection reset by peer) in headers.' : e.kind === 'deadline' ? 'Read error (Connection timed out) in headers.' : 'No data received.'; // prettier-ignore
      if (verbose) err(`${why}\n${retryLine(tryNo, opts.tries)}`);
    } else if (e.kind === 'received') {
      response += e.text;
    }
  }
  const res = parseResponse(response);
  if (res !== undefined) answered(opts, res, { err, writes, date, file, toStdout, brief, verbose }, lastT(tr)); // prettier-ignore
  const stdout = writes.map((w) => ('fd' in w && w.fd === 1 ? w.text : '')).join('');
  const stderr = writes.map((w) => ('fd' in w && w.fd === 2 ? w.text : '')).join('');
  return { stdout, stderr, exitCode: wgetExitCode(tr), writes };
}

const lastT = (tr: readonly TranscriptEntry[]) => tr[tr.length - 1]?.t ?? 0;

/**
 * After a failed try: printwhat() in http.c, by -t alone (0: no limit). So a wget stopped in
 * its sleep between two tries has said `Retrying.`, as the real one has when Ctrl-C comes.
 */
function retryLine(tryNo: number, tries: number): string {
  return tries === 0 || tryNo < tries ? 'Retrying.\n\n' : 'Giving up.\n\n';
}

interface Out {
  readonly err: (text: string) => void;
  readonly writes: StdioWrite[];
  readonly date: (t: number) => string;
  readonly file: string;
  readonly toStdout: boolean;
  readonly brief: boolean;
  readonly verbose: boolean;
}

/** What wget says and saves once the response's head is in (gethttp, then fd_read_body). */
function answered(opts: WgetOptions, res: HttpResponse, o: Out, end: number): void {
  const { err, verbose } = o;
  if (opts.serverResponse) {
    // -S prints the head even with -q or -nv (the real wget does); the newline ends the
    // `awaiting response... ` line, which only the verbose mode printed.
    const head = [`${res.version} ${res.status} ${res.reason}`, ...res.headers];
    err(`${verbose ? '\n' : ''}${head.map((l) => `  ${l}\n`).join('')}`);
  } else if (verbose) err(`${res.status} ${res.reason}\n`);
  const ok = res.status < 400;
  if (opts.spider) {
    const missing = 'Remote file does not exist -- broken link!!!\n';
    if (verbose) err(ok ? `${lengthLine(res)}Remote file exists.\n\n` : `${missing}\n`);
    if (o.brief) err(ok ? `${o.date(end)} URL: ${opts.url} ${res.status} ${res.reason}\n` : `${opts.url}:\n${missing}`); // prettier-ignore
    return;
  }
  if (!ok) {
    if (o.brief) err(`${opts.url}:\n`);
    if (o.brief || verbose) err(`${o.date(end)} ERROR ${res.status}: ${res.reason}.\n${verbose ? '\n' : ''}`); // prettier-ignore
    return;
  }
  const bytes = utf8Length(res.body);
  const length = header(res, 'content-length');
  const total = length === undefined ? bytes : Number(length);
  const shown = o.toStdout ? 'STDOUT' : o.file;
  const bar = opts.progress === 'bar';
  // The dots start their row with a newline of their own, once the first data is written.
  if (verbose) err(`${lengthLine(res)}Saving to: ‘${shown}’\n${bar ? '\n' : ''}`);
  const name = o.toStdout ? '-' : o.file;
  if (verbose && bar) err(`\r${barImage({ name, columns: opts.columns, total, received: 0, done: false })}`); // prettier-ignore
  if (o.toStdout) o.writes.push({ fd: 1, text: res.body }, { flush: true });
  if (verbose && bar) err(`\r${barImage({ name, columns: opts.columns, total, received: bytes, done: true })}\n\n`); // prettier-ignore
  if (verbose && !bar) err(`\n${dotsLine(bytes, total)}\n\n`);
  const saved = o.toStdout ? 'written to stdout' : `‘${o.file}’ saved`;
  if (verbose) err(`${o.date(end)} (${wgetRate(bytes, 0)}) - ${saved} [${bytes}/${total}]\n\n`);
  if (o.brief) err(`${o.date(end)} URL:${opts.url} [${bytes}/${total}] -> "${name}" [1]\n`);
  if (verbose) err(labNote('wget.rate'));
  const kept = !o.toStdout && o.file !== '/dev/null';
  // Even with -q: the learner would otherwise look for a file that is not there.
  if (kept) err(labNote('wget.file', { file: o.file }));
}

/** `Length: 56 [text/plain]` (the type without its parameters). */
function lengthLine(res: HttpResponse): string {
  const length = header(res, 'content-length');
  const type = header(res, 'content-type')?.split(';')[0]?.trim();
  const typed = type === undefined ? '' : ` [${type}]`;
  return length === undefined ? `Length: unspecified${typed}\n` : `Length: ${length}${typed}\n`;
}

/** Bytes of a text on the wire (the pods' answers are ASCII; a pod's name could be UTF-8). */
export function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}
