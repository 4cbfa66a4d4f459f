/**
 * For tests that compare two ways of reaching a ruleset: everything a user can read of it —
 * iptables-save with counters, `iptables -L -n -v -x` of nat and filter, and `nft -a list
 * table` of each iptables-nft table (handles included).
 */
import { iptablesList, iptablesSave, type NetfilterState } from './index';
import { iptablesNftTables } from './nft-view/render';

export function allViews(s: NetfilterState): string {
  let out = iptablesSave(s, { counters: true, nowEpochSeconds: 0 }).stdout;
  for (const table of ['filter', 'nat'])
    out += iptablesList(s, { table, numeric: true, verbose: true, exact: true }).stdout;
  for (const t of iptablesNftTables(s)) out += t.table({ handles: true }).text;
  return out;
}
