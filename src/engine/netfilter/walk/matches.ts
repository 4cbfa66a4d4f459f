/**
 * Whether a rule matches a packet: ipt_do_table() first checks the struct ipt_ip part
 * (ip_packet_match()), then calls each match extension in rule order and stops at the first that
 * fails — so a later match with side effects (recent --set, nfacct, an nth counter, a random
 * draw) runs only when every earlier one matched.
 */
import type { Match, Rule } from '../types';
import {
  addrtypeMatch,
  conntrackMatch,
  ipvsMatch,
  markMatches,
  multiportMatch,
  physdevMatch,
  portsMatch,
  setMatch,
} from './match-ext';
import { icmpTypeMatches } from '../match-icmp';
import { iprangeMatches } from '../match-iprange';
import { ipHeaderMatches, isFragment } from './match-ip';
import { limitMatch, nfacctMatch, recentMatch, statisticMatch } from './match-stateful';
import type { MatchContext, Packet } from './types';

/**
 * One match extension against the packet. `ruleKey` names the rule instance for per-rule state
 * (statistic nth); it is called only when needed.
 */
export function evalMatch(
  m: Match,
  packet: Packet,
  ctx: MatchContext,
  ruleKey: () => string,
): boolean {
  switch (m.name) {
    case 'comment':
      return true;
    case 'tcp':
    case 'udp':
    case 'sctp':
      return portsMatch(m, packet);
    case 'icmp':
      // icmp_match(): never a non-first fragment; the kernel allows the match only with -p icmp.
      return (
        packet.protocol === 'icmp' &&
        !isFragment(packet) &&
        icmpTypeMatches(m, packet.icmpType ?? 0, packet.icmpCode ?? 0)
      );
    case 'state':
      return conntrackMatch(m, ctx);
    case 'iprange':
      return iprangeMatches(m, packet.src, packet.dst);
    case 'limit':
      return limitMatch(m, ctx, ruleKey);
    case 'multiport':
      return multiportMatch(m, packet);
    case 'statistic':
      return statisticMatch(m, ctx, ruleKey);
    case 'recent':
      return recentMatch(m, packet, ctx);
    case 'mark':
      return markMatches(packet.mark, m.mark, m.mask, m.invert);
    case 'conntrack':
      return conntrackMatch(m, ctx);
    case 'addrtype':
      return addrtypeMatch(m, packet, ctx);
    case 'nfacct':
      return nfacctMatch(m.objectName, packet, ctx);
    case 'set':
      return setMatch(m, packet, ctx);
    case 'physdev':
      return physdevMatch(m, packet);
    case 'ipvs':
      return ipvsMatch(m, packet, ctx);
  }
}

/** All of the rule's conditions, in the kernel's order, stopping at the first that fails. */
export function ruleMatches(
  rule: Rule,
  packet: Packet,
  ctx: MatchContext,
  ruleKey: () => string,
): boolean {
  if (!ipHeaderMatches(rule, packet)) return false;
  for (let i = 0; i < rule.matches.length; i++) {
    const m = rule.matches[i];
    if (m === undefined) continue;
    // Only statistic and limit keep per-rule state; no closure per match for the others.
    const key = keeper(m) ? matchKey(ruleKey, i) : ruleKey;
    if (!evalMatch(m, packet, ctx, key)) return false;
  }
  return true;
}

/**
 * ruleMatches() that says where the rule failed: -1 when every condition matched, 0 when the
 * ip header part failed, k + 1 when match k did (what the walk memo needs: memo.ts).
 */
export function ruleMismatch(
  rule: Rule,
  packet: Packet,
  ctx: MatchContext,
  ruleKey: () => string,
): number {
  if (!ipHeaderMatches(rule, packet)) return 0;
  for (let i = 0; i < rule.matches.length; i++) {
    const m = rule.matches[i];
    if (m === undefined) continue;
    const key = keeper(m) ? matchKey(ruleKey, i) : ruleKey;
    if (!evalMatch(m, packet, ctx, key)) return i + 1;
  }
  return -1;
}

/** A match that keeps state per rule in the WalkStore (nth counters, limit buckets). */
export function keeper(m: Match): boolean {
  return m.name === 'statistic' || m.name === 'limit';
}

/** The state key of the rule's match number `i` (a closure outside the loop: none per match). */
function matchKey(ruleKey: () => string, i: number): () => string {
  return () => `${ruleKey()}#${i}`;
}
