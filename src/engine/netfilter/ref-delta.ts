/**
 * How a batch changes the jump reference counts of its table, counted lazily: until someone
 * asks (a -X check, or commit), rule edits cost nothing here; the first question diffs every
 * chain the batch copied or created against the rules it started from (rules shared with
 * the committed table are skipped by identity), and from then on edits update the counts.
 */
import { addRef, jumpName } from './table-index';
import type { Chain, Rule } from './types';

export class RefDelta {
  /** Rules of committed chains deleted before counting started. */
  private readonly dropped: (readonly Rule[])[] = [];
  private delta: Map<string, number> | undefined;

  /** Rules left (-1) or joined (+1) the table; only recorded once counting has started. */
  count(rules: readonly Rule[], by: number): void {
    if (this.delta !== undefined) for (const r of rules) addRef(this.delta, jumpName(r), by);
  }

  one(rule: Rule, by: number): void {
    if (this.delta !== undefined) addRef(this.delta, jumpName(rule), by);
  }

  /** A committed chain was deleted: before counting starts its rules are remembered. */
  dropBase(rules: readonly Rule[]): void {
    if (this.delta === undefined) this.dropped.push(rules);
  }

  /**
   * The change per chain name; `copies` maps each copied chain to the committed one it
   * replaces, `created` lists the chains the batch created (null: deleted again).
   */
  counts(
    copies: ReadonlyMap<Chain, Chain>,
    created: readonly (Chain | null)[],
  ): Map<string, number> {
    if (this.delta !== undefined) return this.delta;
    const delta = new Map<string, number>();
    const diff = (before: readonly Rule[], after: readonly Rule[]): void => {
      const n = Math.max(before.length, after.length);
      for (let i = 0; i < n; i++) {
        const a = before[i];
        const b = after[i];
        if (a === b) continue;
        const ja = a === undefined ? undefined : jumpName(a);
        const jb = b === undefined ? undefined : jumpName(b);
        if (ja === jb) continue;
        addRef(delta, ja, -1);
        addRef(delta, jb, 1);
      }
    };
    for (const [c, from] of copies) diff(from.rules, c.rules);
    for (const c of created) if (c !== null) diff([], c.rules);
    for (const rules of this.dropped) diff(rules, []);
    this.dropped.length = 0;
    this.delta = delta;
    return delta;
  }
}
