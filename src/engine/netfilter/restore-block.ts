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
 * one range of all those lines recorded.
 */
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
  let lo = block.first;
  let hi = block.stop;
  if (same && rec.lo <= hi && lo <= rec.hi) {
    lo = Math.min(lo, rec.lo);
    hi = Math.max(hi, rec.hi);
  }
  RECORDED.set(mark.rules, { memo: block.memo, delta, lo, hi });
}
