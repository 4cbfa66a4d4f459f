/**
 * Why a rule did not match a packet, for the trace: the first condition that failed, as
 * `iptables -S` writes that condition, and what the packet had instead. The order is the one
 * the node's kernel evaluates: iptables-nft turns a rule into nf_tables expressions in the order
 * iifname, oifname, l4proto, saddr, daddr, fragment, then each match extension (`nft
 * --debug=netlink list chain` shows it; legacy ip_packet_match() checked the addresses first).
 * Whether a rule matches does not depend on the order; which condition is named does. Asked only for recorded walks, after ruleMismatch() said where the rule failed;
 * nothing here changes state (a random draw is not drawn again: it is only named).
 */
import { protocolName } from '../protocols';
import { saveMatch } from '../render-ext';
import { saveAddr, saveIface } from '../rule-render';
import type { Rule } from '../types';
import { addrMatches, ifaceNameMatches, isFragment, PROTOCOL_NUMBERS } from './match-ip';
import type { MatchContext, Packet } from './types';

export type MismatchKind =
  | 'source'
  | 'destination'
  | 'in'
  | 'out'
  | 'protocol'
  | 'sport'
  | 'dport'
  | 'tcp-flags'
  | 'ctstate'
  | 'mark'
  | 'random'
  | 'other';

export interface Mismatch {
  /** The condition as `iptables -S` writes it: `-d 10.96.0.1/32`, `-m conntrack --ctstate NEW`. */
  readonly condition: string;
  readonly kind: MismatchKind;
  /** What the packet had instead ('' when there is nothing to show). */
  readonly value: string;
}

const inRange = (r: { min: number; max: number; invert: boolean } | undefined, port: number) =>
  r === undefined || (port >= r.min && port <= r.max) !== r.invert;

/** `failed`: what ruleMismatch() returned (0: the ip header part; k + 1: match k). */
export function describeMismatch(
  rule: Rule,
  failed: number,
  packet: Packet,
  ctx: MatchContext,
): Mismatch {
  if (failed === 0) return headerMismatch(rule, packet);
  const m = rule.matches[failed - 1];
  if (m === undefined) return { condition: '', kind: 'other', value: '' };
  const condition = saveMatch(m).trim();
  const { sport, dport } = packet;
  switch (m.name) {
    case 'tcp':
    case 'udp':
    case 'sctp':
      if (isFragment(packet) || sport === undefined || dport === undefined)
        return { condition, kind: 'protocol', value: packet.protocol };
      if (!inRange(m.sport, sport)) return { condition, kind: 'sport', value: String(sport) };
      if (!inRange(m.dport, dport)) return { condition, kind: 'dport', value: String(dport) };
      return { condition, kind: 'tcp-flags', value: tcpFlagsText(packet) };
    case 'multiport':
      if (m.dir === 'sports') return { condition, kind: 'sport', value: String(sport ?? '') };
      return { condition, kind: 'dport', value: String(dport ?? '') };
    case 'statistic':
      return { condition, kind: m.mode === 'random' ? 'random' : 'other', value: '' };
    case 'mark':
      return { condition, kind: 'mark', value: `0x${packet.mark.toString(16)}` };
    case 'conntrack':
    case 'state': {
      const ct = ctx.conntrack;
      const tracked = ct.state !== 'INVALID' && ct.state !== 'UNTRACKED';
      const bits: string[] = [ct.state];
      if (m.name === 'state') return { condition, kind: 'ctstate', value: ct.state };
      if (tracked && ct.snat === true) bits.push('SNAT');
      if (tracked && ct.dnat === true) bits.push('DNAT');
      return { condition, kind: 'ctstate', value: bits.join(',') };
    }
    default:
      return { condition, kind: 'other', value: '' };
  }
}

function headerMismatch(rule: Rule, packet: Packet): Mismatch {
  const i = rule.inIface;
  if (i !== undefined && ifaceNameMatches(i.name, packet.inIface) === i.invert)
    return { condition: saveIface('i', i).trim(), kind: 'in', value: packet.inIface ?? '' };
  const o = rule.outIface;
  if (o !== undefined && ifaceNameMatches(o.name, packet.outIface) === o.invert)
    return { condition: saveIface('o', o).trim(), kind: 'out', value: packet.outIface ?? '' };
  const p = rule.protocol;
  if (p !== undefined && p.num !== 0 && (PROTOCOL_NUMBERS[packet.protocol] === p.num) === p.invert)
    return {
      condition: `${p.invert ? '! ' : ''}-p ${protocolName(p.num) ?? p.num}`,
      kind: 'protocol',
      value: packet.protocol,
    };
  if (!addrMatches(rule.src, packet.src))
    return { condition: saveAddr('s', rule.src).trim(), kind: 'source', value: packet.src };
  if (!addrMatches(rule.dst, packet.dst))
    return { condition: saveAddr('d', rule.dst).trim(), kind: 'destination', value: packet.dst };
  const f = rule.fragment;
  return { condition: f?.invert ? '! -f' : '-f', kind: 'other', value: '' };
}

/** The packet's TCP flags as `--tcp-flags` names them (`SYN,ACK`). */
function tcpFlagsText(packet: Packet): string {
  const t = packet.tcpFlags;
  if (t === undefined) return '';
  const names = [
    t.fin ? 'FIN' : '',
    t.syn ? 'SYN' : '',
    t.rst ? 'RST' : '',
    t.psh ? 'PSH' : '',
    t.ack ? 'ACK' : '',
    t.urg ? 'URG' : '',
  ];
  return names.filter((n) => n !== '').join(',');
}
