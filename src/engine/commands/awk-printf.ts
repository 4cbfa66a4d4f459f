/**
 * awk's printf and sprintf: C's conversions over awk values, as mawk 1.3.4 runs them (%d of
 * 3.9 is 3; %c of 65 is "A", of 321 also "A": C's char keeps the low byte; too few arguments
 * is a run-time error naming the format). Numbers as text through awk-format.ts.
 */
import { exponential, fixed, general } from './awk-format';
import { formatInteger, type IntSpec } from './printf';
import { toInt, toNumber, type Value } from './awk-value';

/** Why a format stopped: too few arguments, or the Nth conversion is not C's. */
export type FormatProblem = 'missing' | { readonly improper: number };

/**
 * The format applied to `args`; `fail` is called with the text made so far (printf has
 * written it when mawk stops) when the format wants one more argument (checked first, as
 * mawk does) or has a conversion C lacks (`%z`, and `%5%`, which is not `%%`).
 */
export function awkSprintf(
  format: string,
  args: readonly Value[],
  toText: (v: Value) => string,
  fail: (partial: string, problem: FormatProblem) => never,
): string {
  let next = 0;
  let done = '';
  let count = 0;
  const take = (): Value => (next < args.length ? args[next++]! : fail(done, 'missing'));
  // Any character, or the format's end, closes a conversion; only C's letters are proper.
  const spec = /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([\s\S]?)/g;
  let last = 0;
  for (let m = spec.exec(format); m !== null; m = spec.exec(format)) {
    done += format.slice(last, m.index);
    if (m[0] !== '%%') count++;
    done += conversion(m[0], m[1]!, m[2], m[3], m[4] ?? '');
    last = m.index + m[0].length;
  }
  return done + format.slice(last);

  function conversion(
    m: string,
    flags: string,
    w: string | undefined,
    p: string | undefined,
    conv: string,
  ): string {
    // prettier-ignore
    {
      if (m === '%%') return '%';
      const width = w === undefined ? undefined : w === '*' ? Math.trunc(toNumber(take())) : Number(w); // prettier-ignore
      const precision = p === undefined ? undefined : p === '*' ? Math.trunc(toNumber(take())) : Number(p || '0'); // prettier-ignore
      const spec: IntSpec = { flags, width, precision };
      const v = take();
      if (conv === '' || !'sdiouxXcfFeEgG'.includes(conv)) fail(done, { improper: count });
      const padded = (body: string, zero: boolean) => formatInteger.pad(body, spec, zero);
      if (conv === 's') return padded(precision === undefined ? toText(v) : toText(v).slice(0, precision), false); // prettier-ignore
      if (conv === 'c') return padded(typeof v === 'number' ? String.fromCharCode(toInt(v) & 255) : (toText(v)[0] ?? '\0'), false); // prettier-ignore
      if ('diouxX'.includes(conv)) {
        // mawk 20200120 clamps: %d and %i to an int (±2147483647), %o %u %x to 0…2^32-1.
        const n = toNumber(v);
        const unsigned = 'ouxX'.includes(conv);
        const int = BigInt(unsigned ? Math.min(Math.max(Math.trunc(n) || 0, 0), 4294967295) : toInt(n)); // prettier-ignore
        return formatInteger.integer(conv === 'i' ? 'd' : conv, int, spec);
      }
      const x = toNumber(v);
      const prec = precision ?? 6;
      const sign = (t: string) => (x >= 0 && !t.startsWith('-') ? (flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') : '') + t; // prettier-ignore
      const finite = Number.isFinite(x);
      if (conv === 'f' || conv === 'F') return padded(sign(fixed(x, prec)), finite);
      if (conv === 'e' || conv === 'E') return padded(sign(exponential(x, prec, conv === 'E')), finite); // prettier-ignore
      return padded(sign(general(x, prec, conv === 'G')), finite);
    }
  }
}
