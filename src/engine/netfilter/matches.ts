/**
 * The match extensions the lab knows, by `-m` name.
 */
import type { ExtParser } from './ext';
import {
  addrtypeMatch,
  commentMatch,
  ipvsMatch,
  nfacctMatch,
  physdevMatch,
  setMatch,
  type IpsetLookup,
} from './match-misc';
import { icmpMatch } from './match-icmp';
import { iprangeMatch } from './match-iprange';
import { limitMatch } from './match-limit';
import { multiportMatch, portsMatch } from './match-ports';
import { conntrackMatch, markMatch, recentMatch, stateMatch, statisticMatch } from './match-state';
import type { Match } from './types';

export function matchParser(name: string, ipsets?: IpsetLookup): ExtParser<Match> | undefined {
  switch (name) {
    case 'comment':
      return commentMatch();
    case 'tcp':
    case 'udp':
    case 'sctp':
      return portsMatch(name);
    case 'icmp':
      return icmpMatch();
    case 'multiport':
      return multiportMatch();
    case 'state':
      return stateMatch();
    case 'iprange':
      return iprangeMatch();
    case 'limit':
      return limitMatch();
    case 'statistic':
      return statisticMatch();
    case 'recent':
      return recentMatch();
    case 'mark':
      return markMatch();
    case 'conntrack':
      return conntrackMatch();
    case 'addrtype':
      return addrtypeMatch();
    case 'nfacct':
      return nfacctMatch();
    case 'set':
      return setMatch(ipsets);
    case 'physdev':
      return physdevMatch();
    case 'ipvs':
      return ipvsMatch();
    default:
      return undefined;
  }
}

/**
 * iptables-nft turns tcp/udp port matches into native nf_tables payload expressions
 * (nft.c add_nft_tcp/udp) and, reading the rule back, folds all of them into the first
 * tcp/udp match of the rule: `-m tcp --dport 1 -m tcp --sport 2` lists as
 * `-m tcp --sport 2 --dport 1`. A match without ports stays an xt match of its own.
 */
export function foldNativePortMatches(matches: readonly Match[]): Match[] {
  const out: Match[] = [];
  for (const m of matches) {
    if ((m.name === 'tcp' || m.name === 'udp') && hasPortRange(m)) {
      const i = out.findIndex((o) => o.name === m.name && hasPortRange(o));
      const first = out[i];
      if (first !== undefined && first.name === m.name) {
        out[i] = {
          ...first,
          ...(m.sport ? { sport: m.sport } : {}),
          ...(m.dport ? { dport: m.dport } : {}),
          ...(m.name === 'tcp' && m.flags ? { flags: m.flags } : {}),
        };
        continue;
      }
    }
    out.push(m);
  }
  return out;
}

/** A tcp/udp match that restricts ports (not the whole 0:65535), or tcp flags: native compares. */
export function hasPortRange(m: Match): boolean {
  if (m.name !== 'tcp' && m.name !== 'udp') return false;
  if (m.flags !== undefined) return true;
  const full = (r: typeof m.sport): boolean =>
    r === undefined || (r.min === 0 && r.max === 0xffff && !r.invert);
  return !full(m.sport) || !full(m.dport);
}
