/**
 * The tuple hash scales: 100k connections are created, found by either tuple and expired
 * without scanning per packet (lookups are O(1); ctExpire skips work until the earliest
 * deadline).
 */
import { describe, expect, it } from 'vitest';
import { ipFromInt } from '../model/ip';
import { createConntrackTable, ctExpire, ctFind, type CtPacket } from './index';
import { fixedRng, walk } from './testing';
import { emptyBySource, emptyTupleHash } from './tuple-hash';

const N = 100_000;

function flow(i: number): CtPacket {
  return {
    src: ipFromInt(0x0af40000 + Math.floor(i / 50_000)),
    dst: '10.96.0.10',
    proto: 'udp',
    sport: 1024 + (i % 50_000),
    dport: 53,
  };
}

describe('100k entries', () => {
  it('creates, finds both directions and expires them', () => {
    const t = createConntrackTable();
    const rng = fixedRng([]);
    for (let i = 0; i < N; i++) walk(t, 'local-out', flow(i), 0, rng);
    expect(t.count).toBe(N);
    for (let i = 0; i < N; i += 7) {
      const p = flow(i);
      const hit = ctFind(
        t,
        { proto: 'udp', src: p.dst, dst: p.src, sport: 53, dport: p.sport ?? 0 },
        1000,
      );
      expect(hit?.dir).toBe('REPLY');
    }
    expect(ctExpire(t, 29_999)).toEqual([]);
    expect(ctExpire(t, 30_000)).toHaveLength(N);
    expect(t.hash).toEqual(emptyTupleHash());
    expect(t.bysource).toEqual(emptyBySource());
  });
});
