/**
 * The packet as nf_conntrack_in() reads it, written into one kept object: every packet is
 * looked up at each node it enters, and nothing of the view outlives the lookup (the tracker
 * reads it; a new entry builds its own tuples from it), so no view need be built per lookup.
 */
import type { CtPacket } from '../conntrack';
import { ctTcpFlags, innerOf, type Skb } from './packet';

type Fill<T> = { -readonly [K in keyof T]-?: T[K] | undefined };

/** ctPacketOf's fields, in its order. */
const kept: Fill<CtPacket> = {
  src: '',
  dst: '',
  proto: 'tcp',
  sport: undefined,
  dport: undefined,
  tcpFlags: undefined,
  payloadBytes: undefined,
  retransmission: undefined,
  icmpType: undefined,
  icmpCode: undefined,
  icmpId: undefined,
  icmpInner: undefined,
  lengthBytes: 0,
};

/**
 * ctPacketOf(skb) in the kept object, valid until the next call: for a lookup that keeps no
 * reference to it (ctLookupOrCreate).
 */
export function ctLookupView(skb: Skb): CtPacket {
  const h = skb.header;
  const icmp = h.icmp;
  const k = kept;
  k.src = h.src;
  k.dst = h.dst;
  k.proto = h.proto;
  k.sport = h.sport;
  k.dport = h.dport;
  k.tcpFlags = h.proto === 'tcp' ? ctTcpFlags(h.tcpFlags) : undefined;
  k.payloadBytes = h.payload;
  k.retransmission = skb.retransmission === true ? true : undefined;
  k.icmpType = icmp?.type;
  k.icmpCode = icmp?.code;
  k.icmpId = icmp?.id;
  k.icmpInner = innerOf(h);
  k.lengthBytes = h.length;
  return k as CtPacket;
}
