/**
 * Numbers as mawk 1.3.4 turns them into text: glibc's printf conversions `%e %f %g` (rounding
 * an exact tie to even, as glibc does, where JavaScript's toFixed/toPrecision round it up),
 * `inf`/`-nan`, and awk's number-to-string rule (an integral value in the int range prints as
 * an integer, any other through OFMT/CONVFMT, `%.6g`). Compared with mawk in
 * tests/kernel/text-tools.test.ts.
 */

/**
 * `digits` (a decimal digit string) rounded to `keep` digits, half to even; on a carry (999 up
 * to 1000) the digits are one longer.
 */
function roundDigits(digits: string, keep: number): { digits: string; carry: boolean } {
  if (digits.length <= keep) return { digits: digits.padEnd(keep, '0'), carry: false };
  const head = digits.slice(0, keep);
  const rest = digits.slice(keep);
  const tie = rest[0] === '5' && /^50*$/.test(rest);
  const last = keep > 0 ? Number(head[keep - 1]) : 0;
  const up = rest[0]! > '5' || (rest[0] === '5' && (!tie || last % 2 === 1));
  if (!up) return { digits: head, carry: false };
  const n = (BigInt(head || '0') + 1n).toString().padStart(keep, '0');
  return { digits: n, carry: n.length > keep };
}

/**
 * The exact decimal digits of |x| (x finite, non-zero) and its decimal exponent: x = 0.d1d2… ×
 * 10^exp10. toPrecision(100) is exact for every double the lab meets (a double's expansion
 * ends well within 100 significant digits unless it is tiny or huge).
 */
function exactDigits(x: number): { digits: string; exp10: number } {
  const [mant, e] = Math.abs(x).toPrecision(100).split('e') as [string, string | undefined];
  const [int, frac = ''] = mant.split('.') as [string, string | undefined];
  let digits = int + frac;
  let exp10 = int.length + (e === undefined ? 0 : Number(e));
  const lead = /^0*/.exec(digits)![0].length;
  digits = digits.slice(lead).replace(/0+$/, '');
  exp10 -= lead;
  return { digits, exp10 };
}

function special(x: number): string | undefined {
  if (Number.isNaN(x)) return '-nan';
  if (!Number.isFinite(x)) return x < 0 ? '-inf' : 'inf';
  return undefined;
}

/** `%.{prec}f` without sign handling beyond a leading `-`. */
export function fixed(x: number, prec: number): string {
  const s = special(x);
  if (s !== undefined) return s;
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (x === 0) return sign + (prec > 0 ? `0.${'0'.repeat(prec)}` : '0');
  const { digits, exp10 } = exactDigits(x);
  // Digits before the point: exp10 (maybe ≤ 0); keep exp10 + prec digits in all.
  const keep = exp10 + prec;
  if (keep < 0) return sign + (prec > 0 ? `0.${'0'.repeat(prec)}` : '0');
  const r = roundDigits(digits, keep);
  let all = r.digits;
  all = all.padStart(prec + 1, '0');
  const int = all.slice(0, all.length - prec) || '0';
  return sign + (prec > 0 ? `${int}.${all.slice(all.length - prec)}` : int);
}

/** `%.{prec}e`. */
export function exponential(x: number, prec: number, upper = false): string {
  const s = special(x);
  if (s !== undefined) return upper ? s.toUpperCase() : s;
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  let digits = '0'.repeat(prec + 1);
  let exp = 0;
  if (x !== 0) {
    const d = exactDigits(x);
    const r = roundDigits(d.digits, prec + 1);
    digits = r.digits.slice(0, prec + 1);
    exp = d.exp10 - 1 + (r.carry ? 1 : 0);
  }
  const mant = prec > 0 ? `${digits[0]}.${digits.slice(1)}` : digits[0]!;
  const e = `${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return `${sign}${mant}${upper ? 'E' : 'e'}${e}`;
}

/** `%.{prec}g` (`#` flag off: trailing zeros dropped). */
export function general(x: number, prec: number, upper = false): string {
  const s = special(x);
  if (s !== undefined) return upper ? s.toUpperCase() : s;
  const p = prec === 0 ? 1 : prec;
  // C: the exponent X that %e would print decides the style.
  const e = exponential(x, p - 1);
  const X = Number(e.slice(e.search(/e/) + 1));
  const out = X < -4 || X >= p ? e : fixed(x, p - 1 - X);
  const [mant, exp] = out.split('e') as [string, string | undefined];
  const trimmed = mant.includes('.') ? mant.replace(/\.?0+$/, '') : mant;
  const text = exp === undefined ? trimmed : `${trimmed}e${exp}`;
  return upper ? text.toUpperCase() : text;
}

const MAX_INT = 2147483647;

/** A number as awk prints or concatenates it (OFMT/CONVFMT `%.6g`). */
export function numberText(x: number): string {
  if (Number.isInteger(x) && x >= -MAX_INT && x <= MAX_INT) return String(x === 0 ? 0 : x);
  return general(x, 6);
}
