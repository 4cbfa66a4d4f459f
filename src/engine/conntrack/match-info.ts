/**
 * What `-m conntrack` reads of a packet's conntrack (xt_conntrack.c: nf_ct_get, ct->status,
 * ct->mark), from the result of nf_conntrack_in() (core.ts).
 */
import type { CtResult, CtStateName } from './core';
import { IPS, type CtDir } from './model';

/** What the netfilter walk's matches read (nf_ct_get + ct->status + ct->mark). */
export interface CtMatchInfo {
  readonly state: CtStateName;
  readonly dir?: CtDir;
  readonly snat?: boolean;
  readonly dnat?: boolean;
  readonly mark?: number;
}

/** The --ctstate view of a result: virtual SNAT/DNAT states come from IPS_SRC_NAT/IPS_DST_NAT. */
export function ctMatchInfo(result: CtResult): CtMatchInfo {
  if (result.kind !== 'tracked') return { state: result.ctstate };
  const s = result.entry.status;
  return {
    state: result.ctstate,
    dir: result.dir,
    snat: (s & IPS.SRC_NAT) !== 0,
    dnat: (s & IPS.DST_NAT) !== 0,
    mark: result.entry.mark,
  };
}
