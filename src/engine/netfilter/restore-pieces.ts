/**
 * Restore input handed over as the pieces it is joined from, so that a large block of lines
 * a writer keeps from one restore to the next (kube-proxy's KUBE-SERVICES rules, re-sent in
 * full by every partial sync) is recognised without reading it line by line again.
 *
 * The bytes are those of `joinPieces(pieces)` and iptables-restore reads them exactly as it
 * reads that string (restore.ts): pieces only say where lines came from. A `TextRange` names
 * lines [start, end) of a text the writer holds on to; for each such text a `TextMemo` keeps
 * the offset of every line and the cached parse (LineEntry) a line got when it was read, so a
 * later range of an equal text takes each line's parse by its index. A parse is a pure
 * function of the line's text (parse-cache.ts) and a memo is found by the text's content
 * (a Map compares strings by value: the same string object costs a pointer comparison), so
 * the answer is the one reading the line would give.
 */
import type { LineEntry } from './parse-cache';
import type { ParsedArgs } from './rule-parse';

/** Lines [start, end) of `text`: `start` is 0 or follows a `\n`, and `end` follows one. */
export interface TextRange {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /**
   * Per line of the whole text, the parse its writer built (PrebuiltLine), if any. Lines of a
   * kept text are cached when first read, their parses shared and never changed: these may
   * be handed over again.
   */
  readonly parses?: readonly (PrebuiltLine | undefined)[];
}

/**
 * What a writer says one of its lines is, as restore would read it: a rule line's parse (in
 * the table the parse names), or the name of the user chain a `:CHAIN - [0:0]` line declares.
 */
export type PrebuiltLine = ParsedArgs | string;

/**
 * Lines a writer built the parses of as it wrote them (kube-proxy's endpoint chains and
 * rules): `text` (`\n`-terminated lines) and, per line, what it is (or undefined: read it).
 * restore takes them instead of reading those lines again, and only once: a parse taken may
 * become a rule of a table (its counters replaced, see commitSection()), so a later restore
 * of the same lines reads them as text. Writers vouch that each equals what reading its line
 * gives (kube-proxy/iptables prebuilt-rules.test.ts); user input never comes this way.
 */
export class PrebuiltLines {
  private parses: readonly (PrebuiltLine | undefined)[] | undefined;

  /** `parses` has one entry per line of `text`, which has `lines` lines (else none is used). */
  constructor(
    readonly text: string,
    parses: readonly (PrebuiltLine | undefined)[],
    lines: number,
  ) {
    this.parses = parses.length === lines ? parses : undefined;
  }

  /** The parses, the first time they are asked for; undefined from then on. */
  take(): readonly (PrebuiltLine | undefined)[] | undefined {
    const p = this.parses;
    this.parses = undefined;
    return p;
  }
}

export type RestorePiece = string | TextRange | PrebuiltLines;

export interface RestorePieces {
  readonly pieces: readonly RestorePiece[];
}

/** The restore input the pieces stand for. */
export function joinPieces(pieces: readonly RestorePiece[]): string {
  const parts: string[] = [];
  for (const p of pieces) parts.push(typeof p === 'string' ? p : pieceText(p));
  return parts.join('');
}

function pieceText(p: TextRange | PrebuiltLines): string {
  return p instanceof PrebuiltLines ? p.text : p.text.slice(p.start, p.end);
}

/**
 * Whether reading the pieces one after the other reads the lines of their join: every piece
 * but the last ends a line, and every range starts one and stays inside its text.
 */
export function piecesAreLines(pieces: readonly RestorePiece[]): boolean {
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i] as RestorePiece;
    const whole = typeof p === 'string' || p instanceof PrebuiltLines;
    const text = typeof p === 'string' ? p : p.text;
    const start = whole ? 0 : p.start;
    const end = whole ? text.length : p.end;
    if (start < 0 || end > text.length || start > end) return false;
    if (start > 0 && text.charCodeAt(start - 1) !== 0x0a) return false;
    if (i < pieces.length - 1 && end > start && text.charCodeAt(end - 1) !== 0x0a) return false;
  }
  return true;
}

/** The lines of one text: where each starts, and the cached parse each got when read. */
export class TextMemo {
  /** Offsets of the lines' starts, then text.length. */
  readonly starts: number[] = [];
  /** Per line: its cache entry, when the line was read as a rule line that has one. */
  readonly entries: (LineEntry | undefined)[];

  constructor(text: string) {
    for (let at = 0; at < text.length;) {
      this.starts.push(at);
      const nl = text.indexOf('\n', at);
      at = nl < 0 ? text.length : nl + 1;
    }
    this.entries = new Array<LineEntry | undefined>(this.starts.length).fill(undefined);
    this.starts.push(text.length);
  }

  /** The index of the line starting at `offset` (or of the end), -1 when none does. */
  lineAt(offset: number): number {
    const s = this.starts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = s[mid] as number;
      if (v === offset) return mid;
      if (v < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

/** Texts remembered per cache: a writer's block of lines, and a few it had before. */
const MEMO_TEXTS = 8;

/**
 * Memos by text (compared by value), the least recently used dropped beyond MEMO_TEXTS.
 *
 * A writer hands the same text object in range after range (a full sync: one range per
 * Service), and another object of the same content after it joined its lines again. Strings
 * compare by content unless they are the same object, and a Map compares a long key (whose
 * hash is only its length) with each key of that length: 10,000 comparisons of 1 MB texts
 * took seconds. So the text found last is kept and compared first, and a memo found by
 * content is keyed by the object just seen from then on.
 */
export class TextMemos {
  private readonly byText = new Map<string, TextMemo>();
  private last: { text: string; memo: TextMemo } | undefined;

  of(text: string): TextMemo {
    const last = this.last;
    if (last !== undefined && last.text === text) {
      last.text = text;
      return last.memo;
    }
    let m = this.byText.get(text);
    if (m !== undefined) this.byText.delete(text);
    else {
      m = new TextMemo(text);
      if (this.byText.size >= MEMO_TEXTS) {
        const oldest = this.byText.keys().next();
        if (oldest.done !== true) this.byText.delete(oldest.value);
      }
    }
    this.byText.set(text, m);
    this.last = { text, memo: m };
    return m;
  }
}
