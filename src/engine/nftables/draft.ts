/**
 * What an `nft -f` transaction works on: copy-on-write drafts of the tables (a transaction
 * copies a table's chain and set maps, and a chain or set only when a command changes it, so a
 * partial sync of a 10,000-Service table does not copy every rule), and nft's errors.
 */
import type { NftChain, NftSet, NftState, NftTable } from './types';

/** An nft error: the message and the word its caret marker underlines. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly word?: string,
  ) {
    super(message);
  }
}

/** Objects nft finds missing in its own cache. */
export const ENOENT = 'No such file or directory';
// Errors the kernel returns (not nft's own cache lookups) are reported as "Could not process rule".
export const KERNEL_ENOENT = 'Could not process rule: No such file or directory';
export const EEXIST = 'Could not process rule: File exists';
export const EBUSY = 'Could not process rule: Device or resource busy';

let owned = new WeakSet<object>();

/** A fresh draft of the whole state for one transaction. */
export function draftState(s: NftState): NftState {
  owned = new WeakSet();
  const tables = new Map<string, NftTable>();
  for (const [k, t] of s.tables) {
    const d = { ...t, chains: new Map(t.chains), sets: new Map(t.sets) };
    owned.add(d);
    tables.set(k, d);
  }
  return { tables, lastTableHandle: s.lastTableHandle };
}

/** The draft's own copy of `chain`, made on first change. */
export function ownChain(table: NftTable, chain: NftChain): NftChain {
  if (owned.has(chain)) return chain;
  const c = { ...chain, rules: [...chain.rules] };
  owned.add(c);
  table.chains.set(c.name, c);
  return c;
}

/** The draft's own copy of `set`, made on first change. */
export function ownSet(table: NftTable, set: NftSet): NftSet {
  if (owned.has(set)) return set;
  const c = { ...set, elements: new Map(set.elements) };
  owned.add(c);
  table.sets.set(c.name, c);
  return c;
}
