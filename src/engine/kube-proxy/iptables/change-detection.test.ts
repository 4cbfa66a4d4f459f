import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEqual } from './change-detection';

describe('jsonEqual', () => {
  // Few keys and leaves, so that equal and nearly equal values come up often.
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom(null, undefined, NaN, Infinity, 0, -0, 1, '', 'a', '1', true, false),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', '1'), tie('value'), { maxKeys: 3 }),
    ),
  }));
  const pair = fc.oneof(
    fc.tuple(value, value),
    value.map((v) => [v, structuredClone(v)] as const),
  );

  it('agrees with comparing JSON.stringify outputs (fast-check seed 31337)', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(jsonEqual(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
      }),
      { seed: 31337, numRuns: 3000 },
    );
  });

  it('sees key order, as JSON does, and skips undefined-valued keys', () => {
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([undefined], [null])).toBe(true);
    expect(jsonEqual(undefined, null)).toBe(false);
  });
});
