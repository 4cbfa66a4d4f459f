/**
 * The fast reader: one document in the plain shape nearly every manifest has — block maps and
 * sequences, single-line plain or quoted scalars, plain `|`/`>` blocks, single-line flow
 * collections, comments — read straight into the positioned tree, many times faster than
 * `yaml` builds its AST (yaml-fast-line.ts reads the pieces that sit on one line).
 *
 * It returns exactly what the full reader (yaml-tree.ts) returns for such a document, offsets
 * included, or declines: anything outside that shape (anchors, tags, multi-line or escaped
 * scalars, unusual block scalars, merge keys, repeated keys, odd indentation, limits…) is left
 * to the full reader, which also words every error. Declining is always safe; accepting is
 * only done where the result is known to match (yaml-stream.test.ts compares them).
 */
import type { YEntry, YNode } from './yaml-tree';
import { plainValue, UNRESOLVED } from './yaml-scalar';
import {
  COLON,
  CR,
  DASH,
  Decline,
  DOT,
  DQ,
  GT,
  HASH,
  LBRACE,
  LBRACKET,
  lineGap,
  LineReader,
  NL,
  PIPE,
  plainStart,
  SP,
  SQ,
  TAB,
  UNUSUAL_START,
} from './yaml-fast-line';

export interface Declined {
  /** What the document has that the fast reader leaves to `yaml` ("a tab"…). */
  readonly declined: string;
  readonly at: number;
  /**
   * A limit of yaml-tree.ts the document breaks: its error, placed as the Converter does, and
   * where the document's content starts.
   */
  readonly limit?: { readonly message: string; readonly at: number; readonly start: number };
}

/** A document read: its tree (none when empty) and where it starts, as yaml-tree.ts has it. */
export interface SimpleDocument {
  readonly root: YNode | undefined;
  readonly start: number;
}

/**
 * Reads the document in text[from, to): a `---` line may start it, after comment lines; null
 * when there is neither (only comments: no document). The slice must hold no character
 * yaml-stream.ts calls unusual (tabs, a CR not before a LF…).
 */
export function readSimpleDocument(
  text: string,
  from: number,
  to: number,
): SimpleDocument | Declined | null {
  const reader = new Reader(text, to);
  try {
    return reader.document(from);
  } catch (err) {
    if (!(err instanceof Decline)) throw err;
    const start = reader.rootStart;
    const limit = err.limit ? { limit: { message: err.limit, at: err.limitAt, start } } : {};
    return { declined: err.reason, at: err.at, ...limit };
  }
}

class Reader extends LineReader {
  /** Position of the current content line's first non-space character (end at the end). */
  private pos = 0;
  private lineStart = 0;
  /** Column of the current content line, -1 at the end of the document. */
  private col = -1;
  /** Where an empty document would start: after its `---` (-1: no `---`). */
  private emptyAt = -1;
  /** Where the document's content starts, once found. */
  rootStart = -1;

  document(from: number): SimpleDocument | null {
    this.scanFrom(from, true);
    if (this.col < 0) {
      // `---` and nothing else: yaml's empty document starts after the marker's spaces.
      return this.emptyAt < 0 ? null : { root: undefined, start: this.emptyAt };
    }
    this.rootStart = this.pos;
    const root = this.block(this.col, 0);
    if (this.col >= 0) throw new Decline('text after the document', this.pos);
    return { root, start: root.start };
  }

  /** After a value: spaces, then the line end or a comment; moves to the next content line. */
  private endLine(i: number): void {
    const j = this.spaces(i);
    if (!this.eol(j) && !(this.code(j) === HASH && j > i))
      throw new Decline('more text after a value', j);
    this.nextLine(j);
  }

  /** Moves to the first content line after the line holding i. */
  private nextLine(i: number): void {
    const nl = i < this.end ? this.text.indexOf('\n', i) : -1;
    this.scanFrom(nl < 0 || nl >= this.end ? this.end : nl + 1, false);
  }

  /** Skips blank and comment lines from the line starting at `line` (and `---` at the start). */
  private scanFrom(line: number, atStart: boolean): void {
    const { text, end } = this;
    let nl: number;
    while (line < end) {
      let p = line;
      while (p < end && text.charCodeAt(p) === SP) p++;
      const c = p < end ? text.charCodeAt(p) : NL;
      if (p === line && (c === DASH || c === DOT) && this.marker(line, c)) {
        // `---` opens the document (once, before content); `...` ends it: the full reader.
        if (!atStart || c !== DASH) throw new Decline('a document marker', line);
        this.emptyAt = this.spaces(line + 3);
        this.endLine(line + 3); // the rest of the document, where a second `---` is declined
        return;
      }
      if (c !== HASH && c !== NL && c !== CR) {
        this.pos = p;
        this.lineStart = line;
        this.col = p - line;
        return;
      }
      nl = text.indexOf('\n', p);
      line = nl < 0 || nl >= end ? end : nl + 1;
    }
    this.pos = end;
    this.lineStart = end;
    this.col = -1;
  }

  /** `---` or `...` then a space, tab or line end (isEmpty in yaml's lexer). */
  private marker(line: number, c: number): boolean {
    if (this.code(line + 1) !== c || this.code(line + 2) !== c) return false;
    const n = this.code(line + 3);
    return n === SP || n === NL || n === CR || n === TAB;
  }

  private dash(p: number): boolean {
    const { text, end } = this;
    if (p >= end || text.charCodeAt(p) !== DASH) return false;
    const n = p + 1 < end ? text.charCodeAt(p + 1) : NL;
    return n === SP || n === NL || n === CR;
  }

  /** A block collection whose first line is the current one, at column `indent`. */
  private block(indent: number, depth: number): YNode {
    return this.dash(this.pos) ? this.seq(indent, depth) : this.map(indent, depth);
  }

  private seq(indent: number, depth: number): YNode {
    this.count(depth, this.pos);
    const start = this.pos;
    const items: YNode[] = [];
    while (this.col === indent && this.dash(this.pos)) {
      this.fallback = start;
      items.push(this.value(this.spaces(this.pos + 1), indent, depth + 1, true));
    }
    return { kind: 'seq', start, items };
  }

  private map(indent: number, depth: number): YNode {
    this.count(depth, this.pos);
    const start = this.pos;
    const entries: YEntry[] = [];
    let keys: Set<string> | undefined;
    while (this.col === indent) {
      const keyStart = this.pos;
      if (!this.key(keyStart))
        throw new Decline('a line that is neither a key nor a list item', keyStart);
      const key = this.text_;
      keys = this.unique(entries, keys, key, keyStart);
      this.fallback = keyStart;
      const value = this.value(this.spaces(this.end_ + 1), indent, depth + 1, false);
      entries.push({ key, keyStart, value });
    }
    if (this.col > indent) throw new Decline('unexpected indentation', this.pos);
    return { kind: 'map', start, entries };
  }

  /**
   * The value after `key: ` or `- ` (p: its first character): on the same line, on the lines
   * below, or empty. Leaves the reader on the next content line.
   */
  private value(p: number, indent: number, depth: number, inSeq: boolean): YNode {
    if (this.code(p) === HASH || this.eol(p)) {
      this.nextLine(p);
      if (this.col > indent) return this.block(this.col, depth);
      if (!inSeq && this.col === indent && this.dash(this.pos)) return this.seq(indent, depth);
      // yaml puts an empty value after the indicator and the spaces that follow it.
      this.count(depth, p);
      return { kind: 'scalar', start: p, value: null };
    }
    if (inSeq && !this.dash(p) && this.key(p)) {
      // `- name: x`: a map whose keys line up with `name`.
      this.pos = p;
      this.col = p - this.lineStart;
      return this.map(this.col, depth);
    }
    const c = this.code(p);
    const node =
      c === PIPE || c === GT ? this.blockScalar(p, indent, depth) : this.inline(p, depth);
    if (this.col > indent || (!inSeq && this.col === indent && this.dash(this.pos)))
      throw new Decline('unexpected indentation', this.pos);
    return node;
  }

  /**
   * `|` or `>` (with `-` for strip) ending its line, then lines indented past `indent`: the
   * common literal and folded blocks. yaml-tree.ts gives them as strings. Declined: keep
   * chomping (`+`), indentation indicators, header comments, blank lines before the text or
   * with spaces, CR LF, and for `>` any blank or more-indented line (folding subtleties).
   */
  private blockScalar(p: number, indent: number, depth: number): YNode {
    const { text, end } = this;
    this.count(depth, p);
    const folded = this.code(p) === GT;
    const strip = this.code(p + 1) === DASH;
    let line = p + (strip ? 2 : 1);
    if (line >= end || text.charCodeAt(line) !== NL)
      throw new Decline('an unusual block scalar', p);
    line++;
    const parts: string[] = [];
    let margin = -1;
    let blank = 0;
    while (line < end) {
      let i = line;
      while (i < end && text.charCodeAt(i) === SP) i++;
      const c = i < end ? text.charCodeAt(i) : NL;
      if (c === NL && i === line && margin >= 0) {
        blank++;
        line = i + 1;
        continue;
      }
      if (c === NL || c === CR) throw new Decline('an unusual block scalar', line);
      if (margin < 0) {
        if (i - line <= indent) break;
        margin = i - line;
      } else if (i - line < margin) break;
      if (folded && (blank > 0 || i - line > margin))
        throw new Decline('an unusual block scalar', i);
      const nl = text.indexOf('\n', i);
      const lineEnd = nl < 0 || nl >= end ? end : nl;
      if (text.charCodeAt(lineEnd - 1) === CR) throw new Decline('an unusual block scalar', i);
      for (; blank > 0; blank--) parts.push('');
      parts.push(text.slice(line + margin, lineEnd));
      line = lineEnd + 1;
    }
    if (margin < 0) throw new Decline('an empty block scalar', p);
    this.scanFrom(Math.min(line, end), false);
    const value = parts.join(folded ? ' ' : '\n') + (strip ? '' : '\n');
    return { kind: 'scalar', start: p, value };
  }

  /** A scalar or flow collection that ends its line. */
  private inline(p: number, depth: number): YNode {
    const c = this.code(p);
    if (c === LBRACKET || c === LBRACE) {
      const node = this.flow(p, depth);
      this.endLine(this.end_);
      return node;
    }
    this.count(depth, p);
    if (c === DQ || c === SQ) {
      this.endLine(this.quoted(p));
      return { kind: 'scalar', start: p, value: this.text_ };
    }
    const { text, end } = this;
    if (!plainStart(text, p, end)) throw new Decline(UNUSUAL_START[c] ?? 'an unusual value', p);
    let i = p;
    let last = p;
    for (
      let ch = text.charCodeAt(i);
      i < end && ch !== NL && ch !== CR;
      ch = text.charCodeAt(++i)
    ) {
      if (ch === SP) continue;
      if (ch === HASH && text.charCodeAt(i - 1) === SP) break;
      if (ch === COLON && lineGap(text, i + 1, end)) throw new Decline('a key inside a value', i);
      last = i + 1;
    }
    const value = plainValue(text.slice(p, last));
    if (value === UNRESOLVED) throw new Decline('an unusual value', p);
    this.nextLine(i);
    return { kind: 'scalar', start: p, value };
  }
}
