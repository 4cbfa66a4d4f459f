/**
 * IPVS's rate estimator (net/netfilter/ipvs/ip_vs_est.c), what `ipvsadm -L --rate` prints.
 * Every 2 seconds, for each virtual service and real server, the kernel takes the counters'
 * growth since the previous tick and moves an average a quarter of the way towards it:
 *
 *   rate = (n - last) << 9      (conns, packets: per second, scaled by 2^10)
 *   rate = (n - last) << 4      (bytes: per second, scaled by 2^5)
 *   avg += (rate - avg) >> 2    (W = 2^-2, an arithmetic shift)
 *
 * and ip_vs_read_estimator() rounds: cps/pps = (avg + 0x1FF) >> 10, bps = (avg + 0xF) >> 5.
 *
 * The lab has no timers: the ticks between two events see the same counters, so an estimator
 * catches up on its missed ticks when its counters are about to change and when it is read.
 * The ticks fall on every 2 s of the lab's clock; on a real node their phase is wherever the
 * estimator's kthread placed it, so a real reading can be one tick earlier or later.
 */
import type { IpvsStats } from './types';

export const ESTIMATOR_TICK_MS = 2000;

export interface IpvsEstimator {
  /** The lab time of the last tick applied. */
  tick: number;
  last: IpvsStats;
  cps: number;
  inpps: number;
  outpps: number;
  inbps: number;
  outbps: number;
}

const KEYS = ['conns', 'inpkts', 'outpkts', 'inbytes', 'outbytes'] as const;
const AVG = ['cps', 'inpps', 'outpps', 'inbps', 'outbps'] as const;
/** << 9 for conns and packets, << 4 for bytes (see above). */
const SHIFT = [2 ** 9, 2 ** 9, 2 ** 9, 2 ** 4, 2 ** 4] as const;

const estimators = new WeakMap<IpvsStats, IpvsEstimator>();

function tickFloor(now: number): number {
  return Math.floor(now / ESTIMATOR_TICK_MS) * ESTIMATOR_TICK_MS;
}

/** Applies every tick up to `now` to the estimator of `stats` (created on first use). */
export function estimatorCatchUp(stats: IpvsStats, now: number): IpvsEstimator {
  let e = estimators.get(stats);
  if (e === undefined) {
    // ip_vs_start_estimator() on a fresh service or destination: nothing counted yet, so
    // the ticks before now saw no growth.
    e = { tick: tickFloor(now), last: { ...stats }, cps: 0, inpps: 0, outpps: 0, inbps: 0, outbps: 0 }; // prettier-ignore
    estimators.set(stats, e);
    return e;
  }
  while (e.tick + ESTIMATOR_TICK_MS <= now) {
    e.tick += ESTIMATOR_TICK_MS;
    let moving = false;
    for (let i = 0; i < KEYS.length; i++) {
      const rate = (stats[KEYS[i]!] - e.last[KEYS[i]!]) * SHIFT[i]!;
      e.last[KEYS[i]!] = stats[KEYS[i]!];
      const avg = e[AVG[i]!];
      e[AVG[i]!] = avg + Math.floor((rate - avg) / 4);
      if (e[AVG[i]!] !== 0) moving = true;
    }
    // Settled at zero with no growth: the remaining ticks change nothing.
    if (!moving) e.tick = Math.max(e.tick, tickFloor(now));
  }
  return e;
}

/** ip_vs_read_estimator(): the rates `ipvsadm --rate` prints. */
export function readRates(stats: IpvsStats, now: number): IpvsStats {
  const e = estimatorCatchUp(stats, now);
  return {
    conns: Math.floor((e.cps + 0x1ff) / 1024),
    inpkts: Math.floor((e.inpps + 0x1ff) / 1024),
    outpkts: Math.floor((e.outpps + 0x1ff) / 1024),
    inbytes: Math.floor((e.inbps + 0xf) / 32),
    outbytes: Math.floor((e.outbps + 0xf) / 32),
  };
}
