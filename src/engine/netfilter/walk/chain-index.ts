/**
 * Chain lookup by name for the walk. A kube-proxy node holds tens of thousands of chains and
 * every jump looks one up: the walk uses the table's own name → chain index (table-index.ts),
 * which the commit that made the table handed over or patched, as the kernel resolves jumps
 * when a table is loaded (translate_table() turns them into offsets) rather than when a packet
 * first takes them. A committed table is never changed structurally (every batch commits a new
 * Table object, netfilter/draft.ts), so the index needs no checking; a table that never had
 * one (built some other way, or read back from JSON) gets it on its first lookup.
 */
import { tableIndex } from '../table-index';
import type { Chain, Table } from '../types';

/** Built-in chains a table can have (nat has four, filter three, mangle five). */
const MAX_BUILTIN = 5;

/**
 * The table's built-in chain of `hook`: built-in chains come first in a table's chains (the
 * table is created with them), so the first few are looked at before the index; the name
 * decides (chain names are unique in a table), so the answer is chainByName's.
 */
export function builtinChain(table: Table, hook: string): Chain | undefined {
  const chains = table.chains;
  const n = chains.length < MAX_BUILTIN ? chains.length : MAX_BUILTIN;
  for (let i = 0; i < n; i++) if (chains[i]!.name === hook) return chains[i];
  return chainByName(table, hook);
}

/** The table's chain called `name`, or undefined. */
export function chainByName(table: Table, name: string): Chain | undefined {
  return tableIndex(table).byName.get(name);
}

/** The chain a jump or goto goes to. */
export function jumpTarget(table: Table, target: { readonly chain: string }): Chain | undefined {
  return tableIndex(table).byName.get(target.chain);
}
