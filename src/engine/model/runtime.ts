/**
 * The engine never reads the wall clock or Math.random: hosts inject these.
 * Same scenario + same seed → the same run, byte for byte.
 */

/** Virtual time in milliseconds since the lab started. */
export interface Clock {
  now(): number;
}

/** A seeded source of uniformly distributed unsigned 32-bit integers (the kernel's get_random_u32 stand-in). */
export interface Rng {
  nextU32(): number;
}

/**
 * What wall-clock time the lab's clock 0 stands for (tools that print dates — iptables-save's
 * header, kubectl's creationTimestamp — show it). Fixed so that runs are reproducible:
 * 2026-03-02T08:00:00Z.
 */
export const LAB_EPOCH_SECONDS = 1772438400;

/**
 * The last second the lab's clock may reach: 9999-12-31T23:59:59Z. Dates print with four-digit
 * years (kubectl's RFC 3339 timestamps, iptables-save's ctime header), JavaScript's Date ends in
 * the year 275760, and far beyond that whole milliseconds stop being exact in a double (2^53 ms
 * is year 287396): timers that add a few hundred ms would no longer move the clock at all.
 */
export const LAB_CLOCK_END_UNIX_SECONDS = 253_402_300_799;

/** A clock the host advances explicitly (`sleep`, the UI's play loop). */
export class ManualClock implements Clock {
  private ms: number;
  constructor(startMs = 0) {
    this.ms = startMs;
  }
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * sfc32 seeded from a 32-bit seed via splitmix32: small, fast, and good enough statistically for
 * load-distribution experiments. Deterministic across hosts (pure 32-bit integer arithmetic).
 */
export function rngFromSeed(seed: number): Rng {
  let s = seed >>> 0;
  const splitmix = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const rng: Rng = {
    nextU32() {
      const t = (((a + b) >>> 0) + d) >>> 0;
      d = (d + 1) >>> 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) >>> 0;
      c = ((c << 21) | (c >>> 11)) >>> 0;
      c = (c + t) >>> 0;
      return t;
    },
  };
  for (let i = 0; i < 12; i++) rng.nextU32();
  return rng;
}
