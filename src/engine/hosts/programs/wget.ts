/**
 * GNU Wget 1.21.3 (Debian bookworm) fetching one `http://HOST[:PORT]/PATH` (http.c http_loop,
 * retr.c): getaddrinfo once (wget caches the answer, so a retry does not resolve again),
 * connect, send the request, read until the response is complete (Content-Length), close.
 *
 * What fails how (checked with the real wget in a namespace, tests/kernel/wget.test.ts):
 * - a name that does not resolve, and ECONNREFUSED (kube-proxy's REJECT for a Service
 *   without endpoints), end it at once: not retried (retryable_socket_connect_error);
 * - a connect that times out (the kernel's 127 s of SYNs, or -T), a host that is unreachable,
 *   a reset or an early EOF while reading: "Retrying." and another try, up to -t tries (20),
 *   sleeping 1 s before the second, 2 s before the third, … at most 10 s (--waitretry's
 *   default; sleep_between_retrievals); the last one prints "Giving up.".
 */
import { parseResponse, wgetRequest } from '../apps/http';
import type { Op } from '../net';
import { tcpClose, tcpConnect } from '../tcp-user';
import type { HostStack, SocketEvent } from '../types';
import { utf8Length, wgetExitCode } from '../output/wget';
import type { WgetState } from './types';

/** wget's --read-timeout default: 900 s (its -T sets this and the connect timeout). */
const READ_TIMEOUT_MS = 900_000;
/** --waitretry's default: the longest sleep between two tries, s. */
const WAIT_RETRY_S = 10;

function finish(prog: WgetState): void {
  prog.phase = 'done';
  prog.done = true;
  prog.wakeAt = undefined;
  prog.exitCode = wgetExitCode(prog.transcript);
}

function closeConn(op: Op, stack: HostStack, prog: WgetState): void {
  const sock = stack.sockets.find((s) => s.id === prog.socket);
  if (sock?.proto === 'tcp') tcpClose(op, stack, sock);
  prog.socket = undefined;
}

export function wgetRequestText(prog: WgetState): string {
  const { opts } = prog;
  const method = opts.spider ? 'HEAD' : 'GET';
  return wgetRequest(opts, { method, userAgent: opts.userAgent, headers: opts.headers });
}

function connect(op: Op, stack: HostStack, prog: WgetState, addr: string): void {
  prog.phase = 'connect';
  prog.response = '';
  prog.transcript.push({ t: op.ctx.now, kind: 'trying', addr, port: prog.opts.port });
  const r = tcpConnect(
    op,
    stack,
    { addr, port: prog.opts.port },
    {
      owner: { kind: 'program', pid: prog.pid },
      data: { kind: 'text', text: wgetRequestText(prog) },
    },
  );
  if ('errno' in r) return connectFailed(op, stack, prog, r.errno);
  prog.socket = r.id;
  prog.wakeAt = prog.opts.timeoutMs === undefined ? undefined : op.ctx.now + prog.opts.timeoutMs;
}

function connectFailed(op: Op, stack: HostStack, prog: WgetState, errno: string): void {
  prog.transcript.push({ t: op.ctx.now, kind: 'connect-failed', errno });
  closeConn(op, stack, prog);
  // ECONNREFUSED is not retried without --retry-connrefused (retryable_socket_connect_error).
  if (errno === 'ECONNREFUSED') return finish(prog);
  retry(op, prog);
}

/** Another try after wget's sleep, or "Giving up." after the last one. */
function retry(op: Op, prog: WgetState): void {
  const { tries } = prog.opts;
  if (tries !== 0 && prog.tryNo >= tries) return finish(prog);
  prog.phase = 'wait';
  prog.wakeAt = op.ctx.now + Math.min(prog.tryNo, WAIT_RETRY_S) * 1000;
}

export function wgetStart(op: Op, stack: HostStack, prog: WgetState): void {
  prog.tryNo = 1;
  prog.transcript.push({ t: op.ctx.now, kind: 'wget-try', try: 1 });
  // -T bounds the lookup too (--dns-timeout): getaddrinfo is abandoned after T seconds.
  const t = prog.opts.timeoutMs;
  prog.wakeAt = t === undefined ? undefined : op.ctx.now + t;
  wgetResolved(op, stack, prog);
}

/** Called when the resolver has a result (at once for an address literal). */
export function wgetResolved(op: Op, stack: HostStack, prog: WgetState): void {
  const r = prog.resolver?.result;
  if (r === undefined || prog.phase !== 'resolve') return;
  if (!r.ok) {
    prog.transcript.push({ t: op.ctx.now, kind: 'resolve-failed', reason: r.reason });
    return finish(prog);
  }
  const addr = r.addrs[0] as string;
  prog.addr = addr;
  prog.transcript.push({ t: op.ctx.now, kind: 'resolved', addr });
  connect(op, stack, prog, addr);
}

/** The response is all there: its head, and for GET the body its Content-Length announces. */
function complete(text: string, head: boolean): boolean {
  const res = parseResponse(text);
  if (res === undefined) return false;
  if (head) return true;
  const cl = res.headers.find((h) => /^content-length:/i.test(h));
  // Without a length wget reads until the server closes (the eof event).
  if (cl === undefined) return false;
  return utf8Length(res.body) >= Number(cl.split(':')[1]);
}

export function wgetEvent(op: Op, stack: HostStack, prog: WgetState, ev: SocketEvent): void {
  if (ev.socket !== prog.socket || prog.done) return;
  const t = op.ctx.now;
  switch (ev.kind) {
    case 'connected': {
      const sock = stack.sockets.find((s) => s.id === ev.socket);
      if (sock !== undefined) prog.transcript.push({ t, kind: 'connected', local: sock.local });
      prog.transcript.push({ t, kind: 'sent', text: wgetRequestText(prog) });
      prog.phase = 'transfer';
      prog.wakeAt = t + (prog.opts.timeoutMs ?? READ_TIMEOUT_MS);
      return;
    }
    case 'refused':
    case 'unreachable':
    case 'timeout':
      prog.socket = undefined;
      if (prog.phase === 'connect')
        return connectFailed(op, stack, prog, ev.errno ?? 'ECONNREFUSED');
      // Lost while reading: a timeout is wget's read error "Connection timed out".
      prog.transcript.push(ev.kind === 'timeout' ? { t, kind: 'deadline' } : { t, kind: 'reset' });
      return retry(op, prog);
    case 'reset':
      prog.transcript.push({ t, kind: 'reset' });
      prog.socket = undefined;
      return retry(op, prog);
    case 'data':
      if (ev.data?.kind !== 'text') return;
      prog.response += ev.data.text;
      prog.transcript.push({ t, kind: 'received', text: ev.data.text });
      if (!complete(prog.response, prog.opts.spider)) return;
      closeConn(op, stack, prog);
      return finish(prog);
    case 'eof':
      prog.transcript.push({ t, kind: 'eof' });
      closeConn(op, stack, prog);
      // A response without Content-Length ends at EOF; no response at all is retried.
      if (parseResponse(prog.response) !== undefined) return finish(prog);
      return retry(op, prog);
    default:
      return;
  }
}

/** -T expired (lookup, connect or read), or the sleep between two tries is over. */
export function wgetTimer(op: Op, stack: HostStack, prog: WgetState): void {
  if (prog.wakeAt === undefined || op.ctx.now < prog.wakeAt) return;
  if (prog.phase === 'resolve') {
    // Not retried, as a failed lookup is not (HOSTERR); seen with a nameserver that never
    // answers: `Resolving foo (foo)... failed: Connection timed out.` after -T 1.
    prog.transcript.push({ t: op.ctx.now, kind: 'resolve-failed', reason: 'dns-timeout' });
    return finish(prog);
  }
  if (prog.phase === 'connect') return connectFailed(op, stack, prog, 'ETIMEDOUT');
  if (prog.phase === 'transfer') {
    prog.transcript.push({ t: op.ctx.now, kind: 'deadline' });
    closeConn(op, stack, prog);
    return retry(op, prog);
  }
  if (prog.phase !== 'wait' || prog.addr === undefined) return;
  prog.tryNo++;
  prog.transcript.push({ t: op.ctx.now, kind: 'wget-try', try: prog.tryNo });
  connect(op, stack, prog, prog.addr);
}
