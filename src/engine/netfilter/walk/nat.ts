/**
 * What a DNAT/SNAT/MASQUERADE target hands to nf_nat_setup_info() (xt_nat.c, xt_MASQUERADE.c):
 * the range as the rule stores it. Choosing the address and port from it — MASQUERADE's source
 * from the output device, the port search, --random/--random-fully — is conntrack's job.
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

export function natRequest(kind: 'DNAT' | 'SNAT' | 'MASQUERADE', range: NatRange): NatRequest {
  const k = kind === 'DNAT' ? 'dnat' : kind === 'SNAT' ? 'snat' : 'masquerade';
  const to = rangeText(range, kind === 'MASQUERADE');
  return {
    kind: k,
    range,
    ...(to !== '' ? { to } : {}),
    random: range.random,
    randomFully: range.randomFully,
    persistent: range.persistent,
  };
}
