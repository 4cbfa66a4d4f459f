import { describe, expect, it } from 'vitest';
import { estimatorCatchUp, readRates } from './estimator';
import { emptyStats } from './types';

// Expected values follow ip_vs_est.c by hand: every 2 s, rate = delta << 9 (conns, packets)
// or delta << 4 (bytes), avg += (rate - avg) >> 2; read: (avg + 0x1FF) >> 10, (avg + 0xF) >> 5.
describe("IPVS's rate estimator", () => {
  it('reads 0 until a tick has seen the counters grow', () => {
    const st = emptyStats();
    estimatorCatchUp(st, 100);
    st.conns += 2;
    st.inpkts += 12;
    st.inbytes += 786;
    expect(readRates(st, 1999)).toEqual(emptyStats());
  });

  it('moves a quarter of the way to the last 2 s rate at each tick, then decays', () => {
    const st = emptyStats();
    estimatorCatchUp(st, 100);
    st.conns += 2;
    st.inpkts += 12;
    st.inbytes += 786;
    // Tick at 2 s: cps avg = (2<<9)/4 = 256 → 0; inpps = (12<<9)/4 = 1536 → 1;
    // inbps = (786<<4)/4 = 3144 → (3144+15)>>5 = 98.
    expect(readRates(st, 2000)).toEqual({
      conns: 0,
      inpkts: 1,
      outpkts: 0,
      inbytes: 98,
      outbytes: 0,
    });
    // Tick at 4 s, no growth: 1536 - 384 = 1152 → 1; 3144 - 786 = 2358 → 74.
    expect(readRates(st, 4000)).toMatchObject({ inpkts: 1, inbytes: 74 });
    // A quiet minute later every average has decayed to 0.
    expect(readRates(st, 64_000)).toEqual(emptyStats());
  });

  it('a steady 100 connections per second converge to 100 cps', () => {
    const st = emptyStats();
    for (let t = 0; t <= 60_000; t += 10) {
      estimatorCatchUp(st, t);
      st.conns++;
    }
    expect(readRates(st, 60_000).conns).toBe(100);
  });

  it('counters that grow between reads are seen by the ticks after the growth only', () => {
    const a = emptyStats();
    const b = emptyStats();
    estimatorCatchUp(a, 0);
    estimatorCatchUp(b, 0);
    // Same growth, before and after the tick at 2 s.
    estimatorCatchUp(a, 1900);
    a.inpkts += 40;
    estimatorCatchUp(b, 2100);
    b.inpkts += 40;
    expect(readRates(a, 2500).inpkts).toBe(5); // (40<<9)/4 = 5120 → 5
    expect(readRates(b, 2500).inpkts).toBe(0);
    expect(readRates(b, 4000).inpkts).toBe(5);
  });
});
