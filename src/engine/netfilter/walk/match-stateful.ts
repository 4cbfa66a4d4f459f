/**
 * Matches that remember something between packets: xt_statistic.c (random draws, nth
 * counters), xt_recent.c (address lists with timestamps), xt_nfacct.c (accounting objects)
 * and nft_limit.c (token buckets). What they remember lives in the caller's `WalkStore`.
 */
import { ipFromInt, ipToInt } from '../../model/ip';
import { limitAllows } from '../match-limit';
import type { LimitMatch, RecentMatch, StatisticMatch } from '../types';
import type { MatchContext, Packet, RecentEntry, RecentList } from './types';

/**
 * statistic_mt(). random: `(get_random_u32() & 0x7FFFFFFF) < P` with P the stored 31-bit
 * threshold, one draw per evaluation. nth: the rule's counter starts at `(every-1) - packet`
 * (libxt_statistic's final check; the kernel stores every-1) and advances by one per evaluation,
 * wrapping to 0 after every-1; the packet that wraps it matches. Both then apply the invert.
 */
export function statisticMatch(
  m: StatisticMatch,
  ctx: MatchContext,
  ruleKey: () => string,
): boolean {
  let hit: boolean;
  if (m.mode === 'random') {
    hit = (ctx.rng.nextU32() & 0x7fffffff) >>> 0 < m.probability;
  } else {
    const every = m.every - 1;
    const key = ruleKey();
    const old = ctx.store.nth[key] ?? every - m.packet;
    const next = old === every ? 0 : old + 1;
    ctx.store.nth[key] = next;
    hit = next === 0;
  }
  return hit !== m.invert;
}

/**
 * `-m limit` as iptables-nft put it in the kernel: nf_tables' token bucket (match-limit.ts),
 * one per rule instance (walk-state.ts ruleStateKey()): a rule added again starts full.
 */
export function limitMatch(m: LimitMatch, ctx: MatchContext, ruleKey: () => string): boolean {
  const key = ruleKey();
  const { hit, bucket } = limitAllows(m, ctx.store.limit[key], ctx.now * 1e6);
  ctx.store.limit[key] = bucket;
  return hit;
}

/** nfacct_mt(): count the packet in the object; without a quota it always matches. */
export function nfacctMatch(name: string, packet: Packet, ctx: MatchContext): boolean {
  const c = (ctx.store.nfacct[name] ??= { packets: 0, bytes: 0 });
  c.packets += 1;
  c.bytes += packet.length;
  return true;
}

/** xt_recent's ip_list_tot default: entries per list (the least recently updated one goes). */
export const RECENT_LIST_MAX = 100;

/**
 * recent_mt_check(): timestamps kept per entry — 32 by default (ip_pkt_list_tot = 0), or the
 * next power of two of --hitcount; the list keeps the largest any of its rules asked for.
 */
function nstampsFor(hitcount: number): number {
  if (hitcount === 0) return 32;
  let n = 1;
  while (n < hitcount) n *= 2;
  return n;
}

function listFor(m: RecentMatch, ctx: MatchContext): RecentList {
  const want = nstampsFor(m.hitcount);
  let list = ctx.store.recent[m.listName];
  if (list === undefined) {
    list = { mask: m.mask, nstamps: want, entries: [] };
    ctx.store.recent[m.listName] = list;
  } else if (want > list.nstamps) list.nstamps = want;
  return list;
}

function touch(list: RecentList, e: RecentEntry, now: number): void {
  // recent_entry_update(): a new stamp in the ring, and the entry becomes the most recent.
  e.stamps.push(now);
  if (e.stamps.length > list.nstamps) e.stamps.shift();
  const i = list.entries.indexOf(e);
  if (i >= 0) list.entries.splice(i, 1);
  list.entries.push(e);
}

function remove(list: RecentList, e: RecentEntry): void {
  const i = list.entries.indexOf(e);
  if (i >= 0) list.entries.splice(i, 1);
}

/**
 * recent_mt(). The address (source, or destination with --rdest) is masked with the list's
 * mask. The TTL is the packet's, plus one when it is being forwarded (an output device and no
 * local socket); --rttl makes the lookup compare it. Then:
 * - not in the list: --set adds it and matches; everything else does not match;
 * - --set: matches (and updates); --remove: removes it and matches;
 * - --rcheck/--update: matches when at least max(1, --hitcount) of its stamps are within
 *   --seconds (any stamp without --seconds); --reap then drops the least recently updated entry
 *   of the list if even its newest stamp is too old (unless that is this entry and --update is
 *   about to refresh it); --update refreshes the entry when the result (after the invert!) is
 *   true, as the kernel does.
 */
export function recentMatch(m: RecentMatch, packet: Packet, ctx: MatchContext): boolean {
  const list = listFor(m, ctx);
  const ip = m.side === 'dest' ? packet.dst : packet.src;
  const addr = ipFromInt((ipToInt(ip) & ipToInt(list.mask)) >>> 0);
  let ttl = packet.ttl ?? 64;
  if (packet.outIface !== undefined && !packet.localOrigin) ttl += 1;
  const want = m.rttl ? ttl : 0;
  const now = ctx.now;
  let ret = m.invert;
  const e = list.entries.find(
    (x) => x.addr === addr && (want === 0 || x.ttl === 0 || x.ttl === want),
  );
  if (e === undefined) {
    if (m.op !== 'set') return ret;
    // recent_entry_init(): a full list first loses its least recently updated entry.
    if (list.entries.length >= RECENT_LIST_MAX) list.entries.shift();
    list.entries.push({ addr, ttl, stamps: [now] });
    return !ret;
  }
  if (m.op === 'set') ret = !ret;
  else if (m.op === 'remove') {
    remove(list, e);
    return !ret;
  } else {
    // time_after(time, stamp) skips a stamp: it counts while stamp >= now - seconds.
    const since = now - m.seconds * 1000;
    let hits = 0;
    for (const stamp of e.stamps) {
      if (m.seconds && stamp < since) continue;
      if (!m.hitcount || ++hits >= m.hitcount) {
        ret = !ret;
        break;
      }
    }
    if (m.reap) {
      const oldest = list.entries[0];
      const updating = m.op === 'update' && ret;
      const newest = oldest?.stamps[oldest.stamps.length - 1];
      if (oldest && !(oldest === e && updating) && newest !== undefined && newest < since)
        remove(list, oldest);
    }
  }
  if (m.op === 'set' || (m.op === 'update' && ret)) {
    touch(list, e, now);
    e.ttl = ttl;
  }
  return ret;
}
