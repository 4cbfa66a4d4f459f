/**
 * Segments arriving at a host (tcp_v4_rcv): the socket lookup by the exact 4-tuple, then a
 * listener on the port (the `__inet_lookup` order), then the state machine of tcp_input.c as far
 * as the lab needs it. No socket at all → tcp_v4_send_reset.
 *
 * The same-node Service bug hinges on the lookup: a client connected to 10.96.0.20:80 that gets a
 * SYN-ACK from 10.244.1.10:8080 finds no socket for that 4-tuple (and no listener on its port), so
 * the kernel resets it (`R`, seq = the SYN-ACK's ack) and the connecting socket, which never saw
 * it, keeps retransmitting its SYN.
 */
import type { Explanation } from '../../protocol/trace';
import type { Op } from './net';
import { event, nextSocketId, routeFor, send, payloadBytes } from './net';
import type { Flags } from './tcp-segment';
import { parseFlags, resetFor, seqAdd, seqDiff, synSegment, SYNACK_WINDOW } from './tcp-segment';
import {
  DELAYED_ACK_MS,
  FIN_TIMEOUT_MS,
  TCP_RTO_MIN,
  TCP_TIMEOUT_INIT,
  flush,
  removeSocket,
  sendAck,
  setState,
} from './tcp-user';
import { addSocket } from './socket-index';
import { resetWhy, tcpLookup } from './tcp-lookup';
import type { HostPacket, HostStack, TcpSocket } from './types';

/** The sequence fields of an arriving segment (absent ones read as 0). */
interface Seg {
  readonly seq: number;
  readonly ack: number;
  /** The peer's TS val, if the segment has the timestamp option. */
  readonly ts: number | undefined;
}

function replyReset(op: Op, stack: HostStack, p: HostPacket, why: Explanation): void {
  const rst = resetFor(p);
  if (rst !== undefined) send(op, stack, routeFor(stack, p.src)?.dev ?? 'eth0', rst, why);
}

/** A SYN on a listening port: a SYN_RECV child answers with a SYN-ACK. */
function passiveOpen(op: Op, stack: HostStack, listener: TcpSocket, p: HostPacket, tcp: Seg) {
  const iss = op.ctx.rng.nextU32();
  const child: TcpSocket = {
    id: nextSocketId(op.hosts),
    proto: 'tcp',
    owner: listener.owner,
    state: 'SYN_RECV',
    local: { addr: p.dst, port: p.dport ?? 0 },
    remote: { addr: p.src, port: p.sport ?? 0 },
    iface: routeFor(stack, p.src)?.dev ?? listener.iface,
    active: false,
    listener: listener.id,
    iss,
    sndUna: iss,
    sndNxt: seqAdd(iss, 1),
    irs: tcp.seq,
    rcvNxt: seqAdd(tcp.seq, 1),
    tsOffset: op.ctx.rng.nextU32(),
    tsRecent: tcp.ts ?? 0,
    // tcp_create_openreq_child(): rcv_wnd is the SYN-ACK's window, rcv_wup = rcv_nxt.
    rcvWnd: SYNACK_WINDOW,
    rcvWup: seqAdd(tcp.seq, 1),
    inFlight: [{ seq: iss, len: 1, flags: 'S.' }],
    sendQueue: [],
    closeRequested: false,
    rtxDue: op.ctx.now + TCP_TIMEOUT_INIT,
    rto: TCP_TIMEOUT_INIT,
    retransmits: 0,
    rtxStart: op.ctx.now,
    since: op.ctx.now,
    softError: undefined,
  };
  addSocket(stack, child);
  send(op, stack, child.iface, synSegment(child, op.ctx.now));
}

/** An acceptable ACK advances snd_una, trims the retransmit queue and re-arms the timer. */
function processAck(op: Op, sock: TcpSocket, ack: number): void {
  if (seqDiff(ack, sock.sndUna) <= 0 || seqDiff(ack, sock.sndNxt) > 0) return;
  sock.sndUna = ack;
  // tcp_ack(): "We passed data and got it acked, remove any soft error log."
  sock.softError = undefined;
  sock.inFlight = sock.inFlight.filter((s) => seqDiff(seqAdd(s.seq, s.len), ack) > 0);
  sock.retransmits = 0;
  if (sock.inFlight.length === 0) {
    sock.rtxDue = undefined;
    sock.rtxStart = undefined;
  } else {
    sock.rto = TCP_RTO_MIN;
    sock.rtxStart = op.ctx.now;
    sock.rtxDue = op.ctx.now + sock.rto;
  }
}

function synSent(op: Op, stack: HostStack, sock: TcpSocket, p: HostPacket, f: Flags, tcp: Seg) {
  if (f.ack && tcp.ack !== sock.sndNxt) {
    // tcp_rcv_synsent_state_process: unacceptable ACK → reset_and_undo (the RST is dropped).
    if (!f.rst) replyReset(op, stack, p, resetWhy(stack, p, { kind: 'connection', sock }));
    return;
  }
  if (f.rst) {
    if (!f.ack) return;
    event(op, stack, sock, 'refused', { errno: 'ECONNREFUSED' });
    removeSocket(stack, sock);
    return;
  }
  if (!f.syn || !f.ack) return;
  sock.irs = tcp.seq;
  sock.rcvNxt = seqAdd(tcp.seq, 1);
  // tcp_rcv_synsent_state_process(): rcv_wup = rcv_nxt; rcv_wnd is still the SYN's window.
  sock.rcvWup = sock.rcvNxt;
  sock.tsRecent = tcp.ts ?? sock.tsRecent;
  processAck(op, sock, tcp.ack);
  setState(op, sock, 'ESTABLISHED');
  sendAck(op, stack, sock);
  event(op, stack, sock, 'connected');
  flush(op, stack, sock);
}

function onReset(op: Op, stack: HostStack, sock: TcpSocket, tcp: Seg): void {
  // RFC 5961: only a reset at exactly rcv_nxt is accepted (others get a challenge ACK).
  if (tcp.seq !== sock.rcvNxt) {
    sendAck(op, stack, sock);
    return;
  }
  if (['ESTABLISHED', 'FIN_WAIT1', 'FIN_WAIT2', 'CLOSE_WAIT'].includes(sock.state))
    event(op, stack, sock, 'reset', {
      errno: sock.state === 'CLOSE_WAIT' ? 'EPIPE' : 'ECONNRESET',
    });
  removeSocket(stack, sock);
}

function timeWait(op: Op, stack: HostStack, sock: TcpSocket, p: HostPacket, f: Flags): void {
  if (f.rst) {
    removeSocket(stack, sock); // tcp_rfc1337=0: a reset kills TIME_WAIT
  } else if (f.syn && !f.ack) {
    removeSocket(stack, sock); // TCP_TW_SYN: a new connection may take the 4-tuple
    tcpInput(op, stack, p);
  } else if (f.fin) {
    sendAck(op, stack, sock); // a retransmitted FIN: ACK again and restart the timer
    sock.timeWaitUntil = op.ctx.now + stack.sysctl.timeWaitMs;
  }
}

/** A segment for a synchronized connection (ESTABLISHED … LAST_ACK). */
function synchronized(
  op: Op,
  stack: HostStack,
  sock: TcpSocket,
  p: HostPacket,
  f: Flags,
  tcp: Seg,
) {
  if (f.rst) return onReset(op, stack, sock, tcp);
  if (f.syn) return sendAck(op, stack, sock);
  sock.tsRecent = tcp.ts ?? sock.tsRecent;
  if (f.ack) processAck(op, sock, tcp.ack);
  const finAcked = sock.closeRequested && sock.sndUna === sock.sndNxt;
  if (finAcked && sock.state === 'FIN_WAIT1') {
    setState(op, sock, 'FIN_WAIT2');
    sock.timeWaitUntil = op.ctx.now + FIN_TIMEOUT_MS;
  } else if (finAcked && sock.state === 'CLOSING') {
    setState(op, sock, 'TIME_WAIT');
    sock.timeWaitUntil = op.ctx.now + stack.sysctl.timeWaitMs;
  } else if (finAcked && sock.state === 'LAST_ACK') {
    event(op, stack, sock, 'closed');
    removeSocket(stack, sock);
    return;
  }
  const len = p.data === undefined ? (p.payload ?? 0) : payloadBytes(p.data, 'tcp');
  let ack = false;
  if (len > 0) {
    ack = true; // quickack at the start of a connection: data is acknowledged at once
    if (tcp.seq === sock.rcvNxt && p.data !== undefined) {
      sock.rcvNxt = seqAdd(sock.rcvNxt, len);
      event(op, stack, sock, 'data', { data: p.data });
    }
  }
  if (f.fin && seqAdd(tcp.seq, len) === sock.rcvNxt) {
    sock.rcvNxt = seqAdd(sock.rcvNxt, 1);
    if (sock.state === 'ESTABLISHED') {
      setState(op, sock, 'CLOSE_WAIT');
      if (!ack) sock.delayedAckDue = op.ctx.now + DELAYED_ACK_MS;
      event(op, stack, sock, 'eof');
    } else if (sock.state === 'FIN_WAIT1') {
      setState(op, sock, 'CLOSING');
      ack = true;
    } else if (sock.state === 'FIN_WAIT2') {
      setState(op, sock, 'TIME_WAIT');
      sock.timeWaitUntil = op.ctx.now + stack.sysctl.timeWaitMs;
      ack = true;
    }
  } else if (f.fin) {
    ack = true; // out-of-order FIN: duplicate ACK
  }
  if (ack) sendAck(op, stack, sock);
}

/** Delivers one TCP segment addressed to this host. */
export function tcpInput(op: Op, stack: HostStack, p: HostPacket): void {
  const f = parseFlags(p.tcpFlags);
  const tcp: Seg = { seq: p.seq ?? 0, ack: p.ack ?? 0, ts: p.tcpOptions?.ts?.val };
  const found = tcpLookup(stack, p);
  if (found.kind === 'connection') {
    const sock = found.sock;
    switch (sock.state) {
      case 'SYN_SENT':
        return synSent(op, stack, sock, p, f, tcp);
      case 'SYN_RECV':
        return synRecv(op, stack, sock, p, f, tcp);
      case 'TIME_WAIT':
        return timeWait(op, stack, sock, p, f);
      default:
        return synchronized(op, stack, sock, p, f, tcp);
    }
  }
  if (found.kind === 'listener' && !f.rst && f.syn && !f.ack)
    return passiveOpen(op, stack, found.sock, p, tcp);
  replyReset(op, stack, p, resetWhy(stack, p, found));
}

/** tcp_check_req: the handshake's last ACK (maybe with data), a SYN retransmission, a reset. */
function synRecv(op: Op, stack: HostStack, sock: TcpSocket, p: HostPacket, f: Flags, tcp: Seg) {
  if (f.rst) return removeSocket(stack, sock);
  if (f.syn && !f.ack) {
    if (tcp.seq === sock.irs) send(op, stack, sock.iface, synSegment(sock, op.ctx.now));
    return;
  }
  if (!f.ack) return;
  if (tcp.ack !== sock.sndNxt)
    return replyReset(op, stack, p, resetWhy(stack, p, { kind: 'connection', sock }));
  processAck(op, sock, tcp.ack);
  setState(op, sock, 'ESTABLISHED');
  event(op, stack, sock, 'accepted', { from: sock.remote ?? { addr: p.src, port: 0 } });
  const rest = { ...p, tcpFlags: p.tcpFlags?.replace('S', '') ?? '.' };
  synchronized(op, stack, sock, rest, { ...f, syn: false }, tcp);
}
