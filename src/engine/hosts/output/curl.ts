/**
 * What curl 7.88.1 prints, from a transcript. Texts and exit codes as the real curl printed them
 * against servers in network namespaces (see the golden tests):
 *
 * - refused / unreachable: `curl: (7) Failed to connect to H port P after N ms: Couldn't connect
 *   to server` (7.88 prints the generic text; `-v` shows the errno: `* connect to IP port P
 *   failed: Connection refused`);
 * - the kernel's ETIMEDOUT (127 s of SYNs): the same line with exit code 28;
 * - `-m`: `(28) Connection timed out after N milliseconds` while connecting, `(28) Operation timed
 *   out after N milliseconds with B bytes received` later, `(28) Resolving timed out after …`;
 *   `--connect-timeout`: `(28) Failed to connect to H port P after N ms: Timeout was reached`.
 *   curl notices its timeout on the next tick: the lab prints the limit + 1 ms, as curl usually does;
 * - reset: `(56) Recv failure: Connection reset by peer`; a close before any byte: `(52) Empty
 *   reply from server`; no address: `(6) Could not resolve host: H`.
 *
 * `-s` hides the error line and the progress meter, `-S` brings the error line back, `-v` adds
 * the `*`, `>` and `<` lines (on stderr). When stdout is not a terminal, curl also prints its
 * progress meter and, with `-v`, `{ [N bytes data]` lines.
 */
import { parseResponse } from '../apps/http';
import type { CurlOptions, TranscriptEntry } from '../programs/types';
import { PROGRESS_HEADER, meterLine } from './progress';
import { stdioAround, type StdioWrite } from '../../model/stdio';
import { includedHead, includeWrites } from './curl-include';
import { transferInfo, writeOut, type ReusedConnection } from './curl-writeout';

export interface CurlEnv {
  readonly startedAt: number;
  /** The terminal shows stdout (no progress meter, no `{ [N bytes data]`). Default true. */
  readonly stdoutIsTty?: boolean;
  /** curl's number of the connection this transfer uses (#0 for the first). */
  readonly conn?: number;
  /** Which URL of the command line this transfer is (0 for the first; -w's %{urlnum}). */
  readonly urlnum?: number;
  /** The addresses of the kept-alive connection a transfer re-uses (for -w). */
  readonly reusedConnection?: ReusedConnection | undefined;
}

export interface ToolOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  /** The writes in order, where `2>&1` depends on it (model/stdio.ts). */
  readonly writes?: readonly StdioWrite[];
}

/** curl's output, with its writes in order: the body comes after the response's verbose lines. */
export interface CurlOutput extends ToolOutput {
  readonly writes: readonly StdioWrite[];
}

const STRERROR: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'Connection refused',
  ETIMEDOUT: 'Connection timed out',
  EHOSTUNREACH: 'No route to host',
  ENETUNREACH: 'Network is unreachable',
  ECONNRESET: 'Connection reset by peer',
  EPIPE: 'Broken pipe',
  EADDRNOTAVAIL: 'Cannot assign requested address',
};

export function strerror(errno: string): string {
  return STRERROR[errno] ?? errno;
}

interface Failure {
  readonly code: number;
  readonly message: string;
  readonly t: number;
  readonly verbose: readonly string[];
}

function failureOf(
  opts: CurlOptions,
  tr: readonly TranscriptEntry[],
  start: number,
): Failure | undefined {
  const last = tr.at(-1);
  if (last === undefined) return undefined;
  const ms = last.t - start;
  const where = `${opts.host} port ${opts.port}`;
  const trying = tr.find((e) => e.kind === 'trying');
  const addr = trying?.kind === 'trying' ? trying.addr : opts.host;
  const connected = tr.some((e) => e.kind === 'connected');
  const body = bodyOf(tr);
  switch (last.kind) {
    case 'resolve-failed': {
      const message = `Could not resolve host: ${opts.host}`;
      return { code: 6, message, t: last.t, verbose: [`* ${message}`] };
    }
    case 'connect-failed': {
      const message = `Failed to connect to ${where} after ${ms} ms: Couldn't connect to server`;
      return {
        code: last.errno === 'ETIMEDOUT' ? 28 : 7,
        message,
        t: last.t,
        verbose: [
          `* connect to ${addr} port ${opts.port} failed: ${strerror(last.errno)}`,
          `* ${message}`,
        ],
      };
    }
    case 'deadline': {
      const n = ms + 1;
      const byConnectTimeout =
        !connected &&
        trying !== undefined &&
        opts.connectTimeoutMs !== undefined &&
        (opts.maxTimeMs === undefined || opts.connectTimeoutMs <= opts.maxTimeMs);
      const message = byConnectTimeout
        ? `Failed to connect to ${where} after ${n} ms: Timeout was reached`
        : connected
          ? `Operation timed out after ${n} milliseconds with ${body.length} bytes received`
          : trying !== undefined
            ? `Connection timed out after ${n} milliseconds`
            : `Resolving timed out after ${n} milliseconds`;
      return { code: 28, message, t: last.t, verbose: [`* ${message}`] };
    }
    case 'reset': {
      const message = 'Recv failure: Connection reset by peer';
      return { code: 56, message, t: last.t, verbose: [`* ${message}`] };
    }
    case 'eof':
      if (body === '' && !tr.some((e) => e.kind === 'received')) {
        const message = 'Empty reply from server';
        return { code: 52, message, t: last.t, verbose: [`* ${message}`] };
      }
      return undefined;
    default:
      return undefined;
  }
}

function responseText(tr: readonly TranscriptEntry[]): string {
  return tr.map((e) => (e.kind === 'received' ? e.text : '')).join('');
}

function bodyOf(tr: readonly TranscriptEntry[]): string {
  return parseResponse(responseText(tr))?.body ?? '';
}

function headerLines(text: string, prefix: string): string[] {
  const head = text.split('\r\n\r\n')[0] ?? '';
  return [...head.split('\r\n'), ''].map((l) => `${prefix}${l}\r`);
}

/** curl's stdout, stderr and exit code for a finished transcript. */
export function curlOutput(
  opts: CurlOptions,
  tr: readonly TranscriptEntry[],
  env: CurlEnv,
): CurlOutput {
  const start = env.startedAt;
  const conn = env.conn ?? 0;
  // The body goes to stdout unless -o names a file; the meter and `{ [N bytes data]` show
  // whenever it does not go to the terminal (tool_operate.c: global->isatty).
  const toStdout = opts.output === undefined || opts.output === '-';
  const tty = (env.stdoutIsTty ?? true) && toStdout;
  const fail = failureOf(opts, tr, start);
  const res = parseResponse(responseText(tr));
  const received = fail === undefined ? (res?.body ?? '') : '';
  const body = toStdout ? received : '';
  // Verbose lines with their time, then the progress meter interleaved once a second.
  const lines: { t: number; text: string }[] = [];
  if (opts.verbose) {
    for (const e of tr) {
      if (e.kind === 'trying') lines.push({ t: e.t, text: `*   Trying ${e.addr}:${e.port}...` });
      if (e.kind === 'connected') {
        const trying = tr.find((x) => x.kind === 'trying');
        const ip = trying?.kind === 'trying' ? trying.addr : opts.host;
        lines.push({
          t: e.t,
          text: `* Connected to ${opts.host} (${ip}) port ${opts.port} (#${conn})`,
        });
      }
      if (e.kind === 'reused')
        lines.push({
          t: e.t,
          text: `* Re-using existing connection #${conn} with host ${opts.host}`,
        });
      if (e.kind === 'sent')
        for (const l of headerLines(e.text, '> ')) lines.push({ t: e.t, text: l });
    }
    if (res !== undefined && fail === undefined) {
      const t = [...tr].reverse().find((e) => e.kind === 'received')?.t ?? start;
      for (const l of headerLines(responseText(tr), '< ')) lines.push({ t, text: l });
      if (!tty && res.body.length > 0) lines.push({ t, text: `{ [${res.body.length} bytes data]` });
    }
    if (fail !== undefined) for (const l of fail.verbose) lines.push({ t: fail.t, text: l });
  }
  const end = tr.at(-1)?.t ?? start;
  let last = '';
  if (opts.verbose) {
    const closes =
      fail !== undefined ||
      res?.version === 'HTTP/1.0' ||
      res?.headers.some((h) => /^connection:\s*close/i.test(h)) === true;
    last = closes
      ? `* Closing connection ${conn}\n`
      : `* Connection #${conn} to host ${opts.host} left intact\n`;
  }
  let stderr = '';
  const meter = !opts.silent && !tty;
  const expectedHeader = res?.headers.find((h) => /^content-length:/i.test(h));
  const expected = expectedHeader === undefined ? undefined : Number(expectedHeader.split(':')[1]);
  if (meter) {
    stderr += `${PROGRESS_HEADER}\r${meterLine({ received: 0, elapsedMs: 0 })}`;
    let second = 1;
    // Once a second while waiting, strictly before the next line (a timeout that fires on the
    // second prints its message first, then the final meter).
    for (const l of lines) {
      for (; start + second * 1000 < l.t; second++)
        stderr += `\r${meterLine({ received: 0, elapsedMs: second * 1000 })}`;
      stderr += `${l.text}\n`;
    }
    for (; start + second * 1000 < end; second++)
      stderr += `\r${meterLine({ received: 0, elapsedMs: second * 1000 })}`;
  } else {
    stderr += lines.map((l) => `${l.text}\n`).join('');
  }
  // The body is written as it arrives, after the response's verbose lines; the final meter,
  // the connection's fate and the error come after it.
  const beforeBody = stderr.length;
  if (meter) {
    stderr += `\r${meterLine({ expected: fail === undefined ? expected : undefined, received: received.length, elapsedMs: end - start })}\n`;
  }
  stderr += last;
  if (fail !== undefined && (!opts.silent || opts.showError))
    stderr += `curl: (${fail.code}) ${fail.message}\n`;
  // -i: the head goes to the output before the body (curl-include.ts).
  const text = responseText(tr);
  const head = (opts.include === true || opts.head === true) && toStdout && fail === undefined && res !== undefined ? text.slice(0, text.indexOf('\r\n\r\n') + 4) : ''; // prettier-ignore
  const [before, after] = [stderr.slice(0, beforeBody), stderr.slice(beforeBody)];
  const writes =
    head === '' ? stdioAround(before, body, after) : includeWrites(before, head, body, after, tty);
  let stdout = (head === '' ? '' : includedHead(head, tty).join('')) + body;
  // -w comes after everything else of the transfer (post_per_transfer → ourWriteOut).
  if (opts.writeOut !== undefined) {
    const info = transferInfo(opts, tr, {
      start,
      end,
      res,
      received,
      fail,
      urlnum: env.urlnum ?? 0,
      reusedConnection: env.reusedConnection,
    });
    for (const w of writeOut(opts.writeOut, info)) {
      writes.push(w);
      if ('fd' in w && w.fd === 1) stdout += w.text;
      else if ('fd' in w) stderr += w.text;
    }
  }
  return { stdout, stderr, exitCode: fail?.code ?? 0, writes };
}

/**
 * curl with several URLs: each transfer's output in turn (a transcript is split at its
 * `next-url` marks), the exit code of the last transfer (tool_operate.c serial_transfers).
 */
export function curlOutputAll(
  opts: CurlOptions,
  tr: readonly TranscriptEntry[],
  env: CurlEnv,
): CurlOutput {
  if (opts.more === undefined || opts.more.length === 0) return curlOutput(opts, tr, env);
  const parts: { index: number; start: number; entries: TranscriptEntry[] }[] = [
    { index: 0, start: env.startedAt, entries: [] },
  ];
  for (const e of tr) {
    if (e.kind === 'next-url') parts.push({ index: e.index, start: e.t, entries: [] });
    else parts[parts.length - 1]!.entries.push(e);
  }
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  let connections = 0;
  let connection: ReusedConnection | undefined;
  const writes: StdioWrite[] = [];
  for (const part of parts) {
    const target = part.index === 0 ? opts : (opts.more[part.index - 1] ?? opts);
    const reused = part.entries.find((e) => e.kind === 'reused');
    if (part.entries.some((e) => e.kind === 'trying')) connections++;
    const conn = reused?.kind === 'reused' ? reused.conn : Math.max(0, connections - 1);
    const reusedConnection = reused === undefined ? undefined : connection;
    connection = connectionOf(part.entries) ?? reusedConnection;
    const out = curlOutput(
      { ...opts, ...target, output: target.output, more: undefined },
      part.entries,
      {
        reusedConnection,
        ...env,
        startedAt: part.start,
        conn,
        urlnum: part.index,
      },
    );
    stdout += out.stdout;
    stderr += out.stderr;
    exitCode = out.exitCode;
    writes.push(...out.writes);
  }
  return { stdout, stderr, exitCode, writes };
}

/** The addresses of the connection a transfer made, if it made one. */
function connectionOf(tr: readonly TranscriptEntry[]): ReusedConnection | undefined {
  const trying = [...tr].reverse().find((e) => e.kind === 'trying');
  const connected = tr.find((e) => e.kind === 'connected');
  if (trying?.kind !== 'trying' || connected?.kind !== 'connected') return undefined;
  return {
    remote: { ip: trying.addr, port: trying.port },
    local: { ip: connected.local.addr, port: connected.local.port },
  };
}
