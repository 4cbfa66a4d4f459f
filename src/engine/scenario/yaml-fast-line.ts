/**
 * The fast reader's pieces that sit on one line — plain and quoted scalars, keys, flow
 * collections — and the counting against yaml-tree.ts's limits. yaml-fast.ts reads lines and
 * block structure on top of them. A piece outside the plain shape throws Decline.
 */
import type { YEntry, YNode, YScalarValue } from './yaml-tree';
import { MAX_DEPTH, MAX_NODES_PER_DOC, TOO_DEEP, TOO_LARGE } from './yaml-tree';
import { keyString, plainValue, UNRESOLVED } from './yaml-scalar';

/** `yaml` refuses implicit keys longer than 1024 characters; stay well inside. */
const MAX_KEY = 1000;
/** Maps up to this size look for a repeated key by scanning; larger ones use a set. */
const SCAN_KEYS = 16;

// Character codes.
export const TAB = 9;
export const NL = 10;
export const CR = 13;
export const SP = 32;
export const DQ = 34; // "
export const HASH = 35;
export const SQ = 39; // '
export const COMMA = 44;
export const DASH = 45;
export const DOT = 46;
export const COLON = 58;
export const GT = 62;
export const LBRACKET = 91;
export const BACKSLASH = 92;
export const RBRACKET = 93;
export const LBRACE = 123;
export const PIPE = 124;
export const RBRACE = 125;

/** Thrown to leave a document to `yaml`: why, where, and a limit of the tree it breaks. */
export class Decline {
  constructor(
    readonly reason: string,
    readonly at: number,
    readonly limitAt = -1,
    readonly limit = '',
  ) {}
}

/** The state and single-line reading shared with yaml-fast.ts's Reader. */
export abstract class LineReader {
  protected nodes = 0;
  /** The last scalar read: its text as a key, its value, and where it ended. */
  protected text_ = '';
  protected value_: YScalarValue = null;
  protected end_ = 0;
  /** Where the Converter would point a limit error about the next node (see count). */
  protected fallback = 0;

  constructor(
    protected readonly text: string,
    protected readonly end: number,
  ) {}

  protected code(i: number): number {
    return i < this.end ? this.text.charCodeAt(i) : NL;
  }

  /** Line end at i: a newline, CR (always before LF here), or the end of the document. */
  protected eol(i: number): boolean {
    const c = this.code(i);
    return c === NL || c === CR;
  }

  protected spaces(i: number): number {
    // charCodeAt inline rather than code(): this runs for every indented line, and on a cold
    // start (a one-shot CLI run) the calls cost more than the loop while the JIT warms up.
    const { text, end } = this;
    while (i < end && text.charCodeAt(i) === SP) i++;
    return i;
  }

  /**
   * Counts a node against the limits of yaml-tree.ts's Converter, which visits nodes in the
   * same order and points a limit error at the parent's `fallback` (set before descending).
   */
  protected count(depth: number, at: number): void {
    if (++this.nodes > MAX_NODES_PER_DOC)
      throw new Decline('too many values', at, this.fallback, TOO_LARGE);
    if (depth > MAX_DEPTH) throw new Decline('deep nesting', at, this.fallback, TOO_DEEP);
  }

  /**
   * Declines a key already in the map. `yaml` compares key values (`1` and `"1"` differ), the
   * tree their text: a repeated text may or may not be an error, so the full reader decides.
   */
  protected unique(
    entries: readonly YEntry[],
    keys: Set<string> | undefined,
    key: string,
    at: number,
  ): Set<string> | undefined {
    if (keys) {
      if (keys.has(key)) throw new Decline('a repeated key', at);
      keys.add(key);
      return keys;
    }
    for (const e of entries) if (e.key === key) throw new Decline('a repeated key', at);
    return entries.length < SCAN_KEYS ? undefined : new Set([...entries.map((e) => e.key), key]);
  }

  /** `'…'` or `"…"` closed on the same line, double quotes without escapes: its end. */
  protected quoted(p: number): number {
    const { text, end } = this;
    const q = this.code(p);
    let i = p + 1;
    let doubled = false;
    for (;;) {
      const c = i < end ? text.charCodeAt(i) : NL;
      if (c === NL || c === CR || (q === DQ && c === BACKSLASH))
        throw new Decline('a multi-line or escaped string', p);
      if (c === q) {
        if (q !== SQ || i + 1 >= end || text.charCodeAt(i + 1) !== SQ) break;
        doubled = true;
        i++;
      }
      i++;
    }
    const raw = text.slice(p + 1, i);
    this.text_ = doubled ? raw.replaceAll("''", "'") : raw;
    this.value_ = this.text_;
    return i + 1;
  }

  /** Whether a key starts at p (plain or quoted, then `:` and a space or the line end). */
  protected key(p: number): boolean {
    const c = this.code(p);
    let endKey: number;
    if (c === DQ || c === SQ) {
      endKey = this.quoted(p);
      if (this.code(endKey) !== COLON) return false;
    } else {
      const { text: all, end } = this;
      if (!plainStart(all, p, end)) return false;
      // The key ends at the line's first `:` before a space or the line end. Searched with
      // indexOf in the line (a CR can only end it here): a one-shot CLI run reads most of a
      // scenario before the JIT has compiled a character loop.
      let eol = all.indexOf('\n', p);
      if (eol < 0 || eol > end) eol = end;
      const line = all.slice(p, eol);
      let k = line.indexOf(':');
      while (k >= 0 && !lineGap(all, p + k + 1, end)) k = line.indexOf(':', k + 1);
      if (k < 0) return false;
      const text = line.slice(0, k);
      // A comment before the `:` (`#` after a space): the line holds no key.
      if (text.includes(' #')) return false;
      const i = p + k;
      endKey = i;
      const value = plainValue(text);
      if (KEY_UNSAFE.test(text) || text === '<<' || this.code(i - 1) === SP || value === UNRESOLVED)
        throw new Decline('an unusual key', p);
      this.value_ = value;
      this.text_ = typeof value === 'string' ? value : keyString(value);
    }
    if (!(this.code(endKey + 1) === SP || this.eol(endKey + 1))) return false;
    if (endKey - p > MAX_KEY) throw new Decline('a very long key', p);
    this.end_ = endKey;
    return true;
  }

  /** `[…]` or `{…}` on one line, starting at p; this.end_ is after its closing bracket. */
  protected flow(p: number, depth: number): YNode {
    this.count(depth, p);
    const isMap = this.code(p) === LBRACE;
    const close = isMap ? RBRACE : RBRACKET;
    const items: YNode[] = [];
    const entries: YEntry[] = [];
    let keys: Set<string> | undefined;
    let i = this.spaces(p + 1);
    if (this.code(i) !== close) {
      for (;;) {
        if (isMap) {
          const keyStart = i;
          i = this.flowScalar(i, true);
          const key = this.text_;
          keys = this.unique(entries, keys, key, keyStart);
          if (this.code(i) !== COLON || this.code(i + 1) !== SP)
            throw new Decline('an unusual flow mapping', i);
          this.fallback = keyStart;
          const value = this.flowItem(this.spaces(i + 1), depth + 1);
          entries.push({ key, keyStart, value });
        } else {
          this.fallback = p;
          items.push(this.flowItem(i, depth + 1));
        }
        i = this.spaces(this.end_);
        const c = this.code(i);
        if (c === close) break;
        if (c !== COMMA) throw new Decline('an unusual flow collection', i);
        i = this.spaces(i + 1);
        if (this.code(i) === close) throw new Decline('a trailing comma', i);
      }
    }
    this.end_ = i + 1;
    return isMap ? { kind: 'map', start: p, entries } : { kind: 'seq', start: p, items };
  }

  /** An item of a flow collection; this.end_ is where it ends. */
  protected flowItem(p: number, depth: number): YNode {
    const c = this.code(p);
    if (c === LBRACKET || c === LBRACE) return this.flow(p, depth);
    this.count(depth, p);
    this.end_ = this.flowScalar(p, false);
    return { kind: 'scalar', start: p, value: this.value_ };
  }

  /** A scalar inside a flow collection (quoted, or plain up to `,` `]` `}` or `: `): its end. */
  protected flowScalar(p: number, isKey: boolean): number {
    const c = this.code(p);
    if (c === DQ || c === SQ) return this.quoted(p);
    const { text, end } = this;
    if (!plainStart(text, p, end)) throw new Decline('an unusual flow value', p);
    let i = p;
    let last = p;
    for (; ; i++) {
      const ch = i < end ? text.charCodeAt(i) : NL;
      if (ch === COMMA || ch === RBRACKET || ch === RBRACE) break;
      if (ch === COLON && isKey && i + 1 < end && text.charCodeAt(i + 1) === SP) break;
      if (ch === NL || ch === CR || (ch < 128 && FLOW_UNSAFE[ch] === 1))
        throw new Decline('an unusual flow value', i);
      if (ch !== SP) last = i + 1;
    }
    const raw = text.slice(p, last);
    const value = plainValue(raw);
    if ((isKey && raw === '<<') || value === UNRESOLVED) throw new Decline('an unusual value', p);
    this.value_ = value;
    this.text_ = typeof value === 'string' ? value : keyString(value);
    return last;
  }
}

/** A space or a line end at i: what makes a `:` a key indicator. */
export function lineGap(text: string, i: number, end: number): boolean {
  if (i >= end) return true;
  const c = text.charCodeAt(i);
  return c === SP || c === NL || c === CR;
}

/** What a value starting with one of these has, for messages. */
export const UNUSUAL_START: Readonly<Record<number, string>> = {
  [PIPE]: 'an unusual block scalar (|)',
  [GT]: 'an unusual block scalar (>)',
  [38]: 'an anchor (&)',
  [42]: 'an alias (*)',
  [33]: 'a tag (!)',
};

/** ASCII lookup tables, 1 for the characters listed. */
function table(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (const ch of chars) t[ch.charCodeAt(0)] = 1;
  return t;
}
/** Characters a plain key of the fast shape never holds (flow indicators, quotes, comments). */
const KEY_UNSAFE = /[,[\]{}#"']/;
/** Inside flow collections, plain scalars also keep clear of `:` and `#`. */
const FLOW_UNSAFE = table('[]{}#:"\'');
/** Safe first characters of a plain scalar besides letters, digits and non-ASCII. */
const SAFE_START = table('_./~+($^=;<\\');

/**
 * A plain scalar may start here: a letter, digit, or one of a few safe characters — never a
 * YAML indicator (`- ? : , [ ] { } # & * ! | > ' " % @ \``), except `-` before a non-space.
 */
export function plainStart(text: string, p: number, end: number): boolean {
  if (p >= end) return false;
  const c = text.charCodeAt(p);
  if (c === DASH) {
    const n = p + 1 < end ? text.charCodeAt(p + 1) : NL;
    return n !== SP && n !== NL && n !== CR && n !== COMMA && n !== RBRACKET && n !== RBRACE;
  }
  if (c >= 0xa0) return true;
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || SAFE_START[c] === 1
  );
}
