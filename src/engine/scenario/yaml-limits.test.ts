/**
 * Large and hostile inputs since the size limit is 64 MiB: the scale scenario loads quickly,
 * and 10 MB of junk ends in seconds with clear errors, never a crash or a hang.
 */
import { describe, expect, it } from 'vitest';
import { generateScaleScenario } from '../testing/scale-scenario';
import type { LoadResult } from './index';
import { loadScenario } from './index';

/**
 * Loads `text`. How fast is measured in `npm run bench`; here vitest's test timeout only
 * guards against a hang (a shared machine's timings make poor assertions).
 */
function timed(text: string): { result: LoadResult } {
  return { result: loadScenario(text) };
}

const JUNK = ['a: ', 'b', '\n', '- ', '  ', '[', ']', '{', '}', ', ', '"', "'", '#', '---\n'];
const MORE_JUNK = [...JUNK, ':', '&x ', '*x', '\t', '|\n', '? ', '%YAML 1.1\n', '...\n'];

/** Pieces picked by a fixed linear congruential sequence (the same every run) up to `length`. */
function pseudoRandom(length: number, pick: (n: number) => string): string {
  const out: string[] = [];
  let size = 0;
  for (let s = 1; size < length;) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const piece = pick(s >>> 8);
    out.push(piece);
    size += piece.length;
  }
  return out.join('');
}

describe('large scenarios', () => {
  it('loads the 10,000-Service scale scenario (12 MB) in seconds', () => {
    const text = generateScaleScenario(10_000);
    const { result } = timed(text);
    // About a second on a laptop; the bound only catches a return to quadratic work.
    expect(result.diagnostics).toEqual([]);
    expect(result.cluster.services).toHaveLength(10_000);
    expect(result.cluster.endpointSlices).toHaveLength(10_000);
    const last = text.lastIndexOf('apiVersion: v1\nkind: Service');
    expect(result.cluster.services[9_999]?.meta.source).toEqual({
      doc: 20_002,
      line: text.slice(0, last).split('\n').length,
      col: 1,
    });
  });

  it.each<[string, () => string]>([
    ['random bytes', () => pseudoRandom(10 << 20, (n) => String.fromCharCode(n % 256))],
    ['YAML-ish junk', () => pseudoRandom(10 << 20, (n) => MORE_JUNK[n % MORE_JUNK.length] ?? '')],
    [
      'documents only the full YAML reader reads',
      () => `---\nkind: Service\nmetadata:\n\tname: x\n`.repeat(250_000),
    ],
    ['nesting', () => 'a: ' + '['.repeat(10 << 20)],
    ['one long line', () => 'kind: Pod\nx: ' + 'y'.repeat(10 << 20)],
  ])('ends 10 MB of %s in seconds, with errors and positions', (_name, make) => {
    const { result } = timed(make());
    expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    for (const d of result.diagnostics) {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.col).toBeGreaterThanOrEqual(1);
      expect(d.message).not.toMatch(/internal error|\n\s+at /);
    }
  });
});
