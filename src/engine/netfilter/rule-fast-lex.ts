/**
 * Reading the words of a restore rule line in place (offsets, not cut-out strings) and the
 * numbers and addresses in them, for the fast path (rule-fast.ts): each reader accepts only
 * the canonical form the general parser accepts too, and says -1 / undefined otherwise.
 */
import { ipFromInt, ipToInt } from '../model/ip';
import type { AddrSpec } from './types';

const SPACE = 0x20;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const TAB = 0x09;

/** The value of one canonical octet (what ipIsValid() accepts: no leading zero), else -1. */
function octet(s: string, from: number, to: number): number {
  const n = to - from;
  if (n < 1 || n > 3) return -1;
  let v = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  if (n > 1 && s.charCodeAt(from) === 0x30) return -1;
  return v <= 255 ? v : -1;
}

/** A canonical dotted quad → its value, or -1. */
export function quad(s: string, from: number, to: number): number {
  let v = 0;
  let start = from;
  for (let k = 0; k < 4; k++) {
    let end = start;
    while (end < to && s.charCodeAt(end) !== 0x2e) end++;
    if (k < 3 !== end < to) return -1;
    const o = octet(s, start, end);
    if (o < 0) return -1;
    v = v * 256 + o;
    start = end + 1;
  }
  return v;
}

/** `-s`/`-d` as parseRuleAddr(): `a.b.c.d[/len]` (a netmask form goes the general way). */
export function addr(text: string, invert: boolean): AddrSpec | undefined {
  const slash = text.indexOf('/');
  const end = slash < 0 ? text.length : slash;
  const v = quad(text, 0, end);
  if (v < 0) return undefined;
  let prefix = 32;
  if (slash >= 0) {
    const p = octet(text, slash + 1, text.length);
    if (p < 0 || p > 32) return undefined;
    prefix = p;
  }
  const a = text.slice(0, end);
  if (prefix === 32) return { addr: a, prefix, invert };
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const masked = (v & mask) >>> 0;
  return { addr: masked === ipToInt(a) ? a : ipFromInt(masked), prefix, invert };
}

/** A decimal port as strtoui() reads it (no leading zero, which would be octal), or -1. */
export function port(s: string, from: number, to: number): number {
  const n = to - from;
  if (n < 1 || n > 5) return -1;
  if (n > 1 && s.charCodeAt(from) === 0x30) return -1;
  let v = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v <= 65535 ? v : -1;
}

/**
 * The words of a line as tokenizeRestoreLine() splits it, as [start, end) offsets into the
 * line (so that the option names are compared in place, not cut out), when the quoting is
 * simple (a quoted word without backslashes, followed by a blank); else undefined.
 */
export function words(line: string, out: number[]): boolean {
  out.length = 0;
  const n = line.length;
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (c === SPACE || c === NEWLINE) {
      i++;
      continue;
    }
    if (c === QUOTE) {
      const close = line.indexOf('"', i + 1);
      if (close < 0) return false;
      const slash = line.indexOf('\\', i + 1);
      if (slash >= 0 && slash < close) return false;
      const after = close + 1 < n ? line.charCodeAt(close + 1) : SPACE;
      if (after !== SPACE && after !== NEWLINE) return false;
      out.push(i + 1, close);
      i = close + 1;
      continue;
    }
    const start = i;
    while (i < n) {
      const d = line.charCodeAt(i);
      if (d === SPACE || d === NEWLINE) break;
      if (d === QUOTE || d === TAB || d === BACKSLASH) return false;
      i++;
    }
    out.push(start, i);
  }
  return true;
}

/** Word offsets, reused from line to line (the parse is synchronous). */
export const WORDS: number[] = [];

/** Whether the word [s, e) of `line` is `lit`. */
export function is(line: string, s: number, e: number, lit: string): boolean {
  return e - s === lit.length && line.startsWith(lit, s);
}
