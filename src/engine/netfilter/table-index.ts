/**
 * Derived lookup structures of one committed table, kept beside the plain data (in a WeakMap
 * keyed by the Table object) so the state itself stays JSON-safe:
 *
 * - chain name → chain (O(1) lookups instead of scanning `chains`);
 * - jump target name → how many rules jump or go to it (the "N references" of `iptables -L`
 *   and the EBUSY check of -X), computed on first use;
 * - user chain names in listing order (strcmp), computed on first use;
 * - where each chain sits in `chains` (hints), so that a commit changes a few slots of a
 *   copy of the array instead of looking every chain up.
 *
 * A committed table is never changed structurally (a batch works on a TableDraft and commits
 * a new Table object), so an index stays valid for its table. Commit hands the old table's
 * index to the new table and patches it with the batch's changes (O(changes), not O(table));
 * the old table simply loses its index and rebuilds one if it is ever looked at again.
 */
import type { Chain, Rule, Table } from './types';

export interface TableIndex {
  readonly byName: Map<string, Chain>;
  /** Absent until first needed; jump targets with no references have no entry. */
  refs: Map<string, number> | undefined;
  /** Sorted user chain names, absent until first needed. */
  sorted: string[] | undefined;
  /** User chains deleted / created since `sorted` was computed (applied on next use). */
  readonly unsorted: { readonly removed: Set<string>; readonly added: Set<string> };
  /**
   * Chain → its position in `chains` when recorded. Positions only move down (deleting
   * chains compacts the array), by at most `slack` (the deletions since), so a hint is
   * checked and, if stale, found a few steps below. Rebuilt when the slack grows.
   */
  at: Map<Chain, number> | undefined;
  slack: number;
}

/** Above this slack the position hints are rebuilt rather than searched from. */
const MAX_SLACK = 1024;

const INDEX = new WeakMap<Table, TableIndex>();

export function tableIndex(table: Table): TableIndex {
  let idx = INDEX.get(table);
  if (idx === undefined) {
    const byName = new Map<string, Chain>();
    for (const c of table.chains) byName.set(c.name, c);
    idx = {
      byName,
      refs: undefined,
      sorted: undefined,
      unsorted: pending(),
      at: undefined,
      slack: 0,
    };
    INDEX.set(table, idx);
  }
  return idx;
}

/** The index of `table` if one was built (never builds one). */
export function existingIndex(table: Table): TableIndex | undefined {
  return INDEX.get(table);
}

/** Where chain `c` of `table` sits in `table.chains` (-1 if it is not there). */
export function positionOf(table: Table, idx: TableIndex, c: Chain): number {
  const chains = table.chains;
  if (idx.at === undefined || idx.slack > MAX_SLACK) {
    idx.at = positions(chains);
    idx.slack = 0;
  }
  const hint = idx.at.get(c);
  if (hint === undefined) return chains.indexOf(c);
  for (let i = Math.min(hint, chains.length - 1); i >= 0 && i >= hint - idx.slack; i--) {
    if (chains[i] === c) return i;
  }
  return chains.indexOf(c);
}

function positions(chains: readonly Chain[]): Map<Chain, number> {
  const at = new Map<Chain, number>();
  for (let i = 0; i < chains.length; i++) at.set(chains[i] as Chain, i);
  return at;
}

/** The chain a rule jumps or goes to, if any. */
export function jumpName(rule: Rule): string | undefined {
  return rule.target.kind === 'jump' ? rule.target.chain : undefined;
}

export function addRef(refs: Map<string, number>, name: string | undefined, by: number): void {
  if (name === undefined) return;
  const n = (refs.get(name) ?? 0) + by;
  if (n === 0) refs.delete(name);
  else refs.set(name, n);
}

export function tableRefs(table: Table): Map<string, number> {
  const idx = tableIndex(table);
  if (idx.refs === undefined) {
    const refs = new Map<string, number>();
    for (const c of table.chains) for (const r of c.rules) addRef(refs, jumpName(r), 1);
    idx.refs = refs;
  }
  return idx.refs;
}

function pending(): TableIndex['unsorted'] {
  return { removed: new Set(), added: new Set() };
}

/** Records that a user chain name left / joined the table (commit bookkeeping). */
export function noteUserChain(idx: TableIndex, name: string, present: boolean): void {
  if (idx.sorted === undefined) return;
  const { removed, added } = idx.unsorted;
  if (present) {
    if (!removed.delete(name)) added.add(name);
  } else if (!added.delete(name)) removed.add(name);
}

/** User chain names sorted with strcmp (the order iptables-nft lists them in). */
export function sortedUserChains(table: Table): readonly string[] {
  const idx = tableIndex(table);
  const { removed, added } = idx.unsorted;
  if (idx.sorted === undefined) {
    // The default sort compares UTF-16 code units, as `<` does (and much faster than a callback).
    idx.sorted = table.chains
      .filter((c) => !c.builtin)
      .map((c) => c.name)
      .sort();
  } else if (removed.size > 0 || added.size > 0) {
    idx.sorted = patchSorted(idx.sorted, removed, [...added]);
  }
  removed.clear();
  added.clear();
  return idx.sorted;
}

/**
 * A sorted name list with `removed` taken out and `added` (not yet present) merged in:
 * O(n + k log k) instead of sorting everything again.
 */
export function patchSorted(
  sorted: readonly string[],
  removed: ReadonlySet<string>,
  added: readonly string[],
): string[] {
  const add = [...added].sort();
  const out: string[] = [];
  let j = 0;
  for (const name of sorted) {
    if (removed.size > 0 && removed.has(name)) continue;
    while (j < add.length && (add[j] ?? '') < name) out.push(add[j++] ?? '');
    out.push(name);
  }
  while (j < add.length) out.push(add[j++] ?? '');
  return out;
}

/** What a batch changed, for carryIndex(). */
export interface BatchChanges {
  /** Each committed chain replaced (by its copy) or deleted (null), and the slot it had. */
  readonly slots: readonly (readonly [Chain, Chain | null, number])[];
  /** How many chains the batch created (they end the new `chains`). */
  readonly made: number;
  /** Reference count changes by chain name. */
  readonly refs: ReadonlyMap<string, number>;
  /** Chain name → the chain now, or null when gone. */
  readonly overlay: ReadonlyMap<string, Chain | null>;
}

/** Hands the index of `from` to `to`, the table a batch committed, patched with its changes. */
export function carryIndex(from: Table, to: Table, idx: TableIndex, batch: BatchChanges): void {
  const at = idx.at;
  if (at !== undefined) {
    // A replaced chain's hint is its old slot; created chains are recorded exactly.
    for (const [old, now, i] of batch.slots) {
      at.delete(old);
      if (now !== null) at.set(now, i);
      else idx.slack++;
    }
    const n = to.chains.length;
    for (let i = n - batch.made; i < n; i++) at.set(to.chains[i] as Chain, i);
  }
  if (idx.refs !== undefined) for (const [name, by] of batch.refs) addRef(idx.refs, name, by);
  for (const [name, c] of batch.overlay) {
    const was = idx.byName.get(name);
    if (was !== undefined && !was.builtin && c === null) noteUserChain(idx, name, false);
    if (was === undefined && c !== null && !c.builtin) noteUserChain(idx, name, true);
    if (c === null) idx.byName.delete(name);
    else idx.byName.set(name, c);
  }
  INDEX.delete(from);
  INDEX.set(to, idx);
}

/**
 * The index of a table a batch built from nothing (restore without --noflush, first write).
 * Reference counts and position hints are made when first needed, from the table itself.
 */
export function freshIndex(table: Table, byName: Map<string, Chain>): void {
  INDEX.set(table, {
    byName,
    refs: undefined,
    sorted: undefined,
    unsorted: pending(),
    at: undefined,
    slack: 0,
  });
}
