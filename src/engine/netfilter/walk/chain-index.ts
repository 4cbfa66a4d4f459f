/**
 * Chain lookup by name in O(1) for the walk. A kube-proxy node can hold tens of thousands of
 * chains and every jump looks one up, so a name → position index is cached per `chains` array.
 * The cache needs no invalidation: a hit is verified against the live array (chain names are
 * unique in a table), and a miss rebuilds the index.
 *
 * A jump's target is also remembered per chains array and target object (jumpTarget): a
 * packet's walk takes a few jumps per table, and finding the chain from the target object costs
 * less than hashing its name in an index of thousands. Rules with the same text may share their
 * target object across tables (the parse cache): the memo is per chains array, and a position
 * is used only when the live array still holds a chain of that name there.
 */
import type { Chain, Table } from '../types';

const cache = new WeakMap<readonly Chain[], Map<string, number>>();

function build(chains: readonly Chain[]): Map<string, number> {
  const index = new Map<string, number>();
  chains.forEach((c, i) => index.set(c.name, i));
  cache.set(chains, index);
  return index;
}

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
  const chains = table.chains;
  const cached = cache.get(chains);
  if (cached !== undefined) {
    const i = cached.get(name);
    const c = i === undefined ? undefined : chains[i];
    if (c !== undefined && c.name === name) return c;
  }
  const i = build(chains).get(name);
  return i === undefined ? undefined : chains[i];
}

/**
 * Per chains array, the position of each jump target's chain. Weak at both levels: a table's
 * replaced chains array, and the rules of its past, are not kept alive by this memo.
 */
const jumps = new WeakMap<readonly Chain[], WeakMap<object, number>>();

/** chainByName(table, target.chain), remembered per chains array and target object. */
export function jumpTarget(table: Table, target: { readonly chain: string }): Chain | undefined {
  const chains = table.chains;
  let byTarget = jumps.get(chains);
  if (byTarget === undefined) jumps.set(chains, (byTarget = new WeakMap()));
  const i = byTarget.get(target);
  if (i !== undefined) {
    // The live array may have changed in place: the position must still hold that name.
    const c = chains[i];
    if (c !== undefined && c.name === target.chain) return c;
  }
  const c = chainByName(table, target.chain);
  if (c !== undefined) byTarget.set(target, cache.get(chains)!.get(target.chain)!);
  return c;
}
