/**
 * What a DNAT/SNAT/MASQUERADE/REDIRECT target hands to nf_nat_setup_info() (xt_nat.c,
 * xt_MASQUERADE.c, xt_REDIRECT.c): the range as the rule stores it. Choosing the address and
 * port from it — MASQUERADE's source from the output device, REDIRECT's destination from the
 * input device, the port search, --random/--random-fully — is conntrack's job.
 */
import type { NatRange } from '../types';
import type { NatRequest } from './types';

/** The range as libxt_NAT's sprint_range() writes it: `a[-b][:p[-q]]` (`p[-q]` for MASQUERADE). */
function rangeText(r: NatRange, portsOnly: boolean): string {
  let t = '';
  if (r.minAddr !== undefined) {
    t += r.minAddr;
    if (r.maxAddr !== undefined && r.maxAddr !== r.minAddr) t += `-${r.maxAddr}`;
  }
  if (r.minPort !== undefined) {
    t += `${portsOnly ? '' : ':'}${r.minPort}`;
    if (r.maxPort !== undefined && r.maxPort !== r.minPort) t += `-${r.maxPort}`;
  }
  return t;
}

const KINDS = {
  DNAT: 'dnat',
  SNAT: 'snat',
  MASQUERADE: 'masquerade',
  REDIRECT: 'redirect',
} as const;

export function natRequest(kind: keyof typeof KINDS, range: NatRange): NatRequest {
  const k = KINDS[kind];
  const to = rangeText(range, kind === 'MASQUERADE' || kind === 'REDIRECT');
  return {
    kind: k,
    range,
    ...(to !== '' ? { to } : {}),
    random: range.random,
    randomFully: range.randomFully,
    persistent: range.persistent,
  };
}
