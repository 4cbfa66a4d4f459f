/**
 * Creating, looking up and copying netfilter state, and the counters the packet walk bumps.
 */
import { sortedUserChains, tableIndex, tableRefs } from './table-index';
import { BUILTIN_CHAINS } from './tables';
import { newRule } from './new-rule';
import type { Chain, NetfilterState, NftNetns, Rule, Table, TableName } from './types';

/** A node's state at boot on an nf_tables system: no tables until something writes one. */
export function createNetfilter(): NetfilterState {
  return { tables: {}, netns: { lastTableHandle: 0 } };
}

/** A table new to nf_tables takes the namespace's next table handle (nf_tables_newtable()). */
export function withTableHandle(state: NetfilterState, table: Table): Table {
  const ids = table.nft;
  if (ids !== undefined && ids.handle === 0) {
    const netns = state.netns ?? ((state as { netns?: NftNetns }).netns = { lastTableHandle: 0 });
    ids.handle = ++netns.lastTableHandle;
  }
  return table;
}

/** A table as iptables-nft creates it: every base chain, policy ACCEPT, zero counters. */
export function freshTable(name: TableName): Table {
  return {
    name,
    chains: BUILTIN_CHAINS[name].map((c) => ({
      name: c,
      builtin: true,
      policy: 'ACCEPT' as const,
      counters: { packets: 0, bytes: 0 },
      rules: [],
    })),
  };
}

/** The table, or a fresh one when it does not exist (what listing commands show). */
export function tableOrFresh(state: NetfilterState, name: TableName): Table {
  return state.tables[name] ?? freshTable(name);
}

/** O(1): through the table's index (built on first use, carried from commit to commit). */
export function findChain(table: Table, name: string): Chain | undefined {
  return tableIndex(table).byName.get(name);
}

/** The chain a packet walk enters (built-in) or jumps to; undefined when absent. */
export function getChain(
  state: NetfilterState,
  table: TableName,
  chain: string,
): Chain | undefined {
  const t = state.tables[table];
  return t === undefined ? undefined : findChain(t, chain);
}

/** The rules of a chain in evaluation order (empty when the chain does not exist). */
export function chainRules(
  state: NetfilterState,
  table: TableName,
  chain: string,
): readonly Rule[] {
  return getChain(state, table, chain)?.rules ?? [];
}

/** How many rules of the table jump or go to `chain` (the "N references" of iptables -L). */
export function chainReferences(table: Table, chain: string): number {
  return tableRefs(table).get(chain) ?? 0;
}

/**
 * Chains in the order iptables-nft lists them: built-in chains in hook order, then user
 * chains sorted by name with strcmp (nft_cache_sort_chains()), whatever order they were
 * created in.
 */
export function chainsForListing(table: Table): Chain[] {
  const out = table.chains.filter((c) => c.builtin);
  const byName = tableIndex(table).byName;
  for (const name of sortedUserChains(table)) {
    const c = byName.get(name);
    if (c !== undefined) out.push(c);
  }
  return out;
}

/** A table's own copy of a cached rule: shared parts, counters of its own (same layout). */
export function ownRule(r: Rule): Rule {
  const counters = { packets: r.counters.packets, bytes: r.counters.bytes };
  return newRule(
    r.src,
    r.dst,
    r.inIface,
    r.outIface,
    r.protocol,
    r.fragment,
    r.matches,
    r.target,
    counters,
  );
}

/** The packet walk: a rule matched a packet of `bytes` bytes. */
export function bumpRuleCounters(
  state: NetfilterState,
  table: TableName,
  chain: string,
  index: number,
  bytes: number,
): void {
  const rule = getChain(state, table, chain)?.rules[index];
  if (rule === undefined) return;
  rule.counters.packets += 1;
  rule.counters.bytes += bytes;
}

/** The packet walk: a built-in chain's policy decided a packet. */
export function bumpPolicyCounters(
  state: NetfilterState,
  table: TableName,
  chain: string,
  bytes: number,
): void {
  const c = getChain(state, table, chain);
  if (c === undefined || !c.builtin || c.countsPolicy !== true) return;
  c.counters.packets += 1;
  c.counters.bytes += bytes;
}
