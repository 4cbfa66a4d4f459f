/**
 * Skipping rules whose destination address cannot match. ipt_do_table() evaluates every rule
 * of a chain in order, and so does the walk when the trace shows each evaluated rule; but a
 * rule with `-d ADDR/32` fails ip_packet_match() for every other destination before any match
 * extension runs (no side effect, no counter), so when the trace keeps only matched rules (or
 * none) the walk may go straight to the rules that could match. For kube-proxy's
 * KUBE-SERVICES (one `-d CLUSTER-IP/32` rule per service port) that turns a walk of thousands
 * of rules into a handful — the outcome, counters and matched steps are the same.
 *
 * The index is built per rules array: a committed chain's array is never changed in place
 * (batches work on copies, see netfilter/draft.ts), and a hit is still checked against the
 * array's length.
 */
import type { Rule } from '../types';
import { ipValue } from './match-ip';

/** Chains shorter than this are walked rule by rule (the index would not pay for itself). */
export const MIN_RULES = 32;
/** Candidate lists kept per chain (one per destination seen); cleared when exceeded. */
const MAX_DESTINATIONS = 4096;

interface RuleIndex {
  readonly length: number;
  /** `-d A/32` (not inverted) → the positions of those rules, ascending. */
  readonly exact: Map<number, number[]>;
  /** Every other rule's position, ascending: they may match any destination. */
  readonly others: number[];
  /** Destination → the positions of the rules that may match it, ascending. */
  readonly candidates: Map<number, readonly number[]>;
}

const indexes = new WeakMap<readonly Rule[], RuleIndex | null>();

function build(rules: readonly Rule[]): RuleIndex | null {
  if (rules.length < MIN_RULES) return null;
  const exact = new Map<number, number[]>();
  const others: number[] = [];
  rules.forEach((r, i) => {
    const d = r.dst;
    if (d === undefined || d.invert || d.prefix !== 32) others.push(i);
    else {
      const key = ipValue(d.addr);
      const list = exact.get(key);
      if (list === undefined) exact.set(key, [i]);
      else list.push(i);
    }
  });
  // Nothing to skip when most rules match any destination.
  if (others.length * 2 > rules.length) return null;
  return { length: rules.length, exact, others, candidates: new Map() };
}

/** The positions of `rules` a packet to `dst` may match, ascending; undefined: all of them. */
export function candidateRules(rules: readonly Rule[], dst: string): readonly number[] | undefined {
  let idx = indexes.get(rules);
  if (idx === undefined || (idx !== null && idx.length !== rules.length)) {
    idx = build(rules);
    indexes.set(rules, idx);
  }
  if (idx === null) return undefined;
  const key = ipValue(dst);
  let list = idx.candidates.get(key);
  if (list === undefined) {
    list = merge(idx.exact.get(key) ?? [], idx.others);
    if (idx.candidates.size >= MAX_DESTINATIONS) idx.candidates.clear();
    idx.candidates.set(key, list);
  }
  return list;
}

function merge(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/** The first candidate position ≥ `from`, or `end` when there is none. */
export function nextCandidate(list: readonly number[], from: number, end: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo]! : end;
}
