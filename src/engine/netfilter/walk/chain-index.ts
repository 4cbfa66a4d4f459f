/**
 * Chain lookup by name in O(1) for the walk. A kube-proxy node can hold tens of thousands of
 * chains and every jump looks one up, so a name → position index is cached per `chains` array.
 * The cache needs no invalidation: a hit is verified against the live array (chain names are
 * unique in a table), and a miss rebuilds the index.
 *
 * A jump's target is also remembered per target object (jumpTarget): a packet's walk takes a
 * few jumps per table, and finding the chain from the target object costs less than hashing
 * its name in an index of thousands. Rules with the same text may share their target object
 * across tables (the parse cache), so each target keeps a few (chains array, position) pairs;
 * a pair is used only when that position of the live array still holds a chain of that name.
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

/** (chains array, position) pairs per jump target: at most PAIRS tables' answers. */
const jumps = new WeakMap<object, (readonly Chain[] | number)[]>();
const PAIRS = 4;

/** chainByName(table, target.chain), remembered per target object. */
export function jumpTarget(table: Table, target: { readonly chain: string }): Chain | undefined {
  const chains = table.chains;
  let pairs = jumps.get(target);
  if (pairs !== undefined) {
    for (let k = 0; k < pairs.length; k += 2) {
      if (pairs[k] !== chains) continue;
      const c = chains[pairs[k + 1] as number];
      if (c !== undefined && c.name === target.chain) return c;
      break;
    }
  } else jumps.set(target, (pairs = []));
  const c = chainByName(table, target.chain);
  if (c === undefined) return undefined;
  const i = cache.get(chains)!.get(target.chain)!;
  // The newest pair first; the oldest goes when there are PAIRS already.
  for (let k = 0; k < pairs.length; k += 2) {
    if (pairs[k] === chains) {
      pairs.splice(k, 2);
      break;
    }
  }
  pairs.unshift(chains, i);
  if (pairs.length > PAIRS * 2) pairs.length = PAIRS * 2;
  return c;
}
