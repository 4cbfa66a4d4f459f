/**
 * awk's values as mawk 1.3.4 keeps them: numbers, strings, and "strnums" (fields, split's
 * pieces, getline's and -v's text, and the value of a variable never set) that compare as
 * numbers when both sides look numeric and as strings otherwise. Numbers become text through
 * CONVFMT (concatenation, array subscripts) or OFMT (print), both "%.6g" unless set.
 */
import { general } from './awk-format';

/** Text that may also be a number; `unset` marks a variable (or element) never assigned. */
export class StrNum {
  constructor(
    readonly s: string,
    readonly unset = false,
  ) {}
}

export type Value = number | string | StrNum;

export const UNSET = new StrNum('', true);

const NUMERIC = /^[ \t\n\f\r\v]*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?[ \t\n\f\r\v]*$/;
const PREFIX = /^[ \t\n\v\f\r]*([-+]?)(0[xX][0-9A-Fa-f]+|inf(?:inity)?|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/i; // prettier-ignore

/** strtod(): the number at the start of the text, 0 when there is none. */
export function toNumber(v: Value): number {
  if (typeof v === 'number') return v;
  const m = PREFIX.exec(typeof v === 'string' ? v : v.s);
  if (m === null) return 0;
  const body = m[2]!.toLowerCase();
  const n = body.startsWith('0x') ? parseInt(body, 16) : body.startsWith('inf') ? Infinity : body === 'nan' ? NaN : Number(body); // prettier-ignore
  return m[1] === '-' ? -n : n;
}

const MAX_INT = 2147483647;

/**
 * A number as text through a format such as CONVFMT: mawk prints a whole number that fits
 * in an int as an integer ("%d"), any other through the format (`sprintf` in awk-printf.ts).
 */
export function numberToText(
  x: number,
  format: string,
  sprintf: (f: string, v: number) => string,
): string {
  if (Number.isInteger(x) && x >= -MAX_INT && x <= MAX_INT) return String(x === 0 ? 0 : x);
  return format === '%.6g' ? general(x, 6) : sprintf(format, x);
}

export function isNumericText(s: string): boolean {
  return NUMERIC.test(s);
}

export const looksNumeric = (v: Value): boolean =>
  typeof v === 'number' || (v instanceof StrNum && (v.unset || NUMERIC.test(v.s)));

/** C's d_to_I: a double as mawk's Int, truncated and clamped. */
export function toInt(d: number): number {
  if (Number.isNaN(d)) return 0;
  if (d >= MAX_INT) return MAX_INT;
  if (d > -MAX_INT) return Math.trunc(d);
  return -MAX_INT;
}
