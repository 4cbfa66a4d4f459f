/**
 * The limit match's token bucket (nft_limit.c, as iptables-nft puts `-m limit` in the kernel):
 * a packet costs unit/rate ns; the bucket holds cost × burst and starts full. Experiment 11
 * checks one rate against the kernel with real pings; these are the arithmetic's edges.
 */
import { describe, expect, it } from 'vitest';
import { createNetfilter, iptablesCommand } from '.';
import { limitAllows, type LimitBucket } from './match-limit';
import type { LimitMatch } from './types';

function limitOf(args: string[]): LimitMatch {
  const s = createNetfilter();
  expect(iptablesCommand(s, ['-A', 'INPUT', '-m', 'limit', ...args]).exitCode).toBe(0);
  const m = s.tables.filter?.chains.find((c) => c.name === 'INPUT')?.rules[0]?.matches[0];
  if (m?.name !== 'limit') throw new Error('no limit match');
  return m;
}

/** Which of the packets at these times (ms) the rule lets through. */
function passes(m: LimitMatch, timesMs: readonly number[]): boolean[] {
  let bucket: LimitBucket | undefined;
  return timesMs.map((t) => {
    const r = limitAllows(m, bucket, t * 1e6);
    bucket = r.bucket;
    return r.hit;
  });
}

describe('limit', () => {
  it('lets a full burst through at once, then one packet per period', () => {
    // 2/second, burst 3: three at once, then one every 500 ms.
    const m = limitOf(['--limit', '2/s', '--limit-burst', '3']);
    expect(passes(m, [0, 0, 0, 0, 499, 500, 999, 1000])).toEqual([
      true, true, true, false, false, true, false, true,
    ]); // prettier-ignore
  });

  it('caps the tokens at the burst: a long pause buys no more than the burst', () => {
    const m = limitOf(['--limit', '1/s', '--limit-burst', '2']);
    expect(passes(m, [0, 0, 0, 60_000, 60_000, 60_000])).toEqual([
      true, true, false, true, true, false,
    ]); // prettier-ignore
  });

  it('the default is 3/hour with a burst of 5', () => {
    const m = limitOf([]);
    expect(m).toEqual({ name: 'limit', avg: 12_000_000, burst: 5 });
    const twenty = [0, 1, 2, 3, 4, 5, 1_199_999, 1_200_000];
    expect(passes(m, twenty)).toEqual([true, true, true, true, true, false, false, true]);
  });
});
