/**
 * TCP from the socket owner's side (connect, write, close) and the timers (tcp_timer.c):
 *
 * - Retransmission: the head of the retransmit queue is resent when the RTO fires, the RTO
 *   doubling up to TCP_RTO_MAX (120 s). A SYN starts at TCP_TIMEOUT_INIT (1 s); data and FIN at
 *   TCP_RTO_MIN (200 ms: a LAN RTT adds nothing measurable).
 * - Giving up (retransmits_timed_out): when the time since the first transmission reaches
 *   tcp_model_timeout(boundary, rto_base) — for a SYN, boundary tcp_syn_retries (6) and base
 *   1 s: (2^7 - 1) s = 127 s, so SYNs leave at 0, 1, 3, 7, 15, 31, 63 s and connect() fails with
 *   ETIMEDOUT at 127 s; for data tcp_retries2 (15), base 200 ms: ≈ 924.6 s. Linux ≥ 6.5 makes the
 *   first tcp_syn_linear_timeouts (4) SYN backoffs linear; bookworm's 6.1 does not, nor does the lab.
 * - A passive SYN_RECV child resends its SYN-ACK tcp_synack_retries (5) times (1, 3, 7, 15, 31 s)
 *   and is dropped silently at 63 s (reqsk_timer_handler).
 * - TIME_WAIT lasts TCP_TIMEWAIT_LEN, 60 s; an orphaned FIN_WAIT2 dies after tcp_fin_timeout (60 s).
 * - The ACK of a FIN is delayed by the ATO (40 ms, pingpong mode after tcp_fin), so an owner that
 *   closes at once sends one `F.` that also acknowledges the peer's FIN.
 */
import type { Op } from './net';
import { connectDestination, event, nextSocketId, routeFor, send, tcpEphemeralPort } from './net';
import { dataSegment, seqAdd, synSegment, SYN_WINDOW } from './tcp-segment';
import type { HostStack, Owner, Payload, SockAddr, TcpSocket } from './types';
import { payloadBytes } from './net';
import { addSocket, removeSocket, removeSockets } from './socket-index';

export const TCP_TIMEOUT_INIT = 1000;
export const TCP_RTO_MIN = 200;
export const TCP_RTO_MAX = 120_000;
export const DELAYED_ACK_MS = 40;
export const FIN_TIMEOUT_MS = 60_000;

/** tcp_model_timeout: how long retransmissions go on before the connection is abandoned. */
export function modelTimeout(boundary: number, rtoBase: number): number {
  const thresh = Math.floor(Math.log2(TCP_RTO_MAX / rtoBase));
  if (boundary <= thresh) return ((2 << boundary) - 1) * rtoBase;
  return ((2 << thresh) - 1) * rtoBase + (boundary - thresh) * TCP_RTO_MAX;
}

export { removeSocket };

export function setState(op: Op, sock: TcpSocket, state: TcpSocket['state']): void {
  sock.state = state;
  sock.since = op.ctx.now;
}

/** Sends a segment that occupies sequence space and queues it for retransmission. */
function transmit(op: Op, stack: HostStack, sock: TcpSocket, flags: string, payload?: Payload) {
  const len =
    (payload === undefined ? 0 : payloadBytes(payload, 'tcp')) + (flags.includes('F') ? 1 : 0);
  send(op, stack, sock.iface, dataSegment(sock, flags, sock.sndNxt, op.ctx.now, payload));
  // Field by field, in the order the conditional spread gave, without its temporary object.
  const sent: { seq: number; len: number; flags: string; payload?: Payload } = {
    seq: sock.sndNxt,
    len,
    flags,
  };
  if (payload !== undefined) sent.payload = payload;
  sock.inFlight.push(sent);
  sock.sndNxt = seqAdd(sock.sndNxt, len);
  sock.delayedAckDue = undefined;
  if (sock.rtxDue === undefined) {
    sock.rto = TCP_RTO_MIN;
    sock.retransmits = 0;
    sock.rtxStart = op.ctx.now;
    sock.rtxDue = op.ctx.now + sock.rto;
  }
}

export function sendAck(op: Op, stack: HostStack, sock: TcpSocket): void {
  send(op, stack, sock.iface, dataSegment(sock, '.', sock.sndNxt, op.ctx.now));
  sock.delayedAckDue = undefined;
}

/** Writes queued data, then the FIN if the owner closed (tcp_push / tcp_send_fin). */
export function flush(op: Op, stack: HostStack, sock: TcpSocket): void {
  if (sock.state !== 'ESTABLISHED' && sock.state !== 'CLOSE_WAIT') return;
  while (sock.sendQueue.length > 0) {
    const p = sock.sendQueue.shift() as Payload;
    transmit(op, stack, sock, 'P.', p);
  }
  if (sock.closeRequested) {
    setState(op, sock, sock.state === 'ESTABLISHED' ? 'FIN_WAIT1' : 'LAST_ACK');
    transmit(op, stack, sock, 'F.');
  }
}

export interface ConnectOptions {
  readonly owner: Owner;
  /** Data to send as soon as the connection is established (curl's request). */
  readonly data?: Payload;
}

/** connect(): picks the route and source, an ephemeral port and an ISN, and sends the SYN. */
export function tcpConnect(
  op: Op,
  stack: HostStack,
  to: SockAddr,
  opts: ConnectOptions,
): TcpSocket | { readonly errno: 'ENETUNREACH' | 'EADDRNOTAVAIL' } {
  const dst = connectDestination(to);
  const route = routeFor(stack, dst.addr);
  if (route === undefined) return { errno: 'ENETUNREACH' };
  const port = tcpEphemeralPort(stack, op.ctx.rng.nextU32());
  if (port === undefined) return { errno: 'EADDRNOTAVAIL' };
  const iss = op.ctx.rng.nextU32();
  const sock: TcpSocket = {
    id: nextSocketId(op.hosts),
    proto: 'tcp',
    owner: opts.owner,
    state: 'SYN_SENT',
    local: { addr: route.src, port },
    remote: dst,
    iface: route.dev,
    active: true,
    iss,
    sndUna: iss,
    sndNxt: seqAdd(iss, 1),
    irs: 0,
    rcvNxt: 0,
    tsOffset: op.ctx.rng.nextU32(),
    tsRecent: 0,
    rcvWnd: SYN_WINDOW,
    rcvWup: 0,
    inFlight: [{ seq: iss, len: 1, flags: 'S' }],
    sendQueue: opts.data === undefined ? [] : [opts.data],
    closeRequested: false,
    rtxDue: op.ctx.now + TCP_TIMEOUT_INIT,
    rto: TCP_TIMEOUT_INIT,
    retransmits: 0,
    rtxStart: op.ctx.now,
    since: op.ctx.now,
    softError: undefined,
  };
  addSocket(stack, sock);
  send(op, stack, sock.iface, synSegment(sock, op.ctx.now));
  return sock;
}

/** write(): sent now when established, else queued until the handshake completes. */
export function tcpWrite(op: Op, stack: HostStack, sock: TcpSocket, data: Payload): void {
  sock.sendQueue.push(data);
  flush(op, stack, sock);
}

/**
 * close(): FIN after pending data (ESTABLISHED → FIN_WAIT1, CLOSE_WAIT → LAST_ACK). A socket
 * still connecting just disappears (tcp_close_state maps SYN_SENT to CLOSE: no FIN, no RST).
 */
export function tcpClose(op: Op, stack: HostStack, sock: TcpSocket): void {
  sock.owner = { kind: 'none' };
  if (sock.state === 'SYN_SENT' || sock.state === 'LISTEN') {
    removeSocket(stack, sock);
    return;
  }
  if (sock.closeRequested) return;
  sock.closeRequested = true;
  flush(op, stack, sock);
}

function retransmitHead(op: Op, stack: HostStack, sock: TcpSocket): void {
  const head = sock.inFlight[0];
  if (head === undefined) return;
  const seg =
    head.flags === 'S' || head.flags === 'S.'
      ? synSegment(sock, op.ctx.now)
      : dataSegment(sock, head.flags, head.seq, op.ctx.now, head.payload);
  send(op, stack, sock.iface, seg);
}

/** The retransmission timer fired (tcp_retransmit_timer / the request-sock timer). */
function onRetransmitTimer(op: Op, stack: HostStack, sock: TcpSocket): void {
  const now = op.ctx.now;
  if (sock.state === 'SYN_RECV') {
    if (sock.retransmits >= stack.sysctl.synackRetries) {
      removeSocket(stack, sock);
      return;
    }
  } else {
    const syn = sock.state === 'SYN_SENT';
    const boundary = syn ? stack.sysctl.synRetries : stack.sysctl.retries2;
    const base = syn ? TCP_TIMEOUT_INIT : TCP_RTO_MIN;
    const start = sock.rtxStart ?? now;
    if (sock.retransmits > 0 && now - start >= modelTimeout(boundary, base)) {
      // tcp_write_err(): sk->sk_err = sk->sk_err_soft ? : ETIMEDOUT.
      event(op, stack, sock, 'timeout', { errno: sock.softError ?? 'ETIMEDOUT' });
      removeSocket(stack, sock);
      return;
    }
  }
  retransmitHead(op, stack, sock);
  sock.retransmits += 1;
  sock.rto = Math.min(sock.rto * 2, TCP_RTO_MAX);
  sock.rtxDue = now + sock.rto;
}

/** Runs every TCP timer of the host that is due at `op.ctx.now`. */
export function tcpTimers(op: Op, stack: HostStack): void {
  const now = op.ctx.now;
  const due = (t: number | undefined) => t !== undefined && t <= now;
  // Ended TIME_WAIT sockets leave the table together (removeSockets: one pass), before the
  // next timer that acts runs, so that timer sees the table as if each had left on its turn.
  const ended = new Set<number>();
  for (const sock of [...stack.sockets]) {
    if (sock.proto !== 'tcp') continue;
    if (sock.timeWaitUntil !== undefined && sock.timeWaitUntil <= now) {
      ended.add(sock.id);
      continue;
    }
    if (!due(sock.delayedAckDue) && !due(sock.rtxDue) && !due(sock.readDeadline)) continue;
    removeSockets(stack, ended);
    ended.clear();
    if (due(sock.delayedAckDue)) sendAck(op, stack, sock);
    if (due(sock.rtxDue)) onRetransmitTimer(op, stack, sock);
    if (due(sock.readDeadline)) {
      sock.readDeadline = undefined;
      event(op, stack, sock, 'deadline');
    }
  }
  removeSockets(stack, ended);
}

/** The earliest TCP timer of the host, if any. */
export function tcpNextTimer(stack: HostStack): number | undefined {
  let next: number | undefined;
  for (const s of stack.sockets) {
    if (s.proto !== 'tcp') continue;
    for (const t of [s.timeWaitUntil, s.delayedAckDue, s.rtxDue, s.readDeadline])
      if (t !== undefined && (next === undefined || t < next)) next = t;
  }
  return next;
}
