/**
 * UDP sockets (udp.c) and ICMP errors (icmp.c, tcp_v4_err, __udp4_lib_err).
 *
 * - Lookup (__udp4_lib_lookup): a socket bound to the port whose local address is the
 *   destination or the wildcard and, if connected, whose peer is exactly the source; connected
 *   sockets score higher. A connected socket does not see a datagram from anyone else.
 * - No socket → ICMP port unreachable (type 3 code 3) quoting as much of the datagram as fits in
 *   576 bytes (RFC 1812, icmp_send). Linux rate-limits ICMP (icmp_ratelimit, icmp_msgs_per_sec);
 *   the lab sends every one.
 * - An ICMP destination unreachable goes to the socket of the quoted packet: a connected UDP
 *   socket records a hard error (port unreachable → ECONNREFUSED) that its next send or receive
 *   returns; an unconnected one ignores it (no IP_RECVERR). A TCP socket in SYN_SENT or
 *   SYN_RECV is aborted with the error (port unreachable → ECONNREFUSED, host/admin prohibited →
 *   EHOSTUNREACH, icmp_err_convert[]); an established one keeps it as a soft error (sk_err_soft),
 *   which a connection that times out reports instead of ETIMEDOUT (tcp_write_err). The RTO
 *   revert of RFC 6069 (tcp_ld_RTO_revert on host/net unreachable) is not modelled: only how
 *   many retransmissions are sent before the timeout changes.
 * - An unconnected socket remembers where it sent last; a datagram from anywhere else is
 *   delivered as `unexpected-source` (BIND 9.16 dig's check: `reply from unexpected source`).
 */
import type { Op } from './net';
import {
  connectDestination,
  event,
  isLocalAddress,
  nextSocketId,
  payloadBytes,
  routeFor,
  send,
} from './net';
import { udpEphemeralPort } from './net';
import { removeSocket } from './tcp-user';
import type { HostPacket, HostStack, Owner, Payload, SockAddr, Socket, UdpSocket } from './types';

/** icmp_err_convert[]: destination-unreachable code → errno, and whether the error is hard. */
const UNREACH_ERRNO: readonly (readonly [string, boolean])[] = [
  ['ENETUNREACH', false],
  ['EHOSTUNREACH', false],
  ['ENOPROTOOPT', true],
  ['ECONNREFUSED', true],
  ['EMSGSIZE', false],
  ['EOPNOTSUPP', false],
  ['ENETUNREACH', true],
  ['EHOSTDOWN', true],
  ['ENONET', true],
  ['ENETUNREACH', true],
  ['EHOSTUNREACH', true],
  ['ENETUNREACH', false],
  ['EHOSTUNREACH', false],
  ['EHOSTUNREACH', true],
  ['EHOSTUNREACH', true],
  ['EHOSTUNREACH', true],
];

export interface UdpOpenOptions {
  readonly owner: Owner;
  /** bind(): local port (0/absent = an ephemeral one on first send or connect). */
  readonly port?: number;
  /** connect(): fixes the peer and the source address. */
  readonly connect?: SockAddr;
}

export function udpOpen(
  op: Op,
  stack: HostStack,
  opts: UdpOpenOptions,
): UdpSocket | { readonly errno: string } {
  const connect = opts.connect === undefined ? undefined : connectDestination(opts.connect);
  const route = connect === undefined ? undefined : routeFor(stack, connect.addr);
  if (connect !== undefined && route === undefined) return { errno: 'ENETUNREACH' };
  const port = opts.port ?? udpEphemeralPort(stack, op.ctx.rng.nextU32());
  if (port === undefined) return { errno: 'EADDRNOTAVAIL' };
  const sock: UdpSocket = {
    id: nextSocketId(op.hosts),
    proto: 'udp',
    owner: opts.owner,
    local: { addr: route?.src ?? '0.0.0.0', port },
    ...(connect === undefined ? {} : { remote: connect }),
    iface: route?.dev ?? '',
    closed: false,
  };
  stack.sockets.push(sock);
  return sock;
}

/** sendto()/send(): returns a pending error instead of sending, as Linux does. */
export function udpSend(
  op: Op,
  stack: HostStack,
  sock: UdpSocket,
  payload: Payload,
  to?: SockAddr,
  /** The source address for a wildcard-bound socket (IP_PKTINFO: reply from where asked). */
  src?: string,
): { readonly errno?: string } {
  if (sock.pendingError !== undefined) {
    const errno = sock.pendingError;
    sock.pendingError = undefined;
    return { errno };
  }
  const dst = to === undefined ? sock.remote : connectDestination(to);
  if (dst === undefined) return { errno: 'EDESTADDRREQ' };
  const route = routeFor(stack, dst.addr);
  if (route === undefined) return { errno: 'ENETUNREACH' };
  if (sock.remote === undefined) sock.lastDst = dst;
  send(op, stack, sock.iface !== '' ? sock.iface : route.dev, {
    src: sock.local.addr !== '0.0.0.0' ? sock.local.addr : (src ?? route.src),
    dst: dst.addr,
    proto: 'udp',
    sport: sock.local.port,
    dport: dst.port,
    length: 28 + payloadBytes(payload, 'udp'),
    mark: 0,
    payload: payloadBytes(payload, 'udp'),
    data: payload,
  });
  return {};
}

export function udpClose(stack: HostStack, sock: UdpSocket): void {
  sock.closed = true;
  removeSocket(stack, sock);
}

/** __udp4_lib_lookup: the best-scoring socket for datagram `p`, or none. */
export function udpLookup(stack: HostStack, p: HostPacket): UdpSocket | undefined {
  let best: UdpSocket | undefined;
  let bestScore = -1;
  for (const s of stack.sockets) {
    if (s.proto !== 'udp' || s.closed || s.local.port !== p.dport) continue;
    if (s.local.addr !== '0.0.0.0' && s.local.addr !== p.dst) continue;
    if (s.remote !== undefined && (s.remote.addr !== p.src || s.remote.port !== p.sport)) continue;
    const score = (s.remote !== undefined ? 4 : 0) + (s.local.addr !== '0.0.0.0' ? 2 : 0);
    if (score > bestScore) [best, bestScore] = [s, score];
  }
  return best;
}

/** ICMP destination unreachable from this host about packet `p` (icmp_send). */
export function destUnreachable(p: HostPacket, code: number): HostPacket {
  const quoted = Math.min(p.length, 576 - 28);
  return {
    src: p.dst,
    dst: p.src,
    proto: 'icmp',
    icmp: { type: 3, code },
    length: 28 + quoted,
    mark: 0,
    inner: {
      src: p.src,
      dst: p.dst,
      proto: p.proto,
      ...(p.sport === undefined ? {} : { sport: p.sport }),
      ...(p.dport === undefined ? {} : { dport: p.dport }),
      ...(p.icmp === undefined ? {} : { icmp: p.icmp }),
      ...(p.proto === 'icmp' && p.seq !== undefined ? { seq: p.seq } : {}),
    },
  };
}

export function udpInput(op: Op, stack: HostStack, p: HostPacket): void {
  const sock = udpLookup(stack, p);
  if (sock === undefined) {
    const route = routeFor(stack, p.src);
    if (isLocalAddress(stack, p.dst)) send(op, stack, route?.dev ?? 'eth0', destUnreachable(p, 3));
    return;
  }
  const from = { addr: p.src, port: p.sport ?? 0 };
  const payload = p.data ?? { kind: 'text' as const, text: '' };
  const unexpected =
    sock.remote === undefined &&
    sock.lastDst !== undefined &&
    (sock.lastDst.addr !== from.addr || sock.lastDst.port !== from.port);
  const to = { addr: p.dst, port: p.dport ?? 0 };
  event(op, stack, sock, unexpected ? 'unexpected-source' : 'data', { data: payload, from, to });
}

/** An echo request gets its reply from the kernel (icmp_echo); an error reaches its socket. */
export function icmpInput(op: Op, stack: HostStack, p: HostPacket): void {
  if (p.icmp?.type === 8) {
    const { inner: _inner, ttl: _ttl, ...rest } = p;
    const reply = { ...rest, src: p.dst, dst: p.src, icmp: { ...p.icmp, type: 0 }, mark: 0 };
    send(op, stack, routeFor(stack, p.src)?.dev ?? 'eth0', reply);
    return;
  }
  const inner = p.inner;
  if (p.icmp?.type !== 3 || inner === undefined) return;
  const [errno, hard] = unreachErrno(p.icmp.code);
  const s = icmpErrorSocket(stack, inner);
  if (s === undefined) return;
  if (s.proto === 'udp') {
    if (!hard) return;
    s.pendingError = errno;
    event(op, stack, s, 'unreachable', { errno });
    return;
  }
  if (s.state !== 'SYN_SENT' && s.state !== 'SYN_RECV') {
    // tcp_v4_err(): an established socket keeps the error as sk_err_soft (no IP_RECVERR).
    // (The quoted segment's sequence number is not kept by the lab: the window check,
    // between(seq, snd_una, snd_nxt), is taken as passed — it is, for a retransmission.)
    if (s.state !== 'LISTEN') s.softError = errno;
    return;
  }
  if (s.state === 'SYN_SENT')
    event(op, stack, s, errno === 'ECONNREFUSED' ? 'refused' : 'unreachable', { errno });
  removeSocket(stack, s);
}

/** icmp_err_convert[]: the errno of a destination-unreachable code, and whether it is hard. */
export function unreachErrno(code: number): readonly [string, boolean] {
  return UNREACH_ERRNO[code] ?? ['EHOSTUNREACH', false];
}

/**
 * The socket an ICMP error about `inner` (the packet it quotes) is for: the one that sent it,
 * connected to its destination (__udp4_lib_err and tcp_v4_err look the quoted packet up
 * reversed; an unconnected UDP socket does not get the error without IP_RECVERR).
 */
export function icmpErrorSocket(
  stack: HostStack,
  inner: NonNullable<HostPacket['inner']>,
): Socket | undefined {
  for (const s of stack.sockets) {
    if (s.proto !== inner.proto || s.local.port !== inner.sport) continue;
    if (s.remote === undefined || s.remote.addr !== inner.dst || s.remote.port !== inner.dport)
      continue;
    return s;
  }
  return undefined;
}
