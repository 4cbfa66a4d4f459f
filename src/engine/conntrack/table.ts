/**
 * The table's bookkeeping: the tuple hash (both tuplehash nodes of a confirmed entry, as
 * nf_conntrack_core.c's __nf_conntrack_hash_insert), timeouts (nf_ct_refresh_acct,
 * nf_ct_is_expired), deletion (nf_ct_delete → [DESTROY]) and the event log
 * (nf_conntrack_ecache.c → ctnetlink_conntrack_event in nf_conntrack_netlink.c).
 */
import {
  IPS,
  type CtCounters,
  type CtDir,
  type CtEntry,
  type CtEvent,
  type CtTable,
} from './model';
import type { CtTuple } from './model';
import {
  bySourceAdd,
  bySourceGet,
  bySourceRemove,
  hashDeleteIfOwned,
  hashGet,
  hashSet,
} from './tuple-hash';

/** A hash hit: the entry and which of its tuples matched. */
export interface CtHit {
  readonly entry: CtEntry;
  readonly dir: CtDir;
}

export function isConfirmed(entry: CtEntry): boolean {
  return (entry.status & IPS.CONFIRMED) !== 0;
}

/** nf_ct_is_expired(): `(s32)(ct->timeout - nfct_time_stamp) <= 0`. */
export function isExpired(entry: CtEntry, nowMs: number): boolean {
  return isConfirmed(entry) && entry.expiresAtMs <= nowMs;
}

/** nf_ct_expires() / HZ: whole seconds left, as every view prints the timeout. */
export function remainingSeconds(entry: CtEntry, nowMs: number): number {
  const ms = isConfirmed(entry) ? entry.expiresAtMs - nowMs : entry.timeoutMs;
  return ms > 0 ? Math.floor(ms / 1000) : 0;
}

/** Looks up an entry by id (confirmed or not). */
export function getEntry(table: CtTable, id: number): CtEntry | undefined {
  return table.entries[id];
}

/** Both tuplehash nodes into the hash (confirmed entries only). */
export function hashInsert(table: CtTable, entry: CtEntry): void {
  hashSet(table.hash, entry.reply, entry.id * 2 + 1);
  hashSet(table.hash, entry.orig, entry.id * 2);
}

function hashRemove(table: CtTable, entry: CtEntry): void {
  hashDeleteIfOwned(table.hash, entry.orig, entry.id);
  hashDeleteIfOwned(table.hash, entry.reply, entry.id);
}

/** The raw hash ref of a tuple (`id * 2 + direction`), expired or not. */
export function hashRef(table: CtTable, tuple: CtTuple): number | undefined {
  return hashGet(table.hash, tuple);
}

/** nf_nat_bysource: the ids of connections from the original source of `t`, oldest first. */
export function bysourceIds(table: CtTable, t: CtTuple): readonly number[] | undefined {
  return bySourceGet(table.bysource, t);
}

export function bysourceAdd(table: CtTable, entry: CtEntry): void {
  bySourceAdd(table.bysource, entry.orig, entry.id);
}

function bysourceRemove(table: CtTable, entry: CtEntry): void {
  bySourceRemove(table.bysource, entry.orig, entry.id);
}

/**
 * __nf_conntrack_find_get(): the confirmed entry holding `tuple`. An entry found expired is
 * collected on the spot (nf_ct_gc_expired) and the lookup misses, as in the kernel.
 */
export function findTuple(table: CtTable, tuple: CtTuple, nowMs: number): CtHit | undefined {
  const ref = findRef(table, tuple, nowMs);
  if (ref < 0) return undefined;
  return { entry: table.entries[Math.floor(ref / 2)]!, dir: ref % 2 === 0 ? 'ORIGINAL' : 'REPLY' };
}

/**
 * findTuple without the hit object (the packet path asks at every conntrack hook): the live
 * entry's ref, `id * 2 + direction`, or -1.
 */
export function findRef(table: CtTable, tuple: CtTuple, nowMs: number): number {
  const ref = hashGet(table.hash, tuple);
  if (ref === undefined) return -1;
  const entry = table.entries[Math.floor(ref / 2)];
  if (entry === undefined) return -1;
  if (isExpired(entry, nowMs)) {
    destroyEntry(table, entry, nowMs, { expired: true });
    return -1;
  }
  return ref;
}

/**
 * The live confirmed entry holding `tuple`, read without touching the table: unlike findTuple
 * an expired entry is not collected. For explanations of a packet that conntrack does not see
 * (a frame bridged with bridge-nf-call-iptables=0): reading the table must not change it.
 */
export function peekTuple(table: CtTable, tuple: CtTuple, nowMs: number): CtHit | undefined {
  const ref = hashGet(table.hash, tuple);
  const entry = ref === undefined ? undefined : table.entries[Math.floor(ref / 2)];
  if (ref === undefined || entry === undefined || isExpired(entry, nowMs)) return undefined;
  return { entry, dir: ref % 2 === 0 ? 'ORIGINAL' : 'REPLY' };
}

/** Arms the timeout: relative while unconfirmed, a deadline once confirmed (nf_ct_refresh). */
export function armTimeout(table: CtTable, entry: CtEntry, timeoutMs: number, nowMs: number): void {
  entry.timeoutMs = timeoutMs;
  if (!isConfirmed(entry)) return;
  entry.expiresAtMs = nowMs + timeoutMs;
  if (entry.expiresAtMs < table.nextExpiryMs) table.nextExpiryMs = entry.expiresAtMs;
}

/** How an event is rendered: which optional attributes the netlink message carried. */
export interface EventOptions {
  /** IPCT_PROTOINFO was among the cached events (the TCP state is dumped). */
  readonly protoinfo?: boolean;
  /** IPCT_MARK was among the cached events. */
  readonly markEvent?: boolean;
  readonly portid?: number;
  /** DESTROY of an expired entry: the timeout attribute is skipped when zero. */
  readonly expired?: boolean;
}

function copyCounters(entry: CtEntry): [CtCounters, CtCounters] {
  return [{ ...entry.counters[0] }, { ...entry.counters[1] }];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A CtEvent as a class instance rather than a literal: the table keeps thousands of events
 * (maxEvents per node), and the optional fields added after a literal's seven go to a
 * separate property array, one more object per event; a constructor's objects are given room
 * for them in the object itself. The optional fields are declared, not initialised: an absent
 * one stays absent (JSON, key order and `in` as with the literal).
 */
class EventRecord implements CtEvent {
  declare state?: NonNullable<CtEvent['state']>;
  declare timeoutS?: number;
  declare mark?: number;
  declare counters?: NonNullable<CtEvent['counters']>;
  declare portid?: number;
  constructor(
    readonly seq: number,
    readonly atMs: number,
    readonly type: CtEvent['type'],
    readonly id: number,
    readonly orig: CtEvent['orig'],
    readonly reply: CtEvent['reply'],
    readonly status: number,
  ) {}
}

/** Appends an event as ctnetlink_conntrack_event() would have built it. */
export function recordEvent(
  table: CtTable,
  type: CtEvent['type'],
  entry: CtEntry,
  nowMs: number,
  opts: EventOptions = {},
): void {
  const destroy = type === 'DESTROY';
  const timeoutS = opts.expired ? 0 : remainingSeconds(entry, nowMs);
  const withState = entry.tcp !== undefined && (destroy || type === 'NEW' || opts.protoinfo);
  // Field by field (several events per connection), in the order conditional spreads would
  // give, without their temporary objects.
  const event: Mutable<CtEvent> = new EventRecord(
    table.nextEventSeq++,
    nowMs,
    type,
    entry.id,
    entry.orig,
    entry.reply,
    entry.status,
  );
  if (withState && entry.tcp) event.state = entry.tcp.state;
  if (!destroy || timeoutS > 0) event.timeoutS = timeoutS;
  if (entry.mark !== 0 || opts.markEvent) event.mark = entry.mark;
  if (destroy && table.config.acct) event.counters = copyCounters(entry);
  if (opts.portid !== undefined) event.portid = opts.portid;
  table.events.push(event);
  const max = table.config.maxEvents;
  if (table.events.length > max + (max >> 2)) table.events.splice(0, table.events.length - max);
}

/**
 * nf_ct_delete(): unhashes the entry and, if it had been confirmed, reports [DESTROY].
 * Unconfirmed entries (ctDrop) vanish silently, as they were never announced.
 */
export function destroyEntry(
  table: CtTable,
  entry: CtEntry,
  nowMs: number,
  opts: { readonly expired?: boolean; readonly portid?: number } = {},
): void {
  if (table.entries[entry.id] !== entry) return;
  if (isConfirmed(entry)) {
    recordEvent(table, 'DESTROY', entry, nowMs, opts);
    hashRemove(table, entry);
    table.count--;
  }
  if (entry.status & IPS.SRC_NAT_DONE) bysourceRemove(table, entry);
  entry.status |= IPS.DYING;
  delete table.entries[entry.id];
}

/**
 * The garbage collector (gc_worker) made exact: removes every confirmed entry whose deadline
 * has passed, reporting [DESTROY] without a timeout. Returns the ids removed.
 */
export function ctExpire(table: CtTable, nowMs: number): number[] {
  if (nowMs < table.nextExpiryMs) return [];
  const removed: number[] = [];
  let next = Number.MAX_SAFE_INTEGER;
  for (const entry of Object.values(table.entries)) {
    if (!isConfirmed(entry)) continue;
    if (entry.expiresAtMs <= nowMs) {
      destroyEntry(table, entry, nowMs, { expired: true });
      removed.push(entry.id);
    } else if (entry.expiresAtMs < next) next = entry.expiresAtMs;
  }
  table.nextExpiryMs = next;
  return removed;
}
