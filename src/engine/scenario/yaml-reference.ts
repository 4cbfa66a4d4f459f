/**
 * Test-only: the reading loadScenario did before the fast reader — the whole text through
 * `yaml` — and a DocumentStream that reads that way, the new way, or both and compares them.
 * yaml-stream.test.ts and yaml-corpus.test.ts put it in place of yaml-stream.ts's.
 */
import { LineCounter } from 'yaml';
import type * as StreamModule from './yaml-stream';
import type { StreamItem } from './yaml-stream';
import type { ParsedDoc, ParseProblem } from './yaml-tree';
import { parseSlow, TOO_DEEP } from './yaml-tree';

/** Everything loadScenario takes from reading the text. */
export interface Reading {
  readonly docs: readonly ParsedDoc[];
  readonly problems: readonly ParseProblem[];
  readonly lineStarts: readonly number[];
  readonly fatal: readonly ParseProblem[] | undefined;
}

/** How the switched DocumentStream reads: old way, new way, or new way checked against old. */
export const reader = {
  mode: 'check' as 'check' | 'fast' | 'full',
  /** Texts compared in check mode, and those that read differently. */
  compared: 0,
  mismatches: [] as string[],
};

/** Up to this size, check mode compares (the old size limit: no old reading beyond). */
const CHECKED_CHARS = 1 << 20;

/** The old reading: parseAllDocuments over the whole text, yaml's own line count. */
export function readWhole(text: string): Reading {
  const lines = new LineCounter();
  const slow = parseSlow(text, 0, lines);
  const lineStarts = [...lines.lineStarts];
  if (slow.fatal) return { docs: [], problems: [], lineStarts, fatal: slow.problems };
  return { docs: slow.docs, problems: slow.problems, lineStarts, fatal: undefined };
}

/** The new reading, all documents collected. */
export function readFast(
  Stream: typeof StreamModule.DocumentStream,
  text: string,
  maxDocs = Infinity,
): Reading {
  const stream = new Stream(text);
  const docs: ParsedDoc[] = [];
  const problems: ParseProblem[] = [];
  for (const item of stream.documents(maxDocs)) {
    docs.push(item.doc);
    problems.push(...item.problems);
  }
  const lineStarts = [...stream.lines.lineStarts];
  if (stream.fatal) return { docs: [], problems: [], lineStarts, fatal: stream.fatal };
  return { docs, problems, lineStarts, fatal: undefined };
}

/** yaml-stream.ts with its DocumentStream switched by `reader.mode`. */
export function switched(actual: typeof StreamModule): typeof StreamModule {
  class SwitchedStream {
    readonly lines = new LineCounter();
    fatal: ParseProblem[] | undefined;
    constructor(private readonly text: string) {}

    *documents(maxDocs: number): Generator<StreamItem> {
      const { text } = this;
      const r =
        reader.mode === 'full' ? readWhole(text) : readFast(actual.DocumentStream, text, maxDocs);
      if (reader.mode === 'check' && text.length <= CHECKED_CHARS && r.docs.length <= maxDocs) {
        reader.compared++;
        const diff = difference(comparable(r), comparable(readWhole(text)));
        if (diff) reader.mismatches.push(`${diff} in ${JSON.stringify(text.slice(0, 300))}`);
      }
      for (const l of r.lineStarts) this.lines.addNewLine(l);
      if (r.fatal) this.fatal = [...r.fatal];
      const of = new Map<number, ParseProblem[]>();
      for (const p of r.problems) of.set(p.doc, [...(of.get(p.doc) ?? []), p]);
      for (const doc of r.docs) yield { doc, problems: of.get(doc.index) ?? [] };
    }
  }
  return { ...actual, DocumentStream: SwitchedStream as unknown as typeof actual.DocumentStream };
}

/**
 * A reading with a document's "nested too deeply" errors made one, without an offset: `yaml`
 * runs out of stack on such documents at a depth that depends on the stack already in use,
 * so the old reading never had a fixed count or place for them (the new one reports the
 * Converter's single error without calling `yaml`).
 */
export function comparable(r: Reading): Reading {
  const deep = new Set<number>();
  const problems: ParseProblem[] = [];
  for (const p of r.problems) {
    if (p.message !== TOO_DEEP) problems.push(p);
    else if (!deep.has(p.doc)) {
      deep.add(p.doc);
      problems.push({ ...p, offset: -1 });
    }
  }
  return { ...r, problems };
}

/** Where two values first differ (strictly: -0 is not 0), or undefined when they are equal. */
export function difference(a: unknown, b: unknown, path = ''): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return `${path || 'value'}: ${String(a)} ≠ ${String(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array ≠ object`;
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  if (ka.join() !== kb.join()) return `${path}: keys ${ka.join()} ≠ ${kb.join()}`;
  for (const k of ka) {
    const d = difference(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
      `${path}.${k}`,
    );
    if (d) return d;
  }
  return undefined;
}
