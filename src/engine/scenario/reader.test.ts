import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MapReader } from './reader';
import { Diagnostics, ObjectReport } from './report';
import type { YMap } from './yaml-tree';

function mapOf(keys: readonly string[]): YMap {
  return {
    kind: 'map',
    start: 0,
    entries: keys.map((key, i) => ({
      key,
      keyStart: i,
      value: { kind: 'scalar', start: i, value: 'v' },
    })),
  };
}

/** The unknown-field warnings finish() gives after reading `read` and ignoring `ignored`. */
function unknownFields(
  keys: readonly string[],
  read: readonly string[],
  ignored: readonly string[],
): string[] {
  const diags = new Diagnostics(undefined);
  const reader = new MapReader(new ObjectReport(diags, 0, 'Service', true), mapOf(keys), '', 0);
  for (const k of read) reader.entry(k);
  reader.ignore(...ignored);
  reader.finish();
  return diags.list.map((d) => d.field ?? '');
}

describe('MapReader: unknown fields', () => {
  // Small maps remember the keys read as bits, large ones (over 30 entries) in a Set: both
  // must warn about exactly the keys never read, in the map's order, repeated keys included.
  it('warns about exactly the entries whose key was never read or ignored, at any size', () => {
    const name = fc.constantFrom(...Array.from({ length: 45 }, (_, i) => `k${i}`));
    fc.assert(
      fc.property(
        fc.array(name, { minLength: 0, maxLength: 40 }),
        fc.array(name, { maxLength: 40 }),
        fc.array(name, { maxLength: 5 }),
        (keys, read, ignored) => {
          const seen = new Set([...read, ...ignored]);
          expect(unknownFields(keys, read, ignored)).toEqual(keys.filter((k) => !seen.has(k)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds the first entry of a key, in small and large maps', () => {
    for (const size of [1, 30, 31, 40]) {
      const keys = Array.from({ length: size }, (_, i) => `k${i % 20}`);
      const diags = new Diagnostics(undefined);
      const reader = new MapReader(new ObjectReport(diags, 0, 'Pod', true), mapOf(keys), '', 0);
      expect(reader.entry('k0')?.keyStart).toBe(0);
      expect(reader.entry('absent')).toBeUndefined();
    }
  });
});
