/**
 * Scenario text → positioned documents, fast on large files.
 *
 * `yaml` builds a full AST at about 1 MB a second; a 10,000-Service scenario is 12 MB. So the
 * text is cut at its `---` lines (in `yaml`'s lexer a `---` at the start of a line ends
 * whatever came before it) and each document is read by the fast reader (yaml-fast.ts) when
 * it has the plain shape, else by `yaml` on just that slice, with the context that matters
 * (yaml-chunks.ts). The result — trees, offsets, messages, document numbers, line count — is
 * the one reading the whole text with `yaml` gives, which yaml-stream.test.ts checks.
 *
 * `%` directives and `...` markers carry state from one document to the next, so a text of
 * up to 1 MiB (the old size limit) that has them is read whole by `yaml`, as before. `yaml`
 * gets a budget per scenario: past it, a document that needs it is skipped with an error,
 * so a 60 MB file of odd YAML ends in seconds, not minutes.
 *
 * Documents are handed out as they are read, so each tree can be dropped once decoded.
 */
import { LineCounter } from 'yaml';
import { documentChunks, LastQuotes, readSlice } from './yaml-chunks';
import type { Declined } from './yaml-fast';
import { readSimpleDocument } from './yaml-fast';
import type { ParsedDoc, ParsedStream, ParseProblem } from './yaml-tree';
import { MAX_SYNTAX_ERRORS_PER_DOC, parseSlow, TOO_DEEP } from './yaml-tree';

/** Texts up to this size read exactly as before the fast reader (the old size limit). */
const EXACT_CHARS = 1 << 20;
/**
 * What `yaml` may read of a larger text: characters, plus a charge per slice for its cost per
 * document (about 500 characters' worth). About two seconds at most.
 */
export const FULL_READER_CHARS = 2 << 20;
const SLICE_CHARGE = 512;
/** Skipped documents reported one by one; the rest are counted in one message. */
const MAX_SKIP_REPORTS = 20;

/** Characters the fast reader leaves to `yaml`: tabs, controls, CR without LF, BOM, astral. */
const UNUSUAL = /[^\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]|\r(?!\n)/g;
/** State that crosses documents: directives, and `...` (after which a document may start bare). */
const CROSS_DOCUMENT = /^(?:%|\.\.\.(?:[ \t\r\n]|$))/m;

/** A document and the problems reading it raised. */
export interface StreamItem {
  readonly doc: ParsedDoc;
  readonly problems: readonly ParseProblem[];
}

/** All documents at once (at most `maxDocs` + 1, as `documents` gives them). */
export function parseStream(text: string, maxDocs = Infinity): ParsedStream {
  const stream = new DocumentStream(text);
  const docs: ParsedDoc[] = [];
  const problems: ParseProblem[] = [];
  for (const item of stream.documents(maxDocs)) {
    docs.push(item.doc);
    problems.push(...item.problems);
  }
  if (stream.fatal) return { docs: [], problems: stream.fatal, lines: stream.lines };
  return { docs, problems, lines: stream.lines };
}

export class DocumentStream {
  readonly lines = new LineCounter();
  /**
   * Set when `yaml` itself failed (deep nesting): then, as always, the whole scenario is
   * unreadable and this is its only problem; documents handed out before do not count.
   */
  fatal: ParseProblem[] | undefined;
  /** Read but not handed out: the next slice may still give the last one errors. */
  private pending: ParsedDoc[] = [];
  private problems: ParseProblem[] = [];
  private count = 0;
  /** Syntax errors of the last document read (see strayErrors). */
  private lastErrors = 0;
  /** Texts up to the old size limit are read exactly as before, however slowly: no budget. */
  private budget: number;
  private skipped = 0;
  private unusual = -1;

  constructor(private readonly text: string) {
    this.budget = text.length <= EXACT_CHARS ? Infinity : FULL_READER_CHARS;
  }

  /** Documents in order, with their problems; at most `maxDocs` + 1 of them. */
  *documents(maxDocs: number): Generator<StreamItem> {
    const { text } = this;
    if (text.length <= EXACT_CHARS && CROSS_DOCUMENT.test(text)) {
      const slow = parseSlow(text, 0, this.lines);
      if (slow.fatal) this.fatal = [...slow.problems];
      else yield* byDocument(slow.docs, slow.problems);
      return;
    }
    this.lines.addNewLine(0);
    const { starts: chunks, bare } = documentChunks(text);
    const quotes = new LastQuotes(text);
    for (let c = 0; c < chunks.length - 1 && this.count <= maxDocs; c++) {
      const from = chunks[c] ?? 0;
      let to = chunks[c + 1] ?? text.length;
      const fast = this.hasUnusual(from, to)
        ? { declined: 'a tab, a control or an unusual character', at: this.unusual }
        : readSimpleDocument(text, from, to);
      if (fast === null) this.addLines(from, to);
      else if (!('declined' in fast)) {
        this.add({ index: this.count, start: fast.start, root: fast.root }, 0);
        this.addLines(from, to);
      } else if (fast.limit?.message === TOO_DEEP) {
        // Nested past the limit: the error yaml-tree.ts gives, here, because `yaml` itself may
        // run out of stack on such a document, and then where it fails varies.
        this.add({ index: this.count, start: fast.limit.start, root: undefined }, 0);
        this.problems.push({
          doc: this.count - 1,
          offset: fast.limit.at,
          message: TOO_DEEP,
          severity: 'error',
        });
        this.addLines(from, to);
      } else {
        // A first document without `---` that yaml finds no content in (a stray `]`) takes
        // the next `---` line as its own: yaml reads it with the next chunk.
        if (c === 0 && bare && chunks.length > 2) to = chunks[++c + 1] ?? text.length;
        // A quote open near the end of the text runs to its end, past any `---`
        // (yaml-chunks): then the rest is read in one piece, when the budget allows.
        const rest =
          to < text.length &&
          quotes.open(text, from, to) &&
          text.length - from + SLICE_CHARGE <= this.budget;
        const outcome = this.readSlow(from, rest ? text.length : to);
        if (outcome === 'fatal') return;
        if (outcome === 'skipped') this.skip(from, to, fast);
        if (outcome === 'read' && rest) break;
      }
      yield* this.handOut(this.pending.length - 1);
    }
    if (this.skipped > MAX_SKIP_REPORTS) {
      this.problems.push({
        doc: this.count - 1,
        offset: -1,
        severity: 'error',
        message: `${this.skipped - MAX_SKIP_REPORTS} more documents not read for the same reason`,
      });
    }
    yield* this.handOut(this.pending.length);
  }

  private *handOut(n: number): Generator<StreamItem> {
    const docs = this.pending.splice(0, Math.max(n, 0));
    for (const doc of docs) {
      let k = 0;
      while (k < this.problems.length && (this.problems[k]?.doc ?? 0) <= doc.index) k++;
      yield { doc, problems: this.problems.splice(0, k) };
    }
  }

  private add(doc: ParsedDoc, syntaxErrors: number): void {
    this.pending.push(doc);
    this.count++;
    this.lastErrors = syntaxErrors;
  }

  /** Reads text[from, end) with `yaml`, within its budget. */
  private readSlow(from: number, end: number): 'read' | 'skipped' | 'fatal' {
    if (end - from + SLICE_CHARGE > this.budget) return 'skipped';
    this.budget -= end - from + SLICE_CHARGE;
    const slice = readSlice(this.text, from, end, this.count > 0);
    if (slice.fatal) {
      this.fatal = [...slice.problems];
      return 'fatal';
    }
    if (slice.stray.length > 0) this.strayErrors(slice.stray);
    const base = this.count;
    slice.docs.forEach((d, i) =>
      this.add({ ...d, index: base + d.index }, slice.syntaxErrors[i] ?? 0),
    );
    for (const p of slice.problems) this.problems.push({ ...p, doc: base + p.doc });
    for (const l of slice.lineStarts) this.lines.addNewLine(l);
    return 'read';
  }

  /**
   * Errors `yaml` gives the document before the one it reads (see readSlice): they join that
   * document's own (up to the usual five), and an erroneous document has no tree, no warnings.
   */
  private strayErrors(stray: readonly ParseProblem[]): void {
    const k = this.count - 1;
    const doc = this.pending[this.pending.length - 1];
    if (!doc || doc.index !== k) return;
    const own = this.lastErrors;
    if (own === 0) while (this.problems.at(-1)?.doc === k) this.problems.pop();
    const added = stray.slice(0, MAX_SYNTAX_ERRORS_PER_DOC - own);
    for (const p of added) this.problems.push({ ...p, doc: k });
    this.lastErrors = own + added.length;
    this.pending[this.pending.length - 1] = { ...doc, root: undefined };
  }

  /** A document `yaml` would have to read when its budget is spent. */
  private skip(from: number, to: number, why: Declined): void {
    const index = this.count;
    this.add({ index, start: why.limit?.start ?? from, root: undefined }, 1);
    this.addLines(from, to);
    if (++this.skipped > MAX_SKIP_REPORTS) return;
    this.problems.push({
      doc: index,
      offset: why.limit?.at ?? why.at,
      severity: 'error',
      message:
        why.limit?.message ??
        `document not read: it has ${why.declined}, and in a scenario over ${EXACT_CHARS >> 20} MiB the lab reads such documents only up to about ${FULL_READER_CHARS >> 20} MiB of them`,
    });
  }

  /** Whether text[from, to) holds a character the fast reader leaves alone (one scan). */
  private hasUnusual(from: number, to: number): boolean {
    if (this.unusual < from) {
      UNUSUAL.lastIndex = from;
      this.unusual = UNUSUAL.exec(this.text)?.index ?? this.text.length;
    }
    return this.unusual < to;
  }

  /** Line starts of a document read by the fast reader: after each of its newlines. */
  private addLines(from: number, to: number): void {
    const { text, lines } = this;
    for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1))
      lines.addNewLine(i + 1);
  }
}

function byDocument(docs: readonly ParsedDoc[], problems: readonly ParseProblem[]): StreamItem[] {
  const of = new Map<number, ParseProblem[]>();
  for (const p of problems) of.set(p.doc, [...(of.get(p.doc) ?? []), p]);
  return docs.map((doc) => ({ doc, problems: of.get(doc.index) ?? [] }));
}
