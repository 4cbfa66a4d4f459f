/**
 * Packets as conntrack sees them, tuples built from them (nf_ct_get_tuple), inverted
 * (nf_ct_invert_tuple) and keyed for the hash (hash_conntrack_raw hashes the same fields).
 */
import type { CtTuple, L4Proto } from './model';

/** TCP header flags (tcp_flag_byte); PSH/URG/ECE/CWR do not change the state machine. */
export interface TcpFlags {
  readonly syn?: boolean;
  readonly ack?: boolean;
  readonly fin?: boolean;
  readonly rst?: boolean;
  readonly psh?: boolean;
  readonly urg?: boolean;
}

/** The header fields of the packet that the embedded header of an ICMP error carries. */
export interface InnerHeader {
  readonly src: string;
  readonly dst: string;
  readonly proto: L4Proto;
  readonly sport?: number;
  readonly dport?: number;
  readonly icmpType?: number;
  readonly icmpCode?: number;
  readonly icmpId?: number;
}

/** A packet at a conntrack hook: the header fields the tracker reads. */
export interface CtPacket {
  readonly src: string;
  readonly dst: string;
  readonly proto: L4Proto;
  readonly sport?: number;
  readonly dport?: number;
  readonly tcpFlags?: TcpFlags;
  /** TCP payload length: data makes the sender's data unacknowledged until the peer ACKs. */
  readonly payloadBytes?: number;
  /** An exact retransmission of the sender's previous segment (tcp_in_window's check). */
  readonly retransmission?: boolean;
  readonly icmpType?: number;
  readonly icmpCode?: number;
  readonly icmpId?: number;
  /** ICMP errors (types 3, 4, 5, 11, 12): the header of the packet the error is about. */
  readonly icmpInner?: InnerHeader;
  /** IP total length, for accounting (skb->len at the hook). Default 60 for TCP, 28 otherwise. */
  readonly lengthBytes?: number;
}

/** ICMP error types that nf_conntrack_icmpv4_error() relates to an existing connection. */
export const ICMP_ERROR_TYPES: ReadonlySet<number> = new Set([3, 4, 5, 11, 12]);

/**
 * invmap[] of nf_conntrack_proto_icmp.c: echo, timestamp, info and address-mask
 * requests and replies invert into each other; other types have no reply tuple.
 */
const ICMP_INVERSE: ReadonlyMap<number, number> = new Map([
  [8, 0],
  [0, 8],
  [13, 14],
  [14, 13],
  [15, 16],
  [16, 15],
  [17, 18],
  [18, 17],
]);

/** Types that may create a connection (valid_new[] of nf_conntrack_icmp_packet). */
export const ICMP_NEW_TYPES: ReadonlySet<number> = new Set([8, 13, 15, 17]);

/** The tuple of a packet, or undefined when a TCP/UDP packet lacks its ports. */
export function tupleOf(h: InnerHeader | CtPacket): CtTuple | undefined {
  if (h.proto === 'icmp') {
    const p = h as InnerHeader;
    return {
      proto: 'icmp',
      src: h.src,
      dst: h.dst,
      type: p.icmpType ?? 8,
      code: p.icmpCode ?? 0,
      id: p.icmpId ?? 0,
    };
  }
  if (h.sport === undefined || h.dport === undefined) return undefined;
  return { proto: h.proto, src: h.src, dst: h.dst, sport: h.sport, dport: h.dport };
}

/** nf_ct_invert_tuple(): swaps the ends; ICMP maps the type; undefined when not invertible. */
export function invertTuple(t: CtTuple): CtTuple | undefined {
  if (t.proto !== 'icmp') {
    return { proto: t.proto, src: t.dst, dst: t.src, sport: t.dport, dport: t.sport };
  }
  const type = ICMP_INVERSE.get(t.type);
  if (type === undefined) return undefined;
  return { proto: 'icmp', src: t.dst, dst: t.src, type, code: t.code, id: t.id };
}

/** Inverts a tuple known to be invertible (every tuple stored in the table is). */
export function mustInvert(t: CtTuple): CtTuple {
  const inv = invertTuple(t);
  if (inv === undefined) throw new Error(`tuple ${tupleKey(t)} has no inverse`);
  return inv;
}

/** The hash key of a tuple: protocol, addresses and the per-protocol part. */
export function tupleKey(t: CtTuple): string {
  return t.proto === 'icmp'
    ? `icmp ${t.src} ${t.dst} ${t.type}/${t.code}/${t.id}`
    : `${t.proto} ${t.src} ${t.dst} ${t.sport} ${t.dport}`;
}

/** nf_ct_tuple_equal(): the fields tupleKey joins, compared one by one. */
export function tupleEqual(a: CtTuple, b: CtTuple): boolean {
  if (a.proto !== b.proto || a.src !== b.src || a.dst !== b.dst) return false;
  if (a.proto === 'icmp' || b.proto === 'icmp') {
    return (
      a.proto === 'icmp' &&
      b.proto === 'icmp' &&
      a.type === b.type &&
      a.code === b.code &&
      a.id === b.id
    );
  }
  return a.sport === b.sport && a.dport === b.dport;
}

/**
 * The 16-bit "ports" libnetfilter_conntrack compares for --src-nat/--dst-nat: l4src/l4dst of
 * its tuple union. ICMP keeps the id in l4src and type<<8|code in l4dst.
 */
export function l4Src(t: CtTuple): number {
  return t.proto === 'icmp' ? t.id : t.sport;
}
export function l4Dst(t: CtTuple): number {
  return t.proto === 'icmp' ? (t.type << 8) | t.code : t.dport;
}
