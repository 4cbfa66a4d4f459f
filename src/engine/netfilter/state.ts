/**
 * Creating, looking up and copying netfilter state, and the counters the packet walk bumps.
 */
import { BUILTIN_CHAINS } from './tables';
import type { Chain, NetfilterState, Rule, Table, TableName } from './types';

/** A node's state at boot on an nf_tables system: no tables until something writes one. */
export function createNetfilter(): NetfilterState {
  return { tables: {} };
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

export function findChain(table: Table, name: string): Chain | undefined {
  return table.chains.find((c) => c.name === name);
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
  let n = 0;
  for (const c of table.chains) {
    for (const r of c.rules) if (r.target.kind === 'jump' && r.target.chain === chain) n++;
  }
  return n;
}

/**
 * Chains in the order iptables-nft lists them: built-in chains in hook order, then user
 * chains sorted by name with strcmp (nft_cache_sort_chains()), whatever order they were
 * created in.
 */
export function chainsForListing(table: Table): Chain[] {
  const builtins = table.chains.filter((c) => c.builtin);
  const users = table.chains.filter((c) => !c.builtin);
  users.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [...builtins, ...users];
}

export function cloneRule(rule: Rule): Rule {
  return { ...rule, counters: { ...rule.counters } };
}

export function cloneTable(table: Table): Table {
  return {
    name: table.name,
    chains: table.chains.map((c) => ({
      ...c,
      counters: { ...c.counters },
      rules: c.rules.map(cloneRule),
    })),
  };
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
  if (c === undefined || !c.builtin) return;
  c.counters.packets += 1;
  c.counters.bytes += bytes;
}

/** `iptables -Z [chain]`: zero rule counters and the policy counters of built-in chains. */
export function zeroCounters(table: Table, chain?: string): void {
  for (const c of table.chains) {
    if (chain !== undefined && c.name !== chain) continue;
    c.counters = { packets: 0, bytes: 0 };
    c.rules = c.rules.map((r) => ({ ...r, counters: { packets: 0, bytes: 0 } }));
  }
}
