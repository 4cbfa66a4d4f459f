/**
 * curl 7.88.1 (Debian bookworm) fetching `http://HOST[:PORT]/PATH`: getaddrinfo, connect to the
 * first address with the request queued (sent right after the handshake's ACK, as curl does),
 * read until the response is complete (Content-Length), close (FIN), exit. `-m` bounds the whole
 * transfer, `--connect-timeout` the connect phase (curl's own default is 300 s, so without it a
 * blackholed SYN fails on the kernel's ETIMEDOUT after 127 s).
 */
import { curlRequest, parseResponse } from '../apps/http';
import type { Op } from '../net';
import { tcpClose, tcpConnect } from '../tcp-user';
import type { HostStack, SocketEvent } from '../types';
import { curlOutput } from '../output/curl';
import type { CurlState } from './types';

function finish(prog: CurlState): void {
  prog.phase = 'done';
  prog.done = true;
  prog.wakeAt = undefined;
  prog.exitCode = curlOutput(prog.opts, prog.transcript, { startedAt: prog.startedAt }).exitCode;
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
    .map((v) => prog.startedAt + v);
  return t.length === 0 ? undefined : Math.min(...t);
}

function connect(op: Op, stack: HostStack, prog: CurlState, addr: string): void {
  prog.addr = addr;
  prog.phase = 'connect';
  prog.transcript.push({ t: op.ctx.now, kind: 'trying', addr, port: prog.opts.port });
  const request = curlRequest(prog.opts.host, prog.opts.port, prog.opts.path);
  const r = tcpConnect(
    op,
    stack,
    { addr, port: prog.opts.port },
    {
      owner: { kind: 'program', pid: prog.pid },
      data: { kind: 'text', text: request },
    },
  );
  if ('errno' in r) {
    prog.transcript.push({ t: op.ctx.now, kind: 'connect-failed', errno: r.errno });
    finish(prog);
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
  if (r === undefined) return;
  if (!r.ok) {
    prog.transcript.push({ t: op.ctx.now, kind: 'resolve-failed', reason: r.reason });
    return finish(prog);
  }
  const addr = r.addrs[0] as string;
  prog.transcript.push({ t: op.ctx.now, kind: 'resolved', addr });
  connect(op, stack, prog, addr);
}

function complete(text: string): boolean {
  const res = parseResponse(text);
  if (res === undefined) return false;
  const cl = res.headers.find((h) => /^content-length:/i.test(h));
  if (cl === undefined) return res.version === 'HTTP/1.1' && res.status === 204;
  return res.body.length >= Number(cl.split(':')[1]);
}

export function curlEvent(op: Op, stack: HostStack, prog: CurlState, ev: SocketEvent): void {
  if (ev.socket !== prog.socket || prog.done) return;
  const t = op.ctx.now;
  switch (ev.kind) {
    case 'connected': {
      const sock = stack.sockets.find((s) => s.id === ev.socket);
      if (sock !== undefined) prog.transcript.push({ t, kind: 'connected', local: sock.local });
      prog.transcript.push({
        t,
        kind: 'sent',
        text: curlRequest(prog.opts.host, prog.opts.port, prog.opts.path),
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
      return finish(prog);
    case 'reset':
      prog.transcript.push({ t, kind: 'reset' });
      prog.socket = undefined;
      return finish(prog);
    case 'data':
      if (ev.data?.kind !== 'text') return;
      prog.response += ev.data.text;
      prog.transcript.push({ t, kind: 'received', text: ev.data.text });
      if (complete(prog.response)) {
        closeConn(op, stack, prog);
        finish(prog);
      }
      return;
    case 'eof':
      prog.transcript.push({ t, kind: 'eof' });
      closeConn(op, stack, prog);
      return finish(prog);
    default:
      return;
  }
}

/** -m / --connect-timeout expired. */
export function curlTimer(op: Op, stack: HostStack, prog: CurlState): void {
  const d = deadline(prog);
  if (d === undefined || op.ctx.now < d) return;
  prog.transcript.push({ t: op.ctx.now, kind: 'deadline' });
  closeConn(op, stack, prog);
  finish(prog);
}
