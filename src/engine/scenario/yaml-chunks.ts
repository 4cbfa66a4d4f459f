/**
 * What yaml-stream.ts needs to read a scenario document by document exactly as `yaml` reads
 * the whole text: where documents start, where the last closing quotes are, and how to give
 * `yaml` a slice with the context that changes its reading.
 */
import { LineCounter } from 'yaml';
import type { ParsedDoc, ParseProblem } from './yaml-tree';
import { parseSlow } from './yaml-tree';

/** A slice read by `yaml`: documents and problems counted from 0 within it. */
export interface SliceRead {
  readonly docs: readonly ParsedDoc[];
  readonly problems: readonly ParseProblem[];
  readonly syntaxErrors: readonly number[];
  /** Line starts inside the slice, as `yaml` counts them. */
  readonly lineStarts: readonly number[];
  /** Errors `yaml` gives the document before the slice, which has no tree then. */
  readonly stray: readonly ParseProblem[];
  readonly fatal: boolean;
}

/** A document that ends at the next `---` and reports nothing. */
const BEFORE = '~\n';
/** A `---` and both kinds of quote, standing in for the rest of the text (see readSlice). */
const AFTER = `---\n'"'\n`;

/**
 * `yaml` reading text[from, to) as within the whole text. Around a slice, two things change
 * what `yaml` reports: a quote still open at the next `---` ends there only if a closing
 * quote comes later in the text (AFTER supplies one); and an error token before a document's
 * content (a stray `]`) goes to the document before it (BEFORE catches those).
 */
export function readSlice(text: string, from: number, to: number, previous: boolean): SliceRead {
  const before = previous ? BEFORE : '';
  const after = to < text.length ? AFTER : '';
  const base = from - before.length;
  const own = new LineCounter();
  const slow = parseSlow(before + text.slice(from, to) + after, base, own);
  // yaml misses a few newlines inside some malformed lines; diagnostics have always used its
  // count, so its count it is.
  const lineStarts = own.lineStarts.map((l) => base + l).filter((l) => l > from && l <= to);
  if (slow.fatal) return { ...slow, lineStarts, stray: [], fatal: true };
  const first = before ? 1 : 0;
  const last = slow.docs.length - (after ? 1 : 0);
  const inSlice = (p: ParseProblem): boolean => p.doc >= first && p.doc < last;
  return {
    docs: slow.docs.slice(first, last).map((d) => ({ ...d, index: d.index - first })),
    problems: slow.problems.filter(inSlice).map((p) => ({ ...p, doc: p.doc - first })),
    syntaxErrors: slow.syntaxErrors.slice(first, last),
    lineStarts,
    stray: first === 1 ? slow.problems.filter((p) => p.doc === 0) : [],
    fatal: false,
  };
}

/**
 * Where the last quotes that can close a quoted scalar are, as yaml's lexer looks for them: a
 * `"` after an even number of backslashes, a `'` ending a run of odd length (`''` is an
 * escaped quote). A quote opened at or after that point never closes.
 */
export class LastQuotes {
  private readonly dq: number;
  private readonly sq: number;
  private nextDq = -1;
  private nextSq = -1;

  constructor(text: string) {
    let dq = text.lastIndexOf('"');
    while (dq > 0 && backslashesBefore(text, dq) % 2 === 1) dq = text.lastIndexOf('"', dq - 1);
    this.dq = dq;
    let sq = -1;
    for (let end = text.lastIndexOf("'"); end >= 0;) {
      let start = end;
      while (start > 0 && text.charCodeAt(start - 1) === 39) start--;
      if ((end - start) % 2 === 0) {
        sq = start;
        break;
      }
      end = start > 0 ? text.lastIndexOf("'", start - 1) : -1;
    }
    this.sq = sq;
  }

  /**
   * Whether text[from, to) holds a quote that may open a scalar never closed. Calls come in
   * text order, so each search resumes where the last one stopped (linear in all).
   */
  open(text: string, from: number, to: number): boolean {
    if (this.nextDq < from) this.nextDq = search(text, '"', Math.max(from, this.dq));
    if (this.nextSq < from) this.nextSq = search(text, "'", Math.max(from, this.sq));
    return this.nextDq < to || this.nextSq < to;
  }
}

function search(text: string, quote: string, from: number): number {
  const i = text.indexOf(quote, from);
  return i < 0 ? text.length : i;
}

function backslashesBefore(text: string, i: number): number {
  let n = 0;
  while (i - n - 1 >= 0 && text.charCodeAt(i - n - 1) === 92) n++;
  return n;
}

/**
 * Offsets where documents start, then the text length: 0 (unless the text holds only a
 * prelude before its first `---`) and every `---` line. A prelude joins the next document,
 * as in `yaml`, where comments before `---` belong to the document it opens. `bare`: the
 * first document has no `---` of its own (then `yaml` may count the next `---` as its own).
 */
export function documentChunks(text: string): { starts: number[]; bare: boolean } {
  const starts: number[] = [];
  for (let i = text.startsWith('---') ? 0 : text.indexOf('\n---'); i !== -1;) {
    const at = i === 0 && text.startsWith('---') ? 0 : i + 1;
    const c = text.charCodeAt(at + 3);
    // isEmpty() of yaml's lexer: space, tab, CR, LF or the end of the text.
    if (Number.isNaN(c) || c === 32 || c === 9 || c === 13 || c === 10) starts.push(at);
    i = text.indexOf('\n---', at + 3);
  }
  const first = starts[0];
  if (first === undefined) return { starts: [0, text.length], bare: true };
  const bare = first > 0 && !isPrelude(text, first);
  if (bare) starts.unshift(0);
  else starts[0] = 0;
  starts.push(text.length);
  return { starts, bare };
}

/**
 * Whether text[0, end) holds no document, as yaml's lexer sees a stream's first lines: a BOM,
 * then lines of spaces and tabs, maybe ending in a comment (a CR only before a LF).
 */
function isPrelude(text: string, end: number): boolean {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < end) {
    let c = text.charCodeAt(i);
    while (c === 32 || c === 9) c = text.charCodeAt(++i);
    if (c === 35) {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? end : nl + 1;
      continue;
    }
    if (c === 13) c = text.charCodeAt(++i);
    if (c !== 10) return false;
    i++;
  }
  return true;
}
