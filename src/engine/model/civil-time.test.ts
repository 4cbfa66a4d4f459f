import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { civilFromUnixMs } from './civil-time';

describe('civilFromUnixMs', () => {
  it('agrees with the JavaScript Date in UTC (seed 1772438400)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2_000_000_000_000, max: 8_000_000_000_000 }), (ms) => {
        const d = new Date(ms);
        const t = civilFromUnixMs(ms);
        expect([t.year, t.month, t.day, t.weekday, t.hour, t.minute, t.second]).toEqual([
          d.getUTCFullYear(),
          d.getUTCMonth() + 1,
          d.getUTCDate(),
          d.getUTCDay(),
          d.getUTCHours(),
          d.getUTCMinutes(),
          d.getUTCSeconds(),
        ]);
        expect(t.micros).toBe(d.getUTCMilliseconds() * 1000);
      }),
      { seed: 1772438400, numRuns: 2000 },
    );
  });
});
