/**
 * How the client tools read a number on their command line, so that a bad one gets the tool's
 * own complaint (checked against the real tools of Debian bookworm: curl 7.88.1, BIND 9.18 dig,
 * netcat-openbsd 1.219; tests/kernel/client-args.test.ts runs them side by side):
 *
 * - curl's str2udouble(): C strtod() must take the whole text (leading blanks, a sign, decimal
 *   or hex digits, an exponent, `inf`, `nan` all pass), ERANGE or more than LONG_MAX / 1000 is
 *   "too large", below zero "not positive";
 * - OpenBSD strtonum(), which nc uses for -w: strtoll() in base 10 must take the whole text;
 * - BIND's isc_parse_uint32() under dig's parse_uint(): decimal digits only, then the maximum.
 */

/** C isspace() in the C locale. */
const C_SPACE = '[ \\t\\n\\v\\f\\r]*';

/** The texts strtod() reads to their end, in the C locale (glibc). */
const STRTOD_WHOLE = new RegExp(
  `^${C_SPACE}([+-]?)(?:` +
    '((?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)' +
    '|0[xX]((?:[0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+))(?:[pP]([+-]?\\d+))?' +
    '|(inf(?:inity)?)' +
    '|(nan(?:\\([0-9A-Za-z_]*\\))?)' +
    ')$',
  'i',
);

/** DBL_MIN: a result below it (a subnormal, or 0 from digits that are not) is ERANGE in glibc. */
const DBL_MIN = 2.2250738585072014e-308;

export type StrtodWhole =
  { readonly ok: true; readonly value: number; readonly erange: boolean } | { readonly ok: false };

/** strtod(text) when it reads the whole text; `erange`: it set errno to ERANGE. */
export function strtodWhole(text: string): StrtodWhole {
  const m = STRTOD_WHOLE.exec(text);
  if (m === null) return { ok: false };
  const sign = m[1] === '-' ? -1 : 1;
  if (m[5] !== undefined) return { ok: true, value: sign * Infinity, erange: false };
  if (m[6] !== undefined) return { ok: true, value: NaN, erange: false };
  const magnitude = m[2] !== undefined ? Number(m[2]) : hexValue(m[3]!, m[4]);
  // Underflow: digits that are not all zero, read as less than DBL_MIN (0 included).
  const digits = m[2] !== undefined ? m[2].replace(/[eE].*$/, '') : m[3]!;
  const nonZero = /[1-9a-f]/i.test(digits);
  const erange = magnitude === Infinity || (nonZero && magnitude < DBL_MIN);
  return { ok: true, value: sign * magnitude, erange };
}

/** A hex float's value: digits with an optional point, times 2^exponent. */
function hexValue(digits: string, exponent: string | undefined): number {
  const [whole = '', fraction = ''] = digits.split('.');
  let value = 0;
  for (const d of whole) value = value * 16 + parseInt(d, 16);
  let scale = 1 / 16;
  for (const d of fraction) {
    value += parseInt(d, 16) * scale;
    scale /= 16;
  }
  return value * 2 ** Number(exponent ?? 0);
}

/** curl's ParameterError texts (tool_helpers.c param2text()). */
export type CurlNumberError =
  | 'expected a proper numerical parameter'
  | 'expected a positive numerical parameter'
  | 'too large number';

/**
 * (double)LONG_MAX / 1000: the largest number of seconds curl takes for -m and
 * --connect-timeout (LONG_MAX = 2^63 - 1 is 2^63 as a double).
 */
const CURL_MAX_SECONDS = 2 ** 63 / 1000;

/**
 * curl's str2udouble(text, LONG_MAX / 1000) and the milliseconds it sets, `(long)(v * 1000)`:
 * undefined for 0 (and NaN, whose conversion curl takes as no limit either): no timeout.
 */
export function curlSeconds(text: string): { ms: number | undefined } | CurlNumberError {
  const r = strtodWhole(text);
  if (!r.ok) return 'expected a proper numerical parameter';
  if (r.erange || r.value > CURL_MAX_SECONDS) return 'too large number';
  if (r.value < 0) return 'expected a positive numerical parameter';
  const ms = Math.trunc(r.value * 1000);
  return { ms: Number.isNaN(ms) || ms === 0 ? undefined : ms };
}

/** The texts strtoll() reads to their end in base 10. */
const STRTOLL_WHOLE = new RegExp(`^${C_SPACE}([+-]?\\d+)$`);

/** OpenBSD strtonum(text, min, max): the value, or its errstr. */
export function strtonum(
  text: string,
  min: number,
  max: number,
): number | 'invalid' | 'too small' | 'too large' {
  const m = STRTOLL_WHOLE.exec(text);
  if (m === null) return 'invalid';
  // strtoll() saturates at LLONG_MIN / LLONG_MAX (ERANGE): far outside any range asked here.
  const value = Number(m[1]);
  if (value < min) return 'too small';
  if (value > max) return 'too large';
  return value;
}

/**
 * dig's parse_uint(): BIND's isc_parse_uint32() (decimal digits only: no blank, sign or hex)
 * then `max`: the value, or the reason it prints (isc_result_totext()).
 */
export function digUint(text: string, max: number): number | 'not a valid number' | 'out of range' {
  if (!/^\d+$/.test(text)) return 'not a valid number';
  const value = Number(text);
  return value > max ? 'out of range' : value;
}

const STRTOL_PREFIX = new RegExp(`^${C_SPACE}([+-]?\\d+)`);

/**
 * C strtol(text, NULL, 10) where the rest of the text is not looked at (tcpdump -c): blanks, a
 * sign, the digits there are; 0 when there are none.
 */
export function strtolPrefix(text: string): number {
  const m = STRTOL_PREFIX.exec(text);
  return m === null ? 0 : Number(m[1]);
}
