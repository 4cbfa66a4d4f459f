/**
 * IPVS schedulers, each as its kernel module chooses (net/netfilter/ipvs/ip_vs_*.c): the
 * `init`/`changed` hooks (init_service, add_dest/del_dest/upd_dest) and `schedule`. A
 * destination with weight 0 (quiesced) is never chosen for a new connection; the lab has no
 * thresholds, so no destination is ever OVERLOADed. Ties go to the first destination in the
 * service's list (the order real servers were added), as the list walks do.
 */
import { ipToInt } from '../model/ip';
import { hash32, hsiphashU32, multiplicativeHash } from './hash';
import {
  SVC_F_SCHED1,
  SVC_F_SCHED2,
  type Destination,
  type SchedulerData,
  type VirtualService,
} from './types';

/** What a scheduler sees of the packet (ip_vs_iphdr: source/destination address, ports). */
export interface SchedPacket {
  readonly src: string;
  readonly dst: string;
  readonly sport: number;
  readonly dport: number;
}

/** The schedulers this lab implements (`ipvsadm -s`); the kernel has lblc, lblcr, fo, ovf, twos too. */
export const LAB_SCHEDULERS = ['rr', 'wrr', 'lc', 'wlc', 'sh', 'dh', 'sed', 'nq', 'mh'] as const;

/** ip_vs_sh.c / ip_vs_dh.c: 2^8 buckets (CONFIG_IP_VS_SH_TAB_BITS, CONFIG_IP_VS_DH_TAB_BITS). */
const SH_TAB_BITS = 8;
const SH_TAB_SIZE = 1 << SH_TAB_BITS;
/** ip_vs_mh.c: primes[CONFIG_IP_VS_MH_TAB_INDEX (12) - 8] = 4093; IP_VS_MH_TAB_BITS = 12 / 2. */
export const MH_TAB_SIZE = 4093;
const MH_TAB_BITS = 6;
/** ip_vs_mh.c generate_hash_secret(): fixed keys. */
const MH_KEY1: readonly [bigint, bigint] = [2654435761n, 2654435761n];
const MH_KEY2: readonly [bigint, bigint] = [2654446892n, 2654446892n];

const usable = (d: Destination): boolean => d.weight > 0;
/** ip_vs_dest_conn_overhead(): activeconns << 8 + inactconns (include/net/ip_vs.h). */
const connOverhead = (d: Destination): number => d.activeConns * 256 + d.inactConns;
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** ip_vs_wrr_gcd_weight(): gcd of the positive weights, 1 when there are none. */
function gcdWeight(dests: readonly Destination[], weightOf: (d: Destination) => number): number {
  let g = 0;
  for (const d of dests) {
    const w = weightOf(d);
    if (w > 0) g = g > 0 ? gcd(w, g) : w;
  }
  return g;
}

const maxWeight = (dests: readonly Destination[], weightOf: (d: Destination) => number): number =>
  dests.reduce((m, d) => Math.max(m, weightOf(d)), 0);

/** init_service(): the scheduler's data for a service (also after `ipvsadm -E -s`). */
export function initScheduler(svc: VirtualService): SchedulerData {
  switch (svc.scheduler) {
    case 'rr':
      return { kind: 'rr', last: undefined };
    case 'wrr': {
      // ip_vs_wrr_init_svc(): cl = head, di = gcd, mw = max - (di - 1), cw = mw.
      const di = gcdWeight(svc.destinations, (d) => d.weight) || 1;
      const mw = maxWeight(svc.destinations, (d) => d.weight) - (di - 1);
      return { kind: 'wrr', cl: undefined, di, mw, cw: mw };
    }
    case 'sh':
      return { kind: 'table', buckets: shTable(svc.destinations, true) };
    case 'dh':
      return { kind: 'table', buckets: shTable(svc.destinations, false) };
    case 'mh':
      return { kind: 'table', buckets: mhTable(svc.destinations) };
    default:
      return { kind: 'none' };
  }
}

/** add_dest / del_dest / upd_dest hooks. `removed`: the destination just unlinked (rr). */
export function schedulerDestChanged(
  svc: VirtualService,
  removed?: { dest: Destination; index: number },
): void {
  const s = svc.sched;
  if (s.kind === 'rr') {
    // ip_vs_rr_del_dest(): a removed current position moves back to the previous entry.
    if (removed !== undefined && s.last === removed.dest)
      s.last = removed.index > 0 ? svc.destinations[removed.index - 1] : undefined;
  } else if (s.kind === 'wrr') {
    // ip_vs_wrr_dest_changed().
    s.cl = undefined;
    s.di = gcdWeight(svc.destinations, (d) => d.weight) || 1;
    s.mw = maxWeight(svc.destinations, (d) => d.weight) - (s.di - 1);
    if (s.cw > s.mw || s.cw === 0) s.cw = s.mw;
    else if (s.di > 1) s.cw = Math.trunc(s.cw / s.di) * s.di + 1;
  } else if (s.kind === 'table') {
    svc.sched = initScheduler(svc);
  }
}

/**
 * ip_vs_sh_reassign() (sh: each destination fills `weight` consecutive buckets, at least one)
 * and ip_vs_dh_reassign() (dh: one bucket each, round the list).
 */
function shTable(dests: readonly Destination[], byWeight: boolean): (Destination | undefined)[] {
  const table: (Destination | undefined)[] = [];
  if (dests.length === 0) return new Array<undefined>(SH_TAB_SIZE).fill(undefined);
  let i = 0;
  let count = 0;
  for (let b = 0; b < SH_TAB_SIZE; b++) {
    const d = dests[i % dests.length]!;
    table.push(d);
    if (!byWeight || ++count >= d.weight) {
      i++;
      count = 0;
    }
  }
  return table;
}

/** ip_vs_mh_hashkey(): hsiphash of (offset + port + address) as a host-order u32. */
function mhHash(addr: string, port: number, key: readonly [bigint, bigint], offset = 0): number {
  return hsiphashU32((offset + port + ipToInt(addr)) >>> 0, key);
}

/** ip_vs_mh_permutate() + ip_vs_mh_populate(): the Maglev lookup table. */
function mhTable(dests: readonly Destination[]): (Destination | undefined)[] {
  const table = new Array<Destination | undefined>(MH_TAB_SIZE).fill(undefined);
  const g = gcdWeight(dests, (d) => d.lastWeight);
  if (g < 1) return table;
  const mw = Math.trunc(maxWeight(dests, (d) => d.lastWeight) / g);
  const rshift = Math.max(0, 32 - Math.clz32(mw) - MH_TAB_BITS);
  const setup = dests.map((d) => {
    const offset = mhHash(d.addr, d.port, MH_KEY1) % MH_TAB_SIZE;
    const skip = (mhHash(d.addr, d.port, MH_KEY2) % (MH_TAB_SIZE - 1)) + 1;
    const turns = Math.trunc(d.lastWeight / g) >> rshift || (d.lastWeight !== 0 ? 1 : 0);
    return { perm: offset, skip, turns };
  });
  const taken = new Uint8Array(MH_TAB_SIZE);
  let n = 0;
  let p = 0;
  let dt = 0;
  while (n < MH_TAB_SIZE) {
    if (p === dests.length) p = 0;
    while (p < dests.length) {
      const ds = setup[p]!;
      if (ds.turns < 1) {
        p++;
        continue;
      }
      let c = ds.perm;
      while (taken[c]) {
        ds.perm += ds.skip;
        if (ds.perm >= MH_TAB_SIZE) ds.perm -= MH_TAB_SIZE;
        c = ds.perm;
      }
      taken[c] = 1;
      table[c] = dests[p];
      if (++n === MH_TAB_SIZE) return table;
      if (++dt >= ds.turns) {
        dt = 0;
        p++;
      }
    }
  }
  return table;
}

/** The destination for a new connection, or undefined ("no destination available"). */
export function schedule(svc: VirtualService, pkt: SchedPacket): Destination | undefined {
  const dests = svc.destinations;
  switch (svc.scheduler) {
    case 'rr':
      return scheduleRr(svc);
    case 'wrr':
      return scheduleWrr(svc);
    case 'lc': {
      // ip_vs_lc_schedule(): least overhead; `doh < loh` keeps the first of equals.
      let least: Destination | undefined;
      for (const d of dests) {
        if (!usable(d)) continue;
        if (least === undefined || connOverhead(d) < connOverhead(least)) least = d;
      }
      return least;
    }
    case 'wlc':
      return leastWeighted(dests, connOverhead);
    case 'sed':
      // ip_vs_sed_dest_overhead(): activeconns + 1.
      return leastWeighted(dests, (d) => d.activeConns + 1);
    case 'nq': {
      // ip_vs_nq_schedule(): the first idle server at once, else SED.
      let least: Destination | undefined;
      for (const d of dests) {
        if (!usable(d)) continue;
        if (d.activeConns === 0) return d;
        const doh = d.activeConns + 1;
        if (least === undefined || (least.activeConns + 1) * d.weight > doh * least.weight)
          least = d;
      }
      return least;
    }
    case 'sh': {
      // ip_vs_sh_schedule(): source address (+ source port with sh-port, SCHED2).
      const port = svc.flags & SVC_F_SCHED2 ? pkt.sport : 0;
      return tableLookup(
        svc,
        hash32((port + ipToInt(pkt.src)) >>> 0, SH_TAB_BITS),
        (off) => hash32((port + ipToInt(pkt.src)) >>> 0, SH_TAB_BITS) + off,
      );
    }
    case 'dh':
      return tableLookup(svc, multiplicativeHash(ipToInt(pkt.dst), SH_TAB_SIZE - 1));
    case 'mh': {
      // ip_vs_mh_schedule(): source address (+ source port with mh-port, SCHED2).
      const port = svc.flags & SVC_F_SCHED2 ? pkt.sport : 0;
      const ihash = mhHash(pkt.src, port, MH_KEY1) % MH_TAB_SIZE;
      return tableLookup(svc, ihash, (off) => mhHash(pkt.src, port, MH_KEY1, off) % MH_TAB_SIZE);
    }
    default:
      return undefined;
  }
}

/**
 * sh/dh/mh lookup: the bucket's destination unless it is unavailable; with the fallback flag
 * (SCHED1: sh-fallback / mh-fallback) the table is walked from that bucket (ip_vs_*_get_fallback).
 */
function tableLookup(
  svc: VirtualService,
  bucket: number,
  rehash?: (offset: number) => number,
): Destination | undefined {
  if (svc.sched.kind !== 'table') return undefined;
  const buckets = svc.sched.buckets;
  const size = buckets.length;
  const d = buckets[bucket % size];
  if (d === undefined) return undefined;
  if (usable(d)) return d;
  if (rehash === undefined || !(svc.flags & SVC_F_SCHED1)) return undefined;
  for (let off = 0; off < size; off++) {
    const next = buckets[rehash((off + bucket) % size) % size];
    if (next === undefined) return undefined;
    if (usable(next)) return next;
  }
  return undefined;
}

/** wlc/sed: the first usable server, then `loh * w_d > doh * w_least` moves on (s64 products). */
function leastWeighted(
  dests: readonly Destination[],
  overhead: (d: Destination) => number,
): Destination | undefined {
  let least: Destination | undefined;
  for (const d of dests) {
    if (least === undefined) {
      if (usable(d)) least = d;
      continue;
    }
    // The continue-loop skips only OVERLOADed servers: weight 0 never wins (0 > x is false).
    if (overhead(least) * d.weight > overhead(d) * least.weight) least = d;
  }
  return least;
}

/** ip_vs_rr_schedule(): the next usable server after the last one chosen, wrapping once. */
function scheduleRr(svc: VirtualService): Destination | undefined {
  const s = svc.sched;
  if (s.kind !== 'rr') return undefined;
  const dests = svc.destinations;
  const start = s.last === undefined ? -1 : dests.indexOf(s.last);
  for (let k = 1; k <= dests.length; k++) {
    const d = dests[(start + k) % dests.length]!;
    if (usable(d)) {
      s.last = d;
      return d;
    }
  }
  return undefined;
}

/** ip_vs_wrr_schedule(): interleaved weighted round robin (see the mark in types.ts). */
function scheduleWrr(svc: VirtualService): Destination | undefined {
  const m = svc.sched;
  if (m.kind !== 'wrr') return undefined;
  const dests = svc.destinations;
  if (m.mw <= 0 || dests.length === 0) return undefined;
  // Positions: -1 is the list head, 0..n-1 the destinations.
  const lastPos = m.cl === undefined ? -1 : dests.indexOf(m.cl);
  let pos = lastPos;
  let stop: number | undefined;
  let lastPass = false;
  let restarted = false;
  for (let guard = 0; guard < 4 * (m.mw + 2) * (dests.length + 1); guard++) {
    for (pos = pos + 1; pos < dests.length; pos++) {
      const d = dests[pos]!;
      if (d.weight >= m.cw) {
        m.cl = d;
        return d;
      }
      if (pos === stop) {
        m.cl = d;
        return undefined;
      }
    }
    pos = -1;
    m.cw -= m.di;
    if (m.cw <= 0) {
      m.cw = m.mw;
      if (lastPass || lastPos === -1) {
        m.cl = undefined;
        return undefined;
      }
      restarted = true;
    }
    lastPass = m.cw <= m.di;
    if (lastPass && restarted && lastPos !== -1) stop = lastPos;
  }
  return undefined;
}
