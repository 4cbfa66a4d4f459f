/**
 * The working copy of one table during an nf_tables batch (one `iptables` call, or one
 * section of `iptables-restore`), copy-on-write: the committed table is never touched, a
 * chain is copied the first time the batch changes it, and commit() builds the new Table
 * from the old one plus what changed, in O(chains) pointer work and O(changes) lookups,
 * handing the old table's index on (see table-index.ts). Jump references: see RefDelta.
 */
import { Refills, sameParse, type Refill } from './draft-refill';
import { applyNftEvents, freshIds, type NftEvent } from './nft-view/ids';
import { sharedName } from './parse-cache';
import { RefDelta } from './ref-delta';
import { BUILTIN_CHAINS, isBuiltinChain } from './tables';
import {
  carryIndex,
  existingIndex,
  freshIndex,
  positionOf,
  tableIndex,
  tableRefs,
  type TableIndex,
} from './table-index';
import type { Chain, Rule, Table, TableName } from './types';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function newChain(name: string, builtin: boolean): Chain {
  return {
    name,
    builtin,
    ...(builtin ? { policy: 'ACCEPT' as const } : {}),
    counters: { packets: 0, bytes: 0 },
    rules: [],
  };
}

/** Above this many declared, uncopied chains, references() copies them rather than count. */
const COUNT_REFILLS_UP_TO = 256;

export class TableDraft {
  private readonly baseIdx: TableIndex | undefined;
  private exists: boolean;
  private changed = false;
  /** Name → chain now; null = gone (shadows the base table). */
  private readonly overlay = new Map<string, Chain | null>();
  /** Base chain → its copy in this batch, or null when deleted. */
  private readonly fate = new Map<Chain, Chain | null>();
  /** Copies made in this batch → the base chain each replaces. */
  private readonly copies = new Map<Chain, Chain>();
  /** Chains created in this batch, in creation order (null once deleted again). */
  private readonly added: (Chain | null)[] = [];
  /** Created chains (only kept when there is a base: without one, every chain is created). */
  private readonly created = new Set<Chain>();
  private addedAt: Map<Chain, number> | undefined;
  private readonly refs = new RefDelta();
  /** The chain edit() returned last (rule lines come in runs of the same chain), and its base. */
  private last: Chain | undefined;
  private lastFrom: Chain | undefined;
  /** Whether a chain was deleted or renamed in this batch. */
  private renamedOrRemoved = false;
  /** Committed chains declared again (flushed) and not copied yet (see draft-refill.ts). */
  private readonly refills = new Refills();
  /** What this batch does in nf_tables, in order (see nft-view/ids.ts). */
  private readonly nftEvents: NftEvent[] = [];

  constructor(
    readonly name: TableName,
    private readonly base: Table | undefined,
  ) {
    this.baseIdx = base === undefined ? undefined : tableIndex(base);
    this.exists = base !== undefined;
  }

  /** Whether the table exists (it did, or a write created it). */
  get present(): boolean {
    return this.exists;
  }

  /**
   * nft_xt_builtin_init(): a write creates the table. iptables lists every base chain of it;
   * nf_tables gets one only when it is used (usesBase()).
   */
  ensure(): void {
    if (this.exists) return;
    this.exists = true;
    this.changed = true;
    for (const c of BUILTIN_CHAINS[this.name]) this.create(newChain(c, true));
  }

  /** The chain as it is now (read only: use edit() to change it). */
  get(name: string): Chain | undefined {
    if (this.refills.size > 0) {
      const r = this.refills.take(name);
      if (r !== undefined) return this.materialize(name, r);
    }
    const o = this.overlay.get(name);
    if (o !== undefined) return o ?? undefined;
    return this.baseIdx?.byName.get(name);
  }

  private isCreated(c: Chain): boolean {
    return this.base === undefined || this.created.has(c);
  }

  /** The chain, copied into this batch if needed; `flush` starts the copy empty. */
  edit(name: string, flush = false): Chain | undefined {
    const last = this.last;
    const c = last !== undefined && last.name === name ? last : this.get(name);
    if (c === undefined) return undefined;
    this.changed = true;
    if (c === last) {
      if (flush) this.flush(c);
      return c;
    }
    const from = this.copies.get(c);
    if (from !== undefined || this.isCreated(c)) {
      if (flush) this.flush(c);
      this.last = c;
      this.lastFrom = from;
      return c;
    }
    const copy: Chain = { ...c, counters: { ...c.counters }, rules: flush ? [] : c.rules.slice() };
    this.overlay.set(name, copy);
    this.fate.set(c, copy);
    this.copies.set(copy, c);
    if (flush) this.refs.count(c.rules, -1);
    this.last = copy;
    this.lastFrom = c;
    return copy;
  }

  /**
   * `:CHAIN` of iptables-restore on an existing chain: it is flushed (false: no such chain).
   * A committed chain is not copied yet (see draft-refill.ts).
   */
  declare(name: string): boolean {
    // What get() would find, looked up once each (a full sync declares 110,000 chains).
    if (this.refills.declare(name, undefined)) return true;
    const o = this.overlay.get(name);
    if (o === null) return false;
    if (o !== undefined) {
      this.changed = true;
      this.edit(name, true);
      return true;
    }
    const c = this.baseIdx?.byName.get(name);
    if (c === undefined) return false;
    this.changed = true;
    if (this.renamedOrRemoved) this.edit(name, true);
    else this.refills.start(name, c);
    return true;
  }

  /** `-A` on a declared, uncopied chain: true when `rule` is its next old rule, which stays. */
  refill(name: string, rule: Rule): boolean {
    if (this.refills.size === 0 || this.jumpsToGone(rule)) return false;
    const kept = this.refills.repeats(name, rule);
    // The kernel still gets the rule again: it takes a new handle.
    if (kept !== undefined) this.nftEvents.push(kept);
    return kept !== undefined;
  }

  /**
   * The committed rules of a declared, uncopied chain and how many of them came back so far
   * (undefined when `name` is not such a chain): what refill() would compare the next
   * `-A name` lines with.
   */
  refilling(name: string): { readonly rules: readonly Rule[]; readonly kept: number } | undefined {
    if (this.refills.size === 0 || this.renamedOrRemoved) return undefined;
    const r = this.refills.pending(name);
    return r === undefined ? undefined : { rules: r.base.rules, kept: r.kept };
  }

  /**
   * refill() for the next `count` old rules of `name`, known to be what the next `count`
   * lines parse to (restore-block.ts): each stays, and takes a new handle.
   */
  keepRefilled(name: string, count: number): void {
    const r = this.refills.pending(name);
    if (r === undefined) return;
    const rules = r.base.rules;
    this.nftEvents.push({ ev: 'rules', rules, from: r.kept, to: r.kept + count });
    r.kept += count;
  }

  /**
   * The rules array of `name` when it is a chain this batch created or copied (its working
   * copy, which the commit keeps): looked up without copying anything.
   */
  working(name: string): readonly Rule[] | undefined {
    if (this.refills.has(name)) return undefined;
    const c = this.overlay.get(name);
    if (c === undefined || c === null) return undefined;
    return this.isCreated(c) || this.copies.has(c) ? c.rules : undefined;
  }

  /** A declared chain as it stands: a copy holding the old rules that came back so far. */
  private materialize(name: string, r: Refill): Chain {
    const c = r.base;
    const copy: Chain = { ...c, counters: { ...c.counters }, rules: c.rules.slice(0, r.kept) };
    this.overlay.set(name, copy);
    this.fate.set(c, copy);
    this.copies.set(copy, c);
    if (r.kept < c.rules.length) this.refs.count(c.rules.slice(r.kept), -1);
    return copy;
  }

  /** Declared chains not (yet) their old selves again are copied; the others stay as they are. */
  private settle(): void {
    for (const name of this.refills.unfinished()) {
      const r = this.refills.take(name);
      if (r !== undefined) this.materialize(name, r);
    }
  }

  /** A rule or a policy on a base chain: iptables-nft creates it in nf_tables if needed. */
  usesBase(name: string): void {
    this.changed = true;
    this.nftEvents.push({ ev: 'chain', name });
  }

  /**
   * iptables-nft deletes an empty base chain (-X of a built-in chain): nf_tables drops it, and
   * iptables lists the built-in chain as new again (policy ACCEPT, counters 0:0, uncounted).
   */
  dropBase(name: string): void {
    const c = this.edit(name);
    if (c === undefined) return;
    c.counters = { packets: 0, bytes: 0 };
    c.policy = 'ACCEPT';
    delete c.countsPolicy;
    this.nftEvents.push({ ev: 'del', name });
  }

  /** Whether nf_tables has this chain (a base chain exists there only once used). */
  nftHasChain(name: string): boolean {
    if (this.base?.nft !== undefined && Object.hasOwn(this.base.nft.chains, name)) return true;
    return this.nftEvents.some((e) => 'ev' in e && e.ev === 'chain' && e.name === name);
  }

  /** A new user chain (the caller checked that the name is free). */
  createUser(name: string): void {
    this.ensure();
    this.nftEvents.push({ ev: 'chain', name });
    // The table keeps the one string object of this name that rule lines parse to.
    this.create(newChain(sharedName(name), false));
  }

  private create(c: Chain): void {
    this.changed = true;
    this.overlay.set(c.name, c);
    if (this.base !== undefined) this.created.add(c);
    this.addedAt?.set(c, this.added.length);
    this.added.push(c);
    // A created chain is its own working copy: the rule lines that follow its `:CHAIN` line
    // find it here without a lookup (what edit() would return and remember).
    this.last = c;
    this.lastFrom = undefined;
  }

  /** Deletes a chain (the caller made the kernel's checks). */
  remove(name: string): void {
    const c = this.get(name);
    if (c === undefined) return;
    this.changed = true;
    this.last = undefined;
    this.renamedOrRemoved = true;
    this.nftEvents.push({ ev: 'del', name });
    this.overlay.set(name, null);
    this.refs.count(c.rules, -1);
    const from = this.copies.get(c);
    if (from !== undefined || !this.isCreated(c)) {
      const base = from ?? c;
      this.copies.delete(c);
      this.fate.set(base, null);
      this.refs.dropBase(base.rules);
      return;
    }
    this.created.delete(c);
    let at = this.addedAt;
    if (at === undefined) {
      at = this.addedAt = new Map();
      for (let i = 0; i < this.added.length; i++) {
        const x = this.added[i];
        if (x !== undefined && x !== null) at.set(x, i);
      }
    }
    const i = at.get(c);
    if (i !== undefined) this.added[i] = null;
  }

  /** -E: the chain keeps its place under its new name. */
  rename(from: string, to: string): void {
    const c = this.edit(from);
    if (c === undefined) return;
    (c as Mutable<Chain>).name = to;
    this.nftEvents.push({ ev: 'rename', from, to });
    this.last = undefined;
    this.renamedOrRemoved = true;
    this.overlay.set(from, null);
    this.overlay.set(to, c);
  }

  /**
   * The rule at `index` of the committed chain `c` was copied from, if `rule` is made of the
   * very same objects (the same cached parse). It passed the jump-target and kernel checks
   * there, and still does: no chain has gone since (a committed table only jumps to chains
   * that exist; nf_tables refuses to delete a chain still jumped to).
   */
  repeatsBase(c: Chain, index: number, rule: Rule): Rule | undefined {
    if (this.jumpsToGone(rule)) return undefined;
    const from = c === this.last ? this.lastFrom : this.copies.get(c);
    const old = from?.rules[index];
    return old !== undefined && sameParse(old, rule) ? old : undefined;
  }

  /**
   * Whether `rule` jumps to a user chain this batch deleted or renamed: an old rule passed the
   * jump-target check when it went in, and still does unless its target has gone since (the
   * kernel checks, about the rule and its own chain only, still pass). kube-proxy deletes
   * stale chains (`-X`) before its last KUBE-SERVICES rule.
   */
  private jumpsToGone(rule: Rule): boolean {
    if (!this.renamedOrRemoved || rule.target.kind !== 'jump') return false;
    const name = rule.target.chain;
    if (isBuiltinChain(this.name, name)) return false;
    const o = this.overlay.get(name);
    if (o !== undefined) return o === null;
    return this.baseIdx?.byName.has(name) !== true;
  }

  /** Rule edits, on a chain returned by edit(). */
  insertRule(c: Chain, index: number, rule: Rule): void {
    this.nftEvents.push(rule);
    c.rules.splice(index, 0, rule);
    this.refs.one(rule, 1);
  }

  appendRule(c: Chain, rule: Rule): void {
    this.nftEvents.push(rule);
    c.rules.push(rule);
    this.refs.one(rule, 1);
  }

  /** `renamed`: the same nf_tables rule, now jumping to a renamed chain (no new handle). */
  replaceRule(c: Chain, index: number, rule: Rule, renamed = false): void {
    const old = c.rules[index];
    if (!renamed) this.nftEvents.push(rule);
    c.rules[index] = rule;
    if (old !== undefined) this.refs.one(old, -1);
    this.refs.one(rule, 1);
  }

  deleteRule(c: Chain, index: number): void {
    this.refs.count(c.rules.splice(index, 1), -1);
  }

  flush(c: Chain): void {
    this.refs.count(c.rules, -1);
    c.rules = [];
  }

  /** How many rules jump or go to `name` right now. */
  references(name: string): number {
    // A few declared chains (a partial sync's) are not copied for this: the rules they have
    // not got back yet simply do not count. Many (a full sync's) are copied once and for all.
    if (this.refills.size > COUNT_REFILLS_UP_TO) this.settle();
    const base = this.base === undefined ? 0 : (tableRefs(this.base).get(name) ?? 0);
    const delta = this.refs.counts(this.copies, this.added).get(name) ?? 0;
    return base + delta - this.refills.droppedJumps(name);
  }

  /** Every chain, built-in first, then user chains in creation order. */
  chains(): Chain[] {
    this.settle();
    return this.layout().chains;
  }

  /**
   * The chains now, and where each base chain this batch replaced or deleted sat: the
   * committed array with those slots changed (found through the index's position hints, so
   * the untouched chains are only copied, not looked up), then the created chains.
   */
  private layout(): { chains: Chain[]; slots: [Chain, Chain | null, number][] } {
    const slots: [Chain, Chain | null, number][] = [];
    let out: Chain[] = [];
    if (this.base !== undefined && this.baseIdx !== undefined) {
      const all: (Chain | null)[] = this.base.chains.slice();
      let holes = 0;
      for (const [from, to] of this.fate) {
        const i = positionOf(this.base, this.baseIdx, from);
        slots.push([from, to, i]);
        if (i >= 0) all[i] = to;
        if (to === null) holes++;
      }
      if (holes > 0) {
        let n = 0;
        for (const c of all) if (c !== null) all[n++] = c;
        all.length = n;
      }
      out = all as Chain[];
    }
    for (const c of this.added) if (c !== null) out.push(c);
    return { chains: out, slots };
  }

  /** The table after the batch (undefined: it does not exist), with its index carried over. */
  commit(): Table | undefined {
    if (!this.exists) return undefined;
    if (!this.changed && this.base !== undefined) return this.base;
    // A declared chain that got its old rules back is left as it was: no copy, no slot.
    this.settle();
    this.refills.clear();
    const { chains, slots } = this.layout();
    // A restore without --noflush deletes the table and creates it anew (a new table handle,
    // last in the list, handles from 1 again: seen on the kernel).
    const nft = this.base?.nft ?? freshIds();
    applyNftEvents(nft, this.nftEvents);
    const table: Table = { name: this.name, chains, nft };
    if (this.base === undefined) {
      // Built from nothing: the overlay is the name map; references are counted when first
      // asked for (a first sync's iptables-save never asks).
      const byName = this.overlay;
      for (const [name, c] of byName) if (c === null) byName.delete(name);
      freshIndex(table, byName as Map<string, Chain>);
      return table;
    }
    const idx = existingIndex(this.base);
    if (idx === undefined) return table;
    let made = 0;
    for (const c of this.added) if (c !== null) made++;
    const refs = idx.refs === undefined ? new Map() : this.refs.counts(this.copies, this.added);
    carryIndex(this.base, table, idx, { slots, made, refs, overlay: this.overlay });
    return table;
  }
}
