/**
 * What the receiving host's socket layer made of a delivered UDP datagram or ICMP message, in
 * words for the trace's delivery step (tcp-lookup.ts says it for TCP). The lab's DNS
 * experiments turn on it: with bridge-nf-call-iptables=0 CoreDNS's answer reaches the client
 * from 10.244.0.3:53, dig's socket is connected to 10.96.0.10:53 (BIND 9.18), so
 * __udp4_lib_lookup finds no socket and the client answers ICMP port unreachable, which
 * CoreDNS's unconnected socket never sees (no IP_RECVERR). The state is the one before the
 * packet is processed.
 */
import type { Explanation } from '../../protocol/trace';
import type { HostPacket, HostsState, HostStack, UdpSocket } from './types';
import { icmpErrorSocket, udpLookup, unreachErrno } from './udp';

const addr = (a: string, port: number | undefined) => `${a}:${port ?? 0}`;

/**
 * A connected UDP socket of the host on the datagram's local address and port, talking to
 * another peer (the one this datagram's sender should have been). Not a lookup the kernel
 * makes: it names what the datagram failed to match.
 */
function waitingSocket(stack: HostStack, p: HostPacket): UdpSocket | undefined {
  for (const s of stack.sockets)
    if (
      s.proto === 'udp' &&
      !s.closed &&
      s.remote !== undefined &&
      s.local.port === p.dport &&
      (s.local.addr === '0.0.0.0' || s.local.addr === p.dst)
    )
      return s;
  return undefined;
}

/** Which socket __udp4_lib_lookup hands datagram `p` to, or why none and what answers. */
export function udpDeliveryWhy(stack: HostStack, p: HostPacket, host: string): Explanation {
  const local = addr(p.dst, p.dport);
  const remote = addr(p.src, p.sport);
  const sock = udpLookup(stack, p);
  if (sock?.remote !== undefined)
    return { id: 'datapath.delivered.udp-connected', params: { host, local, remote } };
  if (sock !== undefined) {
    const last = sock.lastDst;
    // An unconnected socket takes a datagram from anyone; the program itself compares the
    // sender with where it sent (BIND ≤ 9.16's dig: "reply from unexpected source").
    if (last !== undefined && (last.addr !== p.src || last.port !== p.sport))
      return {
        id: 'datapath.delivered.udp-unexpected',
        params: { host, local, remote, expected: addr(last.addr, last.port) },
      };
    return {
      id: 'datapath.delivered.udp-socket',
      params: { host, local: addr(sock.local.addr, sock.local.port), remote },
    };
  }
  const waiting = waitingSocket(stack, p);
  if (waiting?.remote !== undefined)
    return {
      id: 'datapath.delivered.udp-other-peer',
      params: { host, local, remote, peer: addr(waiting.remote.addr, waiting.remote.port) },
    };
  return { id: 'datapath.delivered.udp-no-socket', params: { host, local, remote } };
}

/** Whether a ping of the host has echo identifier `id` (what an ICMP socket's port is). */
function pingWithId(hosts: HostsState, host: string, id: number | undefined): boolean {
  return Object.values(hosts.programs).some(
    (prog) => prog.kind === 'ping' && !prog.done && prog.host === host && prog.id === id,
  );
}

/** Where an ICMP message delivered to the host goes: the kernel, a ping, a socket, nowhere. */
export function icmpDeliveryWhy(
  hosts: HostsState,
  stack: HostStack,
  p: HostPacket,
  host: string,
): Explanation {
  const remote = p.src;
  const type = p.icmp?.type;
  // icmp_echo(): the kernel answers an echo request itself; no socket takes part.
  if (type === 8) return { id: 'datapath.delivered.icmp-echo-request', params: { host, remote } };
  if (type === 0) {
    const id = p.icmp?.id ?? 0;
    const seq = p.seq ?? 0;
    return pingWithId(hosts, stack.key, id)
      ? { id: 'datapath.delivered.icmp-echo-reply', params: { host, remote, id, seq } }
      : { id: 'datapath.delivered.icmp-echo-reply-none', params: { host, remote, id } };
  }
  const inner = p.inner;
  // Time exceeded quoting a ping is the ping's (traceroute's case); about TCP or UDP the lab
  // does not model what tcp_v4_err/__udp4_lib_err do with it: no claim either way.
  const aboutPing = inner?.proto === 'icmp' && (type === 3 || type === 11);
  if (inner === undefined || (type !== 3 && !aboutPing))
    return { id: 'datapath.delivered', params: { host } };
  const quoted =
    inner.proto === 'icmp'
      ? `ICMP ${inner.src} → ${inner.dst}`
      : `${inner.proto.toUpperCase()} ${addr(inner.src, inner.sport)} → ${addr(inner.dst, inner.dport)}`;
  const error = `${type}/${p.icmp?.code ?? 0}`;
  if (inner.proto === 'icmp') {
    const id = inner.icmp?.id ?? 0;
    return pingWithId(hosts, stack.key, id)
      ? { id: 'datapath.delivered.icmp-error-ping', params: { host, remote, error, quoted, id } }
      : { id: 'datapath.delivered.icmp-error-ignored', params: { host, remote, error, quoted } };
  }
  const sock = icmpErrorSocket(stack, inner);
  if (sock === undefined)
    return { id: 'datapath.delivered.icmp-error-ignored', params: { host, remote, error, quoted } };
  const [errno, hard] = unreachErrno(p.icmp?.code ?? 0);
  const params = { host, remote, error, quoted, errno };
  if (sock.proto === 'udp')
    return {
      id: hard ? 'datapath.delivered.icmp-error-udp' : 'datapath.delivered.icmp-error-udp-soft',
      params,
    };
  if (sock.state === 'SYN_SENT' || sock.state === 'SYN_RECV')
    return { id: 'datapath.delivered.icmp-error-tcp-abort', params: { ...params, state: sock.state } }; // prettier-ignore
  return { id: 'datapath.delivered.icmp-error-tcp-soft', params: { ...params, state: sock.state } };
}
