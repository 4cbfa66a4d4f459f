/**
 * Committed chains a restore batch declared again (`:CHAIN`, which flushes a user chain)
 * and has not copied yet. kube-proxy declares every chain it writes and then mostly writes
 * the very rules the chain had; the batch only counts how many of the old rules came back
 * in order. A chain that got all of them back is left as it was at commit (no copy, no
 * slot, no index work); the draft copies one as soon as it differs, or when someone looks
 * at it before the batch ends (TableDraft.materialize()).
 */
import { jumpName } from './table-index';
import type { Chain, Rule } from './types';

/** Per committed rules array: where the rules jumping or going to each chain sit, ascending. */
const JUMPS = new WeakMap<readonly Rule[], Map<string, number[]>>();

function jumpsIn(rules: readonly Rule[]): Map<string, number[]> {
  let at = JUMPS.get(rules);
  if (at === undefined) {
    at = new Map();
    for (let i = 0; i < rules.length; i++) {
      const name = jumpName(rules[i] as Rule);
      if (name === undefined) continue;
      const list = at.get(name);
      if (list === undefined) at.set(name, [i]);
      else list.push(i);
    }
    JUMPS.set(rules, at);
  }
  return at;
}

/** How many of the ascending `xs` are at least `min`. */
function countFrom(xs: readonly number[], min: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] as number) < min) lo = mid + 1;
    else hi = mid;
  }
  return xs.length - lo;
}

export interface Refill {
  /** The committed chain. */
  readonly base: Chain;
  /** Its first `kept` rules came back, in order, and nothing else so far. */
  kept: number;
}

/** The same objects of the same cached parse (a parsed line's parts are shared, never changed). */
export function sameParse(old: Rule, rule: Rule): boolean {
  return (
    old.target === rule.target &&
    old.matches === rule.matches &&
    old.src === rule.src &&
    old.dst === rule.dst &&
    old.inIface === rule.inIface &&
    old.outIface === rule.outIface &&
    old.protocol === rule.protocol &&
    old.fragment === rule.fragment
  );
}

export class Refills {
  private readonly byName = new Map<string, Refill>();
  /** The refill the last rule went to (a chain's rule lines come in runs). */
  private last: Refill | undefined;

  get size(): number {
    return this.byName.size;
  }

  /** Starts counting for a committed chain just declared; true if it was declared already (then it starts over). */
  declare(name: string, base: Chain | undefined): boolean {
    const pending = this.byName.get(name);
    if (pending !== undefined) pending.kept = 0;
    else if (base !== undefined) this.byName.set(name, { base, kept: 0 });
    return pending !== undefined;
  }

  /** Starts counting for a committed chain just declared that has no refill yet. */
  start(name: string, base: Chain): void {
    this.byName.set(name, { base, kept: 0 });
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The refill of `name` still counting, if any (read only: for a run of lines at once). */
  pending(name: string): Refill | undefined {
    return this.byName.get(name);
  }

  /** The old rule when `rule` is the next old rule of the declared chain `name` (then it is counted). */
  repeats(name: string, rule: Rule): Rule | undefined {
    let r = this.last;
    if (r === undefined || r.base.name !== name) {
      r = this.byName.get(name);
      if (r === undefined) return undefined;
      this.last = r;
    }
    const old = r.base.rules[r.kept];
    if (old === undefined || !sameParse(old, rule)) return undefined;
    const same =
      old.counters.packets === rule.counters.packets && old.counters.bytes === rule.counters.bytes;
    if (!same) return undefined;
    r.kept++;
    return old;
  }

  /** Stops counting for `name` (the draft copies the chain); its refill, if any. */
  take(name: string): Refill | undefined {
    const r = this.byName.get(name);
    if (r === undefined) return undefined;
    this.byName.delete(name);
    if (this.last === r) this.last = undefined;
    return r;
  }

  /**
   * How many rules of the declared chains that have not come back (yet) jump or go to
   * `name`: what copying those chains now would take from its reference count.
   */
  droppedJumps(name: string): number {
    let n = 0;
    for (const r of this.byName.values()) {
      if (r.kept >= r.base.rules.length) continue;
      const at = jumpsIn(r.base.rules).get(name);
      if (at !== undefined) n += countFrom(at, r.kept);
    }
    return n;
  }

  /** Names of the chains that did not get all their old rules back (so far). */
  unfinished(): string[] {
    const out: string[] = [];
    for (const [name, r] of this.byName) if (r.kept < r.base.rules.length) out.push(name);
    return out;
  }

  clear(): void {
    this.byName.clear();
    this.last = undefined;
  }
}
