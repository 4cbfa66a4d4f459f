/**
 * The datapath's side of the walk memo (netfilter/walk/memo.ts): a table walk whose steps the
 * trace does not keep is first asked of the memo, with the packet and conntrack views the
 * walk would get (walkPacketOf, walkConntrackOf) — written into two objects kept for that,
 * since a replay keeps neither: most walks of a bulk run are replays, and building the views
 * cost more than the replay.
 */
import { IPS } from '../conntrack';
import {
  replayWalk,
  type ConntrackInfo,
  type Hook,
  type MemoOutcome,
  type Packet,
} from '../netfilter';
import type { TableName } from '../netfilter';
import type { NodeCtx } from './hooks';
import { DEFAULT_TTL, parseTcpFlags, type HookDevices, type Skb } from './packet';

type Fill<T> = { -readonly [K in keyof T]-?: T[K] | undefined };

/** walkPacketOf's fields, in its order. */
const packet: Fill<Packet> = {
  src: '',
  dst: '',
  protocol: 'tcp',
  sport: undefined,
  dport: undefined,
  tcpFlags: undefined,
  icmpType: undefined,
  icmpCode: undefined,
  length: 0,
  ttl: DEFAULT_TTL,
  fragOffset: undefined,
  mark: 0,
  inIface: undefined,
  outIface: undefined,
  physIn: undefined,
  physOut: undefined,
  localOrigin: undefined,
};

/** walkConntrackOf's fields. */
const conntrack: Fill<ConntrackInfo> = {
  state: 'INVALID',
  dir: undefined,
  snat: undefined,
  dnat: undefined,
  mark: undefined,
};

/** What walkPacketOf(skb, devs) would build, in the kept object (valid until the next call). */
export function replayPacketOf(skb: Skb, devs: HookDevices): Packet {
  const h = skb.header;
  const icmp = h.icmp;
  const p = packet;
  p.src = h.src;
  p.dst = h.dst;
  p.protocol = h.proto;
  p.sport = h.sport;
  p.dport = h.dport;
  p.tcpFlags = h.proto === 'tcp' ? parseTcpFlags(h.tcpFlags) : undefined;
  p.icmpType = icmp?.type;
  p.icmpCode = icmp?.code;
  p.length = h.length;
  p.ttl = h.ttl ?? DEFAULT_TTL;
  p.fragOffset = undefined;
  p.mark = h.mark;
  p.inIface = devs.inIface;
  p.outIface = devs.outIface;
  p.physIn = devs.physIn;
  p.physOut = devs.physOut;
  p.localOrigin = skb.localOrigin === true ? true : undefined;
  return p as Packet;
}

/** What walkConntrackOf(skb) would build, in the kept object (valid until the next call). */
export function replayConntrackOf(skb: Skb): ConntrackInfo {
  const ct = skb.ct;
  const c = conntrack;
  if (ct === undefined) {
    c.state = skb.ctInvalid === 'untracked' ? 'UNTRACKED' : 'INVALID';
    c.dir = undefined;
    c.snat = undefined;
    c.dnat = undefined;
    c.mark = undefined;
  } else {
    const s = ct.entry.status;
    c.state = ct.state;
    c.dir = ct.dir;
    c.snat = (s & IPS.SRC_NAT) !== 0;
    c.dnat = (s & IPS.DST_NAT) !== 0;
    c.mark = ct.entry.mark;
  }
  return c as ConntrackInfo;
}

/** The memo's answer for this walk (its counters bumped), or undefined: walk it. */
export function replayTable(
  node: NodeCtx,
  skb: Skb,
  hook: Hook,
  table: TableName,
  devs: HookDevices,
): MemoOutcome | undefined {
  return replayWalk(node.nf, table, hook, replayPacketOf(skb, devs), replayConntrackOf(skb));
}
