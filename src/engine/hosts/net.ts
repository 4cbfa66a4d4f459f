/**
 * Plumbing shared by the protocols: the operation context (where emitted packets and socket
 * events accumulate), source address selection, and ephemeral ports.
 */
import type { Explanation } from '../../protocol/trace';
import { cidrContains } from '../model/ip';
import { dnsWireSize } from './dns/message';
import { tcpPortInUse } from './socket-index';
import type {
  Emitted,
  HostCtx,
  HostPacket,
  HostStack,
  HostsState,
  Owner,
  Payload,
  Socket,
  SocketEvent,
} from './types';

/** One call into the socket layer: its inputs and what it produced so far. */
export interface Op {
  readonly hosts: HostsState;
  readonly ctx: HostCtx;
  readonly emit: Emitted[];
  readonly events: SocketEvent[];
}

export function newOp(hosts: HostsState, ctx: HostCtx): Op {
  return { hosts, ctx, emit: [], events: [] };
}

/** Emits `packet`; `why`: the reason the trace's send step gives (a reset's), if not plain. */
export function send(
  op: Op,
  stack: HostStack,
  iface: string,
  packet: HostPacket,
  why?: Explanation,
): void {
  op.emit.push(
    why === undefined
      ? { host: stack.key, iface, packet }
      : { host: stack.key, iface, packet, why },
  );
}

export function event(
  op: Op,
  stack: HostStack,
  socket: Socket,
  kind: SocketEvent['kind'],
  extra: Partial<Pick<SocketEvent, 'data' | 'from' | 'to' | 'errno'>> = {},
): void {
  const owner: Owner = socket.owner;
  op.events.push({ t: op.ctx.now, host: stack.key, socket: socket.id, kind, owner, ...extra });
}

export function nextSocketId(hosts: HostsState): number {
  return hosts.nextSocketId++;
}

/**
 * The route a locally generated packet takes and the source address it gets (ip_route_output:
 * longest prefix match; the route's preferred source, else the device's first address). A
 * destination that is one of the host's own addresses goes over `lo` with itself as source.
 */
/**
 * Where a connect() or sendto() to `addr` goes: 0.0.0.0 means this host, and Linux sends it to
 * 127.0.0.1 over lo (ip_route_output_key_hash_rcu: no destination → the source, else
 * INADDR_LOOPBACK on the loopback device); `curl 0.0.0.0:81` is refused by the host itself.
 */
export function connectDestination<A extends { readonly addr: string }>(dst: A): A {
  return dst.addr === '0.0.0.0' ? { ...dst, addr: '127.0.0.1' } : dst;
}

export function routeFor(
  stack: HostStack,
  dst: string,
): { readonly dev: string; readonly src: string } | undefined {
  if (stack.addresses.includes(dst) || dst.startsWith('127.')) {
    return { dev: 'lo', src: dst.startsWith('127.') ? '127.0.0.1' : dst };
  }
  let best: HostStack['routes'][number] | undefined;
  for (const r of stack.routes) {
    if (!cidrContains({ network: r.dst, prefix: r.prefix }, dst)) continue;
    if (best === undefined || r.prefix > best.prefix) best = r;
  }
  return best === undefined ? undefined : { dev: best.dev, src: best.src };
}

export function isLocalAddress(stack: HostStack, addr: string): boolean {
  return stack.addresses.includes(addr) || addr.startsWith('127.');
}

function portInUse(stack: HostStack, proto: 'tcp' | 'udp', port: number): boolean {
  return stack.sockets.some(
    (s) => s.proto === proto && s.local.port === port && !(s.proto === 'udp' && s.closed),
  );
}

/**
 * An ephemeral port for connect() (inet_hash_connect, Linux ≥ 4.6): ports of the range's low
 * parity (even with the default 32768-60999) are tried first, from a random offset, stepping by
 * two; the other parity is left for bind(0). Linux derives the offset from a keyed hash of the
 * destination plus a perturbation table; the lab draws it from the rng. Simplification: a port
 * is skipped if any socket of the host uses it (Linux may share it between different peers).
 */
export function tcpEphemeralPort(stack: HostStack, rngValue: number): number | undefined {
  const [low, high] = stack.portRange;
  let remaining = high + 1 - low;
  if (remaining > 1) remaining &= ~1;
  for (const parity of [0, 1]) {
    let offset = (rngValue % remaining) & ~1;
    offset += parity;
    for (let i = 0; i < remaining; i += 2) {
      let port = low + ((offset + i) % remaining);
      if (port > high) port -= remaining;
      if (!tcpPortInUse(stack, port)) return port;
    }
  }
  return undefined;
}

/** An ephemeral UDP port (udp_lib_get_port with port 0): random in the range, any parity. */
export function udpEphemeralPort(stack: HostStack, rngValue: number): number | undefined {
  const [low, high] = stack.portRange;
  const remaining = high + 1 - low;
  const first = rngValue % remaining;
  for (let i = 0; i < remaining; i++) {
    const port = low + ((first + i) % remaining);
    if (!portInUse(stack, 'udp', port)) return port;
  }
  return undefined;
}

/** Bytes of a payload on the wire: UTF-8 text, or a DNS message (+2 length bytes over TCP). */
export function payloadBytes(p: Payload, proto: 'tcp' | 'udp'): number {
  if (p.kind === 'dns') return dnsWireSize(p.message) + (proto === 'tcp' ? 2 : 0);
  // A payload is measured where it is written, segmented, sent and received — the same object
  // each time, and a request's and its answer's interleaved: the last two are remembered.
  if (p === lastText) return lastTextBytes;
  if (p !== prevText) {
    prevText = p;
    prevTextBytes = textBytes(p.text);
  }
  const bytes = prevTextBytes;
  prevText = lastText;
  prevTextBytes = lastTextBytes;
  lastText = p;
  lastTextBytes = bytes;
  return bytes;
}

/** payloadBytes' last two text payloads (a payload is never changed) and their sizes. */
let lastText: Payload | undefined;
let lastTextBytes = 0;
let prevText: Payload | undefined;
let prevTextBytes = 0;

/**
 * Bytes of a text payload on the wire (UTF-8; a lone surrogate as the 3 bytes of U+FFFD). By
 * UTF-16 code unit, without iterating code points (every segment of a connection measures its
 * payload, several times).
 */
export function textBytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      // A surrogate pair is one code point beyond the BMP: 4 bytes.
      if (d >= 0xdc00 && d < 0xe000) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
