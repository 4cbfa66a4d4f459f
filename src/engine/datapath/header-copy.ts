/**
 * Copies of a packet header. Headers are immutable (a capture, a trace step or a conntrack
 * event keeps the header as it was at that point), so every rewrite on the way — NAT, the TTL
 * a router decrements, skb->mark — makes a copy: several per packet, at every hop.
 *
 * A copy is one object literal per layout rather than a spread. V8 copies `{ ...h }` through
 * its generic path once a copy site has seen a few header shapes: a property at a time, the
 * copy's fields out of the object. Measured on Node 20: 290 ns per copy against 38 for a literal,
 * and a tenth of a 10,000-connection run's instructions (callgrind); the copies it made were
 * new shapes again, so the reads of headers all over the datapath went megamorphic.
 *
 * A copy has the header's fields in HEADER_ORDER, which is the order every sender writes them
 * in (tcp-segment.ts, udp.ts, reject.ts, ping.ts…; header-copy.test.ts builds a header from
 * each and checks its copy serialises the same), so a copy keeps the fields' order too.
 */
import type { PacketHeader } from '../../protocol/trace';

/**
 * A header as it travels: the trace's PacketHeader and what the socket layer adds to it
 * (hosts/types.ts HostPacket: the TCP window, TCP options, the application data), which the
 * datapath carries along without reading it.
 */
export interface WireHeader extends PacketHeader {
  readonly win?: number;
  readonly tcpOptions?: object;
  readonly data?: object;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Every field a header can have, in the order a copy writes them. */
export const HEADER_ORDER = [
  'src',
  'dst',
  'proto',
  'sport',
  'dport',
  'tcpFlags',
  'icmp',
  'length',
  'mark',
  'seq',
  'ack',
  'win',
  'tcpOptions',
  'payload',
  'data',
  'inner',
  'ttl',
] as const satisfies readonly (keyof WireHeader)[];

/** A new header with the same fields and values as `h` (nested objects shared). */
export function copyHeader(h: PacketHeader): Mutable<WireHeader> {
  const w = h as WireHeader;
  // A segment of a connected TCP socket (tcp-segment.ts packet()): one literal each for the two
  // layouts it sends, every field in the object itself. Every field tested here is one the
  // literal writes, so the copy has exactly the header's fields.
  if (
    w.tcpOptions !== undefined &&
    w.sport !== undefined &&
    w.dport !== undefined &&
    w.tcpFlags !== undefined &&
    w.seq !== undefined &&
    w.ack !== undefined &&
    w.win !== undefined &&
    w.ttl !== undefined &&
    w.icmp === undefined &&
    w.inner === undefined
  ) {
    if (w.payload === undefined && w.data === undefined) {
      return {
        src: w.src,
        dst: w.dst,
        proto: w.proto,
        sport: w.sport,
        dport: w.dport,
        tcpFlags: w.tcpFlags,
        length: w.length,
        mark: w.mark,
        seq: w.seq,
        ack: w.ack,
        win: w.win,
        tcpOptions: w.tcpOptions,
        ttl: w.ttl,
      };
    }
    if (w.payload !== undefined && w.data !== undefined) {
      return {
        src: w.src,
        dst: w.dst,
        proto: w.proto,
        sport: w.sport,
        dport: w.dport,
        tcpFlags: w.tcpFlags,
        length: w.length,
        mark: w.mark,
        seq: w.seq,
        ack: w.ack,
        win: w.win,
        tcpOptions: w.tcpOptions,
        payload: w.payload,
        data: w.data,
        ttl: w.ttl,
      };
    }
  }
  return copyAnyHeader(w);
}

/** copyHeader of any layout: the fields `h` has, one at a time, in HEADER_ORDER. */
function copyAnyHeader(h: WireHeader): Mutable<WireHeader> {
  const out: Mutable<WireHeader> = { src: h.src, dst: h.dst, proto: h.proto } as WireHeader;
  if (h.sport !== undefined) out.sport = h.sport;
  if (h.dport !== undefined) out.dport = h.dport;
  if (h.tcpFlags !== undefined) out.tcpFlags = h.tcpFlags;
  if (h.icmp !== undefined) out.icmp = h.icmp;
  out.length = h.length;
  out.mark = h.mark;
  if (h.seq !== undefined) out.seq = h.seq;
  if (h.ack !== undefined) out.ack = h.ack;
  if (h.win !== undefined) out.win = h.win;
  if (h.tcpOptions !== undefined) out.tcpOptions = h.tcpOptions;
  if (h.payload !== undefined) out.payload = h.payload;
  if (h.data !== undefined) out.data = h.data;
  if (h.inner !== undefined) out.inner = h.inner;
  if (h.ttl !== undefined) out.ttl = h.ttl;
  return out;
}

/** The header with one field set (a field `h` has keeps its place, a new one comes last). */
export function withField<K extends keyof PacketHeader>(
  h: PacketHeader,
  key: K,
  value: PacketHeader[K],
): PacketHeader {
  const out: Mutable<PacketHeader> = copyHeader(h);
  out[key] = value;
  return out;
}

/** The header with the fields nf_nat_manip_pkt() rewrote. */
export function withAddresses(
  h: PacketHeader,
  p: {
    readonly src: string;
    readonly dst: string;
    readonly sport?: number | undefined;
    readonly dport?: number | undefined;
    readonly icmpId?: number | undefined;
  },
): PacketHeader {
  // Every field it sets is one `h` has: the copy keeps h's fields in h's order.
  const out = copyHeader(h);
  out.src = p.src;
  out.dst = p.dst;
  if (p.sport !== undefined && h.sport !== undefined) out.sport = p.sport;
  if (p.dport !== undefined && h.dport !== undefined) out.dport = p.dport;
  if (p.icmpId !== undefined && h.icmp !== undefined) out.icmp = { ...h.icmp, id: p.icmpId };
  return out;
}
