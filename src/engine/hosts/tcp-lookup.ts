/**
 * tcp_v4_rcv()'s socket lookup (__inet_lookup: the established hash by the exact 4-tuple, then
 * a listener on the port) and what it found, in words: the trace's delivery step says which
 * socket took a segment, and the reset a host sends says why. The lab's key experiment hinges
 * on it: a client connected to 10.96.1.1:80 that gets a SYN-ACK from 10.244.0.4:8080 (a reply
 * bridged without un-DNAT) has no socket for that 4-tuple, and the kernel resets it.
 */
import type { Explanation } from '../../protocol/trace';
import { findTcpConnection } from './socket-index';
import { parseFlags } from './tcp-segment';
import type { HostPacket, HostStack, TcpSocket } from './types';

/** What the lookup found for a segment. */
export type TcpLookup =
  | { readonly kind: 'connection'; readonly sock: TcpSocket }
  | { readonly kind: 'listener'; readonly sock: TcpSocket }
  | { readonly kind: 'none' };

function findListener(stack: HostStack, p: HostPacket): TcpSocket | undefined {
  for (const s of stack.sockets)
    if (
      s.proto === 'tcp' &&
      s.state === 'LISTEN' &&
      s.local.port === p.dport &&
      (s.local.addr === '0.0.0.0' || s.local.addr === p.dst)
    )
      return s;
  return undefined;
}

/** The socket tcp_v4_rcv hands the segment to: its connection, else a listener, else none. */
export function tcpLookup(stack: HostStack, p: HostPacket): TcpLookup {
  const conn = findTcpConnection(stack, p.dst, p.dport ?? 0, p.src, p.sport ?? 0);
  if (conn !== undefined) return { kind: 'connection', sock: conn };
  const listener = findListener(stack, p);
  return listener === undefined ? { kind: 'none' } : { kind: 'listener', sock: listener };
}

const addr = (a: string, port: number | undefined) => `${a}:${port ?? 0}`;

/**
 * A connected socket of the host on the segment's local address and port, talking to another
 * peer: the one whose reply this segment was meant to be (a reply that kept the backend's
 * address). Not a lookup the kernel makes: it names what the segment failed to match.
 */
function waitingSocket(stack: HostStack, p: HostPacket): TcpSocket | undefined {
  for (const s of stack.sockets)
    if (
      s.proto === 'tcp' &&
      s.remote !== undefined &&
      s.local.port === p.dport &&
      s.local.addr === p.dst &&
      s.state !== 'TIME_WAIT'
    )
      return s;
  return undefined;
}

/**
 * Why the datapath's delivery to `host` went where it did (the state before the segment is
 * processed). A segment that takes no socket: which one it missed and that a reset answers it.
 */
export function tcpDeliveryWhy(
  stack: HostStack,
  p: HostPacket,
  found: TcpLookup,
  host: string,
): Explanation {
  const local = addr(p.dst, p.dport);
  const remote = addr(p.src, p.sport);
  if (found.kind === 'connection') {
    const { sock } = found;
    return {
      id: 'datapath.delivered.tcp-socket',
      params: { host, local, remote, state: sock.state },
    };
  }
  const f = parseFlags(p.tcpFlags);
  if (found.kind === 'listener' && f.syn && !f.ack && !f.rst)
    return { id: 'datapath.delivered.tcp-listener', params: { host, local } };
  // tcp_v4_send_reset() never answers a reset (RFC 793: "a reset is never sent in response to
  // a reset"): the segment is just discarded.
  if (f.rst) return { id: 'datapath.delivered.tcp-no-socket-rst', params: { host, local, remote } };
  const waiting = found.kind === 'none' ? waitingSocket(stack, p) : undefined;
  if (waiting?.remote !== undefined)
    return {
      id: 'datapath.delivered.tcp-other-peer',
      params: {
        host,
        local,
        remote,
        peer: addr(waiting.remote.addr, waiting.remote.port),
        state: waiting.state,
      },
    };
  return {
    id: 'datapath.delivered.tcp-no-socket',
    params: { host, local, remote, port: p.dport ?? 0 },
  };
}

/**
 * Why a host sends a reset to segment `p` that found `found` (tcp_v4_send_reset after no
 * socket took it, or a socket's own refusal: an unacceptable ACK in SYN_SENT or SYN_RECV).
 * `{host}` is filled in where the send step is recorded.
 */
export function resetWhy(stack: HostStack, p: HostPacket, found: TcpLookup): Explanation {
  const local = addr(p.dst, p.dport);
  const remote = addr(p.src, p.sport);
  if (found.kind === 'connection')
    return {
      id: 'datapath.send.rst.bad-ack',
      params: { local, remote, state: found.sock.state, ack: p.ack ?? 0 },
    };
  const waiting = found.kind === 'none' ? waitingSocket(stack, p) : undefined;
  if (waiting?.remote !== undefined)
    return {
      id: 'datapath.send.rst.other-peer',
      params: {
        local,
        remote,
        peer: addr(waiting.remote.addr, waiting.remote.port),
        state: waiting.state,
      },
    };
  return { id: 'datapath.send.rst.no-socket', params: { local, remote } };
}
