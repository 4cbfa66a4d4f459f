/**
 * curl 7.88.1 (Debian bookworm) fetching `http://HOST[:PORT]/PATH`: getaddrinfo, connect to the
 * first address with the request queued (sent right after the handshake's ACK, as curl does),
 * read until the response is complete (Content-Length), close (FIN), exit. `-m` bounds the whole
 * transfer, `--connect-timeout` the connect phase (curl's own default is 300 s, so without it a
 * blackholed SYN fails on the kernel's ETIMEDOUT after 127 s).
 *
 * Several URLs are fetched one after the other (serial_transfers in tool_operate.c). curl keeps
 * a connection the server left open (HTTP/1.1 keep-alive) and re-uses it for a later URL to the
 * same host and port — the same pod behind a Service answers again — and it keeps resolved
 * names in its DNS cache. A failed transfer does not stop the next one; the exit code is the
 * last transfer's.
 */
import { curlRequest, parseResponse } from '../apps/http';
import type { Op } from '../net';
import { tcpClose, tcpConnect, tcpWrite } from '../tcp-user';
import type { HostStack, SocketEvent } from '../types';
import { curlOutputAll } from '../output/curl';
import { udpClose } from '../udp';
import { resolveStart } from './resolver';
import type { CurlState, CurlTarget } from './types';

/** The URL being fetched. */
export function curlTarget(prog: CurlState): CurlTarget {
  return prog.index === 0 ? prog.opts : (prog.opts.more?.[prog.index - 1] ?? prog.opts);
}

function finish(prog: CurlState): void {
  prog.phase = 'done';
  prog.done = true;
  prog.wakeAt = undefined;
  prog.exitCode = curlOutputAll(prog.opts, prog.transcript, {
    startedAt: prog.startedAt,
  }).exitCode;
}

function closeConn(op: Op, stack: HostStack, prog: CurlState): void {
  const sock = stack.sockets.find((s) => s.id === prog.socket);
  if (sock?.proto === 'tcp') tcpClose(op, stack, sock);
  prog.socket = undefined;
}

function deadline(prog: CurlState): number | undefined {
  const t = [
    prog.opts.maxTimeMs,
    prog.phase === 'transfer' ? undefined : prog.opts.connectTimeoutMs,
  ]
    .filter((v): v is number => v !== undefined)
    .map((v) => prog.transferStart + v);
  return t.length === 0 ? undefined : Math.min(...t);
}

function connect(op: Op, stack: HostStack, prog: CurlState, addr: string): void {
  const target = curlTarget(prog);
  prog.addr = addr;
  prog.phase = 'connect';
  prog.connections++;
  prog.transcript.push({ t: op.ctx.now, kind: 'trying', addr, port: target.port });
  const request = curlRequest(target.host, target.port, target.path, method(prog));
  const r = tcpConnect(
    op,
    stack,
    { addr, port: target.port },
    {
      owner: { kind: 'program', pid: prog.pid },
      data: { kind: 'text', text: request },
    },
  );
  if ('errno' in r) {
    prog.transcript.push({ t: op.ctx.now, kind: 'connect-failed', errno: r.errno });
    transferDone(op, stack, prog);
    return;
  }
  prog.socket = r.id;
  prog.wakeAt = deadline(prog);
}

export function curlStart(op: Op, stack: HostStack, prog: CurlState): void {
  prog.wakeAt = deadline(prog);
  curlResolved(op, stack, prog);
}

/** Called when the resolver has a result (at once for an address literal). */
export function curlResolved(op: Op, stack: HostStack, prog: CurlState): void {
  const r = prog.resolver?.result;
  if (r === undefined || prog.phase !== 'resolve') return;
  if (!r.ok) {
    prog.transcript.push({ t: op.ctx.now, kind: 'resolve-failed', reason: r.reason });
    return transferDone(op, stack, prog);
  }
  const addr = r.addrs[0] as string;
  prog.dns[curlTarget(prog).host] = addr;
  prog.transcript.push({ t: op.ctx.now, kind: 'resolved', addr });
  connect(op, stack, prog, addr);
}

/** -I asks with HEAD. */
const method = (prog: CurlState) => (prog.opts.head === true ? 'HEAD' : 'GET');

/** The response is all there: its head, and for GET the body its Content-Length announces. */
function complete(text: string, head: boolean): boolean {
  const res = parseResponse(text);
  if (res === undefined) return false;
  if (head) return true;
  const cl = res.headers.find((h) => /^content-length:/i.test(h));
  if (cl === undefined) return res.version === 'HTTP/1.1' && res.status === 204;
  return res.body.length >= Number(cl.split(':')[1]);
}

/** The server keeps the connection open after this response (HTTP/1.1 without close). */
function keptAlive(text: string): boolean {
  const res = parseResponse(text);
  return (
    res !== undefined &&
    res.version === 'HTTP/1.1' &&
    !res.headers.some((h) => /^connection:\s*close/i.test(h))
  );
}

/**
 * One URL is done: the next one starts (over the same connection when curl may re-use it),
 * or curl exits, closing what is left.
 */
function transferDone(op: Op, stack: HostStack, prog: CurlState, reusable = false): void {
  const more = prog.opts.more ?? [];
  if (prog.index >= more.length) {
    closeConn(op, stack, prog);
    return finish(prog);
  }
  const was = curlTarget(prog);
  prog.index++;
  const next = curlTarget(prog);
  const t = op.ctx.now;
  prog.transcript.push({ t, kind: 'next-url', index: prog.index });
  prog.transferStart = t;
  prog.response = '';
  const sock = stack.sockets.find((s) => s.id === prog.socket);
  if (
    reusable &&
    sock?.proto === 'tcp' &&
    sock.state === 'ESTABLISHED' &&
    was.host === next.host &&
    was.port === next.port
  ) {
    const request = curlRequest(next.host, next.port, next.path, method(prog));
    prog.transcript.push({ t, kind: 'reused', conn: prog.connections - 1 });
    prog.transcript.push({ t, kind: 'sent', text: request });
    prog.phase = 'transfer';
    prog.wakeAt = deadline(prog);
    tcpWrite(op, stack, sock, { kind: 'text', text: request });
    return;
  }
  closeConn(op, stack, prog);
  prog.phase = 'resolve';
  prog.wakeAt = deadline(prog);
  const cached = prog.dns[next.host];
  if (cached !== undefined) {
    prog.transcript.push({ t, kind: 'resolved', addr: cached });
    return connect(op, stack, prog, cached);
  }
  const conf = prog.resolver?.conf;
  if (conf === undefined) return finish(prog);
  // The previous lookup's socket goes; a new lookup opens its own.
  const old = stack.sockets.find((s) => s.id === prog.resolver?.socket);
  if (old?.proto === 'udp') udpClose(stack, old);
  resolveStart(op, stack, prog, next.host, conf);
  curlResolved(op, stack, prog);
}

export function curlEvent(op: Op, stack: HostStack, prog: CurlState, ev: SocketEvent): void {
  if (ev.socket !== prog.socket || prog.done) return;
  const t = op.ctx.now;
  const target = curlTarget(prog);
  switch (ev.kind) {
    case 'connected': {
      const sock = stack.sockets.find((s) => s.id === ev.socket);
      if (sock !== undefined) prog.transcript.push({ t, kind: 'connected', local: sock.local });
      prog.transcript.push({
        t,
        kind: 'sent',
        text: curlRequest(target.host, target.port, target.path, method(prog)),
      });
      prog.phase = 'transfer';
      prog.wakeAt = deadline(prog);
      return;
    }
    case 'refused':
    case 'unreachable':
    case 'timeout':
      prog.transcript.push({ t, kind: 'connect-failed', errno: ev.errno ?? 'ECONNREFUSED' });
      prog.socket = undefined;
      return transferDone(op, stack, prog);
    case 'reset':
      prog.transcript.push({ t, kind: 'reset' });
      prog.socket = undefined;
      return transferDone(op, stack, prog);
    case 'data':
      if (ev.data?.kind !== 'text') return;
      prog.response += ev.data.text;
      prog.transcript.push({ t, kind: 'received', text: ev.data.text });
      if (complete(prog.response, prog.opts.head === true))
        transferDone(op, stack, prog, keptAlive(prog.response));
      return;
    case 'eof':
      prog.transcript.push({ t, kind: 'eof' });
      return transferDone(op, stack, prog);
    default:
      return;
  }
}

/** -m / --connect-timeout expired. */
export function curlTimer(op: Op, stack: HostStack, prog: CurlState): void {
  const d = deadline(prog);
  if (d === undefined || op.ctx.now < d) return;
  prog.transcript.push({ t: op.ctx.now, kind: 'deadline' });
  transferDone(op, stack, prog);
}
