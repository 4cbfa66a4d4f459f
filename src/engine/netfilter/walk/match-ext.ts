/**
 * Match extensions that keep no state between packets, each as its kernel module decides:
 * xt_tcpudp.c, xt_sctp.c, xt_multiport.c, xt_mark.c, xt_conntrack.c, xt_addrtype.c,
 * xt_physdev.c, xt_set.c, xt_ipvs.c (xt_comment.c always matches).
 */
import { ipToInt } from '../../model/ip';
import type {
  AddrType,
  AddrtypeMatch,
  ConntrackMatch,
  IpvsMatch,
  MultiportMatch,
  PhysdevMatch,
  PortRange,
  PortsMatch,
  SetMatch,
} from '../types';
import { addrMatches, ifaceNameMatches, isFragment, PROTOCOL_NUMBERS } from './match-ip';
import type { MatchContext, Packet } from './types';

/** port_match(): inclusive range, then the invert flag. */
function portInRange(r: PortRange | undefined, port: number): boolean {
  if (r === undefined) return true;
  return (port >= r.min && port <= r.max) !== r.invert;
}

/**
 * tcp_mt()/udp_mt()/sctp_mt(): a non-first fragment never matches (no L4 header); then source
 * and destination port ranges. `-m tcp` without ports still requires the header.
 */
export function portsMatch(m: PortsMatch, packet: Packet): boolean {
  if (isFragment(packet) || packet.sport === undefined || packet.dport === undefined) return false;
  if (!portInRange(m.sport, packet.sport) || !portInRange(m.dport, packet.dport)) return false;
  // tcp_mt(): FWINVTCP((tcph->flags & flg_mask) == flg_cmp, XT_TCP_INV_FLAGS).
  const f = m.flags;
  return f === undefined || ((tcpFlagBits(packet) & f.mask) === f.cmp) !== f.invert;
}

/** The packet's TCP flags as header bits (FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10, URG 0x20). */
function tcpFlagBits(packet: Packet): number {
  const t = packet.tcpFlags;
  if (t === undefined) return 0;
  return (
    (t.fin ? 0x01 : 0) |
    (t.syn ? 0x02 : 0) |
    (t.rst ? 0x04 : 0) |
    (t.psh ? 0x08 : 0) |
    (t.ack ? 0x10 : 0) |
    (t.urg ? 0x20 : 0)
  );
}

/**
 * multiport_mt() / ports_match_v1(): the first listed port or range that contains the port
 * decides `true ^ invert`; none does → `invert`. `--ports` accepts either direction.
 */
export function multiportMatch(m: MultiportMatch, packet: Packet): boolean {
  if (isFragment(packet) || packet.sport === undefined || packet.dport === undefined) return false;
  const { sport, dport } = packet;
  for (const p of m.ports) {
    const inSrc = sport >= p.min && sport <= p.max;
    const inDst = dport >= p.min && dport <= p.max;
    const hit = m.dir === 'sports' ? inSrc : m.dir === 'dports' ? inDst : inSrc || inDst;
    if (hit) return !m.invert;
  }
  return m.invert;
}

/** mark_mt(): `((skb->mark & mask) == mark) ^ invert`. */
export function markMatches(mark: number, value: number, mask: number, invert: boolean): boolean {
  return ((mark & mask) >>> 0 === value >>> 0) !== invert;
}

/**
 * conntrack_mt() --ctstate: the state bit of the packet's ctinfo (replies count as their
 * forward state), INVALID without a conntrack, UNTRACKED for the untracked template, plus
 * SNAT/DNAT from ct->status when a conntrack exists; any listed bit set, then the invert.
 */
/** `-m conntrack --ctstate` and `-m state --state` (the same bits; state has no SNAT/DNAT). */
export function conntrackMatch(
  m: Pick<ConntrackMatch, 'states' | 'invert'>,
  ctx: MatchContext,
): boolean {
  const ct = ctx.conntrack;
  // The packet's state bits: its ctstate, plus SNAT/DNAT for a tracked connection with them.
  const tracked = ct.state !== 'INVALID' && ct.state !== 'UNTRACKED';
  const snat = tracked && ct.snat === true;
  const dnat = tracked && ct.dnat === true;
  let hit = false;
  for (const s of m.states) {
    if (s === ct.state || (s === 'SNAT' && snat) || (s === 'DNAT' && dnat)) {
      hit = true;
      break;
    }
  }
  return hit !== m.invert;
}

/**
 * What inet_dev_addr_type() answers without a routing table: 0.0.0.0/8 and 255.255.255.255 are
 * BROADCAST, 224.0.0.0/4 MULTICAST, the node's own addresses LOCAL, everything else UNICAST.
 * (The lab's routing module knows more: subnet broadcasts, per-device local routes.)
 */
export function defaultAddrType(isLocal: (ip: string) => boolean, ip: string): AddrType {
  const v = ipToInt(ip);
  if (v >>> 24 === 0 || v === 0xffffffff) return 'BROADCAST';
  if (v >>> 28 === 0xe) return 'MULTICAST';
  return isLocal(ip) ? 'LOCAL' : 'UNICAST';
}

/**
 * addrtype_mt_v1(): the route type of the source and/or destination must be in the listed
 * set (each side with its own invert); --limit-iface-in/out restricts the lookup to the input
 * or output device.
 */
export function addrtypeMatch(m: AddrtypeMatch, packet: Packet, ctx: MatchContext): boolean {
  const dev = m.limitIfaceIn ? packet.inIface : m.limitIfaceOut ? packet.outIface : undefined;
  const typeOf = (ip: string): AddrType =>
    ctx.addrType !== undefined
      ? ctx.addrType(ip, dev)
      : defaultAddrType((a) => ctx.isLocalAddress(a), ip);
  if (m.src && m.src.types.includes(typeOf(packet.src)) === m.src.invert) return false;
  if (m.dst && m.dst.types.includes(typeOf(packet.dst)) === m.dst.invert) return false;
  return true;
}

/**
 * physdev_mt(). Without nf_bridge info (not a bridged packet) only inverted options match.
 * With it: --physdev-is-bridged needs a physoutdev, --physdev-is-in/-is-out the respective
 * port; --physdev-in is skipped when there is no in-port and --physdev-out always matches when
 * the out-port is not known yet.
 */
export function physdevMatch(m: PhysdevMatch, packet: Packet): boolean {
  const { physIn, physOut } = packet;
  if (physIn === undefined && physOut === undefined) {
    const opts = [m.isBridged, m.isIn, m.isOut, m.physIn, m.physOut];
    return opts.every((o) => o === undefined || o.invert);
  }
  if (m.isBridged && (physOut !== undefined) === m.isBridged.invert) return false;
  if (m.isIn && (physIn !== undefined) === m.isIn.invert) return false;
  if (m.isOut && (physOut !== undefined) === m.isOut.invert) return false;
  if (m.physIn && physIn !== undefined) {
    if (ifaceNameMatches(m.physIn.name, physIn) === m.physIn.invert) return false;
  }
  if (m.physOut === undefined || physOut === undefined) return true;
  return ifaceNameMatches(m.physOut.name, physOut) !== m.physOut.invert;
}

/** set_match_v*(): ip_set_test() through the caller, then the invert; no set → no match. */
export function setMatch(m: SetMatch, packet: Packet, ctx: MatchContext): boolean {
  if (ctx.ipsetTest === undefined) return false;
  return ctx.ipsetTest(m.setName, m.dims, packet, m.returnNomatch) !== m.invert;
}

/**
 * ipvs_mt(). `--ipvs` alone: skb->ipvs_property ^ invert. Any other option needs an IPVS
 * packet and its connection: --vproto compares the packet's protocol, --vaddr/--vport the
 * connection's virtual address/port, --vdir the conntrack direction, --vmethod the forwarding
 * method.
 */
export function ipvsMatch(m: IpvsMatch, packet: Packet, ctx: MatchContext): boolean {
  const conn = ctx.ipvs?.(packet);
  const onlyProperty =
    m.ipvs !== undefined &&
    m.vproto === undefined &&
    m.vaddr === undefined &&
    m.vport === undefined &&
    m.vdir === undefined &&
    m.vmethod === undefined;
  if (onlyProperty) return (conn !== undefined) !== m.ipvs.invert;
  if (conn === undefined) return false;
  if (m.vproto && (PROTOCOL_NUMBERS[packet.protocol] === m.vproto.proto) === m.vproto.invert)
    return false;
  if (m.vaddr && !addrMatches(m.vaddr, conn.vaddr)) return false;
  if (m.vport && (conn.vport === m.vport.port) === m.vport.invert) return false;
  if (m.vdir !== undefined) {
    const ct = ctx.conntrack;
    if (ct.state === 'INVALID' || ct.state === 'UNTRACKED') return false;
    if ((ct.dir ?? 'ORIGINAL') !== m.vdir) return false;
  }
  if (m.vmethod && (conn.method === m.vmethod.method) === m.vmethod.invert) return false;
  return true;
}
