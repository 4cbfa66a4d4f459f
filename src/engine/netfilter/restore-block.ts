/**
 * A run of rule lines restore read from a kept text (restore-pieces.ts), each with the parse
 * the text's memo holds for it (or got as it was read), queued as one command. kube-proxy
 * re-sends every KUBE-SERVICES rule on every partial sync; the chain is declared again
 * (flushed), and each line parses to the rule the chain had at that place, so the rule stays
 * (TableDraft.refill()). Doing that line by line touches every line's parse and every old
 * rule: O(Services) per sync.
 *
 * A block that, at a commit, refilled a chain line for line (every line kept the next old
 * rule) is recorded against the committed rules array of that chain: line i of the memo was
 * rule i + delta of it. A committed chain's rules array never changes (a batch that changes
 * the chain copies it), a memo's parse of a line never changes either, and a parse is
 * compared with a rule by its parts, which never change (sameParse()); so when the same
 * array is being refilled again at rule i + delta, the lines of the block from i on are its
 * next rules again, up to the recorded end. Only the counters can differ (packets counted
 * since, in place): a rule with packets or bytes no longer equals its line's parse (whose
 * counters are 0:0, checked when recording), and the block goes on line by line from it.
 *
 * A run of any length is a block: a full sync sends each Service's KUBE-SERVICES line as a
 * range of its own (between the Service's own chains), and the one-line blocks, adjacent in
 * the text and in the chain, join into one record; the partial sync after it then finds its
 * one range of all those lines recorded. A chain the batch created (a node's first sync) or
 * copied (a full sync that changed it) is recorded too, as the commit left it (Appended).
 */
import { sameParse } from './draft-refill';
import type { TableDraft } from './draft';
import type { TextMemo } from './restore-pieces';
import type { ParsedArgs } from './rule-parse';
import type { Rule } from './types';

/** Lines [first, stop) of a memo's text, each with a cached parse. */
export class RestoreBlock {
  constructor(
    readonly memo: TextMemo,
    readonly first: number,
    readonly stop: number,
  ) {}
}

/** Lines [lo, hi) of `memo` were rules [lo + delta, hi + delta) of the array keyed by. */
interface Recorded {
  readonly memo: TextMemo;
  readonly delta: number;
  readonly lo: number;
  readonly hi: number;
}

const RECORDED = new WeakMap<readonly Rule[], Recorded>();

/** The parse of line i of a block's memo (a block only holds lines that have one). */
export function blockLine(memo: TextMemo, i: number): ParsedArgs {
  return (memo.entries[i] as { parsed: ParsedArgs }).parsed;
}

/**
 * How many lines of the block, from its first on, keep their chain's next old rules as
 * recorded (0 when nothing is known): the caller hands them to keepRefilled() and runs the
 * rest line by line.
 */
export function recordedRun(now: RefillMark | undefined, block: RestoreBlock): number {
  if (now === undefined) return 0;
  const rec = RECORDED.get(now.rules);
  if (rec === undefined || rec.memo !== block.memo) return 0;
  if (block.first < rec.lo || block.first >= rec.hi || now.kept !== block.first + rec.delta)
    return 0;
  const end = Math.min(block.stop, rec.hi);
  const rules = now.rules;
  let n = 0;
  for (let i = now.kept; n < end - block.first; i++, n++) {
    const c = (rules[i] as Rule).counters;
    if (c.packets !== 0 || c.bytes !== 0) break;
  }
  return n;
}

/** Where a chain being refilled stood before a block ran (see recordAfter()). */
export interface RefillMark {
  readonly chain: string;
  readonly rules: readonly Rule[];
  readonly kept: number;
}

export function refillMark(table: TableDraft, block: RestoreBlock): RefillMark | undefined {
  const first = blockLine(block.memo, block.first);
  if (first.cmd !== 'A' || first.chain === undefined) return undefined;
  const now = table.refilling(first.chain);
  return now === undefined ? undefined : { chain: first.chain, ...now };
}

/**
 * After a block ran: when its chain's refill went on by exactly one old rule per line, every
 * line was an `-A` of that chain that kept its old rule; recorded (joined to what is known
 * of the same array and memo, when adjacent) if the lines' counters are 0:0.
 */
export function recordAfter(
  table: TableDraft,
  block: RestoreBlock,
  mark: RefillMark | undefined,
): void {
  if (mark === undefined) return;
  const now = table.refilling(mark.chain);
  const n = block.stop - block.first;
  if (now === undefined || now.rules !== mark.rules || now.kept !== mark.kept + n) return;
  const delta = mark.kept - block.first;
  const rec = RECORDED.get(mark.rules);
  const same = rec !== undefined && rec.memo === block.memo && rec.delta === delta;
  // Known already (the steady state): nothing to check or record.
  if (same && rec.lo <= block.first && block.stop <= rec.hi) return;
  for (let i = block.first; i < block.stop; i++) {
    const c = blockLine(block.memo, i).rule?.counters;
    if (c === undefined || c.packets !== 0 || c.bytes !== 0) return;
  }
  record(mark.rules, { memo: block.memo, delta, lo: block.first, hi: block.stop });
}

/** Records `r` for `rules`, joined to what is known of the same memo and delta when adjacent. */
function record(rules: readonly Rule[], r: Recorded): void {
  const rec = RECORDED.get(rules);
  let { lo, hi } = r;
  if (rec !== undefined && rec.memo === r.memo && rec.delta === r.delta) {
    if (rec.lo <= hi && lo <= rec.hi) {
      lo = Math.min(lo, rec.lo);
      hi = Math.max(hi, rec.hi);
    }
  }
  RECORDED.set(rules, { memo: r.memo, delta: r.delta, lo, hi });
}

/** Where a chain the batch created or copied stood before a block ran (see Appended). */
export interface AppendMark {
  readonly chain: string;
  readonly rules: readonly Rule[];
  readonly at: number;
}

export function appendMark(table: TableDraft, block: RestoreBlock): AppendMark | undefined {
  const first = blockLine(block.memo, block.first);
  if (first.cmd !== 'A' || first.chain === undefined) return undefined;
  const rules = table.working(first.chain);
  return rules === undefined ? undefined : { chain: first.chain, rules, at: rules.length };
}

/**
 * Blocks a batch appended to a chain it created or copied (a node's first sync creates
 * KUBE-SERVICES; a full sync that changes it copies it), one rule per line. That working
 * array is the one the table commits and keeps unchanged from then on; but later commands of
 * the batch may still change it (-I, -D, -R), so each run is checked at the commit: it is
 * recorded when rule i + delta is still made of the parse of line i (sameParse()), whose
 * counters are 0:0. The first partial sync after such a batch then keeps the chain at once.
 */
export class Appended {
  private readonly runs: (Recorded & { chain: string; rules: readonly Rule[]; hi: number })[] = [];

  after(table: TableDraft, block: RestoreBlock, mark: AppendMark | undefined): void {
    if (mark === undefined) return;
    const { chain, rules } = mark;
    const { memo, first, stop } = block;
    if (table.working(chain) !== rules || rules.length !== mark.at + (stop - first)) return;
    const delta = mark.at - first;
    const last = this.runs[this.runs.length - 1];
    const joins = last?.rules === rules && last.memo === memo && last.delta === delta;
    if (joins && last.hi === first) last.hi = stop;
    else this.runs.push({ chain, rules, memo, delta, lo: first, hi: stop });
  }

  /** The batch committed: each run still as it was appended is recorded. */
  record(): void {
    for (const r of this.runs) {
      let ok = true;
      for (let i = r.lo; ok && i < r.hi; i++) {
        const parsed = blockLine(r.memo, i);
        const line = parsed.rule;
        const rule = r.rules[i + r.delta];
        ok =
          parsed.cmd === 'A' &&
          parsed.more === undefined &&
          parsed.chain === r.chain &&
          line !== undefined &&
          rule !== undefined &&
          sameParse(rule, line) &&
          line.counters.packets === 0 &&
          line.counters.bytes === 0;
      }
      if (ok) record(r.rules, r);
    }
  }
}
