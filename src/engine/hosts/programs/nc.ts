/**
 * OpenBSD netcat (Debian netcat-openbsd 1.219), as observed against real servers:
 *
 * - TCP: connect (`-w` bounds the connect and, later, idleness); `-z` closes right after the
 *   handshake; otherwise stdin is sent and whatever arrives is printed until the peer closes or
 *   the connection idles for `-w` seconds (exit 0).
 * - UDP (`-u`): a connected socket. With `-v`, udptest() first writes `X` twice, then once a
 *   second for `-w` seconds (3 without `-w`); a write failing with ECONNREFUSED (the ICMP port
 *   unreachable the earlier X caused) makes nc exit 1 without a message. `-zu` without `-v`
 *   sends nothing and exits 0. Data mode sends stdin, prints datagrams, and exits 0 `-w` seconds
 *   after the last one (or at once, silently, when the socket reports ECONNREFUSED).
 */
import type { Op } from '../net';
import { tcpClose, tcpConnect, tcpWrite } from '../tcp-user';
import type { HostStack, SocketEvent } from '../types';
import { udpClose, udpOpen, udpSend } from '../udp';
import { ncExitCode } from '../output/nc';
import type { NcState } from './types';

function finish(prog: NcState): void {
  prog.phase = 'done';
  prog.done = true;
  prog.wakeAt = undefined;
  prog.exitCode = ncExitCode(prog.opts, prog.transcript);
}

function closeSock(op: Op, stack: HostStack, prog: NcState): void {
  const sock = stack.sockets.find((s) => s.id === prog.socket);
  if (sock?.proto === 'tcp') tcpClose(op, stack, sock);
  else if (sock?.proto === 'udp') udpClose(stack, sock);
  prog.socket = undefined;
}

function idle(op: Op, prog: NcState): void {
  prog.wakeAt = prog.opts.waitMs === undefined ? undefined : op.ctx.now + prog.opts.waitMs;
}

/** Writes one UDP datagram; false (and the program ends) when the socket has an error. */
function udpWrite(op: Op, stack: HostStack, prog: NcState, text: string): boolean {
  const sock = stack.sockets.find((s) => s.id === prog.socket);
  if (sock?.proto !== 'udp') return false;
  const r = udpSend(op, stack, sock, { kind: 'text', text });
  if (r.errno === undefined) return true;
  prog.transcript.push({ t: op.ctx.now, kind: 'udp-refused' });
  closeSock(op, stack, prog);
  finish(prog);
  return false;
}

function startIo(op: Op, stack: HostStack, prog: NcState): void {
  prog.phase = 'io';
  if (prog.opts.udp) {
    if (prog.opts.stdin !== '' && !udpWrite(op, stack, prog, prog.opts.stdin)) return;
  } else {
    const sock = stack.sockets.find((s) => s.id === prog.socket);
    if (sock?.proto === 'tcp' && prog.opts.stdin !== '')
      tcpWrite(op, stack, sock, { kind: 'text', text: prog.opts.stdin });
  }
  if (prog.opts.stdin !== '')
    prog.transcript.push({ t: op.ctx.now, kind: 'sent', text: prog.opts.stdin });
  idle(op, prog);
}

export function ncStart(op: Op, stack: HostStack, prog: NcState): void {
  if (prog.opts.udp && prog.opts.zero && !prog.opts.verbose) return finish(prog);
  ncResolved(op, stack, prog);
}

export function ncResolved(op: Op, stack: HostStack, prog: NcState): void {
  const r = prog.resolver?.result;
  if (r === undefined) return;
  if (!r.ok) {
    prog.transcript.push({ t: op.ctx.now, kind: 'resolve-failed', reason: r.reason });
    return finish(prog);
  }
  const addr = r.addrs[0] as string;
  prog.addr = addr;
  prog.transcript.push({ t: op.ctx.now, kind: 'trying', addr, port: prog.opts.port });
  const owner = { kind: 'program' as const, pid: prog.pid };
  const dst = { addr, port: prog.opts.port };
  if (!prog.opts.udp) {
    const s = tcpConnect(op, stack, dst, { owner });
    if ('errno' in s) {
      prog.transcript.push({ t: op.ctx.now, kind: 'connect-failed', errno: s.errno });
      return finish(prog);
    }
    prog.socket = s.id;
    prog.phase = 'connect';
    idle(op, prog);
    return;
  }
  const s = udpOpen(op, stack, { owner, connect: dst });
  if ('errno' in s) {
    prog.transcript.push({ t: op.ctx.now, kind: 'connect-failed', errno: s.errno });
    return finish(prog);
  }
  prog.socket = s.id;
  if (!prog.opts.verbose) return startIo(op, stack, prog);
  prog.phase = 'probe';
  // udptest(): X now, X again right away, then one a second for -w seconds. The second X goes
  // 1 ms later in the lab so that the ICMP error the first one caused can arrive first, as on a LAN.
  prog.probesLeft = Math.floor((prog.opts.waitMs ?? 3000) / 1000) + 1;
  if (!udpWrite(op, stack, prog, 'X')) return;
  prog.wakeAt = op.ctx.now + 1;
}

/** After each probe: wait for the next one, or report success and go on. */
function probed(op: Op, stack: HostStack, prog: NcState): void {
  if (prog.probesLeft > 0) {
    prog.wakeAt = op.ctx.now + 1000;
    return;
  }
  const sock = stack.sockets.find((s) => s.id === prog.socket);
  if (sock !== undefined)
    prog.transcript.push({ t: op.ctx.now, kind: 'connected', local: sock.local });
  if (prog.opts.zero) {
    closeSock(op, stack, prog);
    return finish(prog);
  }
  startIo(op, stack, prog);
}

export function ncEvent(op: Op, stack: HostStack, prog: NcState, ev: SocketEvent): void {
  if (ev.socket !== prog.socket || prog.done) return;
  const t = op.ctx.now;
  switch (ev.kind) {
    case 'connected':
      prog.transcript.push({
        t,
        kind: 'connected',
        local: stack.sockets.find((s) => s.id === ev.socket)?.local ?? { addr: '', port: 0 },
      });
      if (prog.opts.zero) {
        closeSock(op, stack, prog);
        return finish(prog);
      }
      return startIo(op, stack, prog);
    case 'refused':
    case 'unreachable':
    case 'timeout':
      if (prog.phase === 'connect') {
        prog.transcript.push({ t, kind: 'connect-failed', errno: ev.errno ?? 'ECONNREFUSED' });
        prog.socket = undefined;
        return finish(prog);
      }
      if (prog.phase === 'io' && prog.opts.udp) {
        prog.transcript.push({ t, kind: 'udp-refused' });
        closeSock(op, stack, prog);
        return finish(prog);
      }
      return; // probing: the next write reports it
    case 'data':
    case 'unexpected-source':
      if (ev.data?.kind !== 'text') return;
      prog.output += ev.data.text;
      prog.transcript.push({ t, kind: 'received', text: ev.data.text });
      if (prog.phase === 'io') idle(op, prog);
      return;
    case 'eof':
    case 'reset':
      prog.transcript.push({ t, kind: ev.kind === 'eof' ? 'eof' : 'reset' });
      closeSock(op, stack, prog);
      return finish(prog);
    default:
      return;
  }
}

export function ncTimer(op: Op, stack: HostStack, prog: NcState): void {
  if (prog.wakeAt === undefined || op.ctx.now < prog.wakeAt) return;
  if (prog.phase === 'probe') {
    prog.probesLeft -= 1;
    if (!udpWrite(op, stack, prog, 'X')) return;
    return probed(op, stack, prog);
  }
  prog.transcript.push({ t: op.ctx.now, kind: 'deadline' });
  closeSock(op, stack, prog);
  finish(prog);
}
