/**
 * The packet path of connection tracking (nf_conntrack_core.c): nf_conntrack_in() at
 * PREROUTING/OUTPUT looks the packet up or allocates an unconfirmed entry (init_conntrack),
 * runs the protocol tracker and sets the packet's ctinfo; nf_conntrack_confirm() at the end of
 * POSTROUTING/INPUT inserts the entry into the hash and announces it ([NEW]).
 */
import { IPS, type CtDir, type CtEntry, type CtTable, type PortTuple } from './model';
import {
  armTimeout,
  destroyEntry,
  findRef,
  findTuple,
  hashInsert,
  hashRef,
  isConfirmed,
  recordEvent,
} from './table';
import { tcpFlagsValid, tcpNew, tcpPacket } from './tcp';
import {
  ICMP_ERROR_TYPES,
  ICMP_NEW_TYPES,
  invertTuple,
  tupleKey,
  tupleOf,
  type CtPacket,
} from './tuple';

/** The packet's conntrack state as xt_conntrack --ctstate sees it. */
export type CtStateName = 'NEW' | 'ESTABLISHED' | 'RELATED' | 'INVALID' | 'UNTRACKED';

/** The outcome of nf_conntrack_in() for one packet. */
export type CtResult =
  | {
      readonly kind: 'tracked';
      readonly ctstate: 'NEW' | 'ESTABLISHED' | 'RELATED';
      readonly dir: CtDir;
      /** The connection; still usable for NAT when `killed` (the packet holds a reference). */
      readonly entry: CtEntry;
      /** This packet allocated the (unconfirmed) entry. */
      readonly created: boolean;
      /** The tracker let the packet pass without touching the entry (e.g. an ignored SYN). */
      readonly ignored?: string;
      /** The entry was deleted while handling this packet (RST as the only reply). */
      readonly killed?: boolean;
      /** A closed entry with the same tuple was killed first (SYN reopening TIME_WAIT/CLOSE). */
      readonly replacedId?: number;
    }
  | { readonly kind: 'invalid'; readonly ctstate: 'INVALID'; readonly reason: string }
  | { readonly kind: 'untracked'; readonly ctstate: 'UNTRACKED' };

type Tracked = Extract<CtResult, { kind: 'tracked' }>;
type Untrackable = Extract<CtResult, { kind: 'invalid' }>;

/**
 * nf_conntrack_in() gave the packet no conntrack: counted as `invalid`, or as `error` when the
 * ICMP error handler refused it (nf_conntrack_handle_icmp; stats.ts).
 */
function untrackable(table: CtTable, reason: string, counter: 'invalid' | 'error'): Untrackable {
  table.stats[counter]++;
  return { kind: 'invalid', ctstate: 'INVALID', reason };
}

/** A TCP or UDP packet with both ports: the packet reads as its own tuple (PortTuple's fields). */
function hasPorts(p: CtPacket): p is CtPacket & PortTuple {
  return p.sport !== undefined && p.dport !== undefined;
}
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Default skb->len when the caller gives none: IP + transport header + payload. */
function packetLength(p: CtPacket): number {
  if (p.lengthBytes !== undefined) return p.lengthBytes;
  return (p.proto === 'tcp' ? 40 : 28) + (p.payloadBytes ?? 0);
}

/** nf_ct_refresh_acct(): re-arm the timeout and count the packet in its direction. */
function refreshAcct(
  table: CtTable,
  entry: CtEntry,
  dir: CtDir,
  p: CtPacket,
  timeoutMs: number,
  nowMs: number,
): void {
  armTimeout(table, entry, timeoutMs, nowMs);
  acct(entry, dir, p);
}

/** nf_ct_acct_update(): one packet of skb->len bytes in its direction. */
function acct(entry: CtEntry, dir: CtDir, p: CtPacket): void {
  const c = entry.counters[dir === 'ORIGINAL' ? 0 : 1];
  c.packets += 1;
  c.bytes += packetLength(p);
}

function allocate(table: CtTable, packet: CtPacket, nowMs: number): CtEntry | string {
  const orig = tupleOf(packet);
  const reply = orig && invertTuple(orig);
  if (orig === undefined || reply === undefined) return 'no reply tuple for this packet';
  const entry: CtEntry = {
    id: table.nextId++,
    orig,
    reply,
    status: 0,
    timeoutMs: 0,
    expiresAtMs: 0,
    createdMs: nowMs,
    mark: 0,
    zone: 0,
    counters: [
      { packets: 0, bytes: 0 },
      { packets: 0, bytes: 0 },
    ],
  };
  if (orig.proto === 'tcp') {
    const track = tcpNew(table, packet.tcpFlags ?? {});
    if (typeof track === 'string') return track;
    entry.tcp = track;
  } else if (orig.proto === 'icmp' && !ICMP_NEW_TYPES.has(orig.type)) {
    return `ICMP type ${orig.type} cannot create a connection`;
  }
  table.entries[entry.id] = entry;
  return entry;
}

/** nf_conntrack_icmpv4_error(): relate an ICMP error to the connection it is about. */
function icmpError(table: CtTable, packet: CtPacket, nowMs: number): CtResult {
  const inner = packet.icmpInner && tupleOf(packet.icmpInner);
  const lookup = inner && invertTuple(inner);
  const hit = lookup && findTuple(table, lookup, nowMs);
  if (!hit) return untrackable(table, 'ICMP error for no connection', 'error');
  const tuple = hit.dir === 'ORIGINAL' ? hit.entry.orig : hit.entry.reply;
  if (tuple.dst !== packet.dst) return untrackable(table, 'ICMP error to another address', 'error');
  return { kind: 'tracked', ctstate: 'RELATED', dir: hit.dir, entry: hit.entry, created: false };
}

/**
 * nf_conntrack_in(): looks `packet` up, or allocates an unconfirmed entry for it, and runs
 * the protocol tracker. New entries stay invisible until {@link ctConfirm}.
 */
export function ctLookupOrCreate(
  table: CtTable,
  packet: CtPacket,
  nowMs: number,
  opts: { readonly notrack?: boolean } = {},
): CtResult {
  if (opts.notrack) return { kind: 'untracked', ctstate: 'UNTRACKED' };
  if (packet.proto === 'icmp' && ICMP_ERROR_TYPES.has(packet.icmpType ?? 8)) {
    return icmpError(table, packet, nowMs);
  }
  // A TCP/UDP packet has the fields of its tuple under the tuple's names: the lookup reads them
  // from the packet (allocate() builds the tuples a new entry keeps).
  const tuple = packet.proto !== 'icmp' && hasPorts(packet) ? packet : tupleOf(packet);
  if (tuple === undefined) return untrackable(table, 'no ports', 'invalid');
  if (packet.proto === 'tcp' && !tcpFlagsValid(packet.tcpFlags ?? {})) {
    return untrackable(table, 'invalid tcp flag combination', 'invalid');
  }
  let replacedId: number | undefined;
  for (;;) {
    const ref = findRef(table, tuple, nowMs);
    let entry: CtEntry;
    let dir: CtDir = 'ORIGINAL';
    if (ref >= 0) {
      entry = table.entries[Math.floor(ref / 2)]!;
      if (ref % 2 === 1) dir = 'REPLY';
    } else {
      const made = allocate(table, packet, nowMs);
      if (typeof made === 'string') return untrackable(table, made, 'invalid');
      entry = made;
    }
    const created = ref < 0;
    const seenReply = (entry.status & IPS.SEEN_REPLY) !== 0;
    const ctstate = dir === 'REPLY' || seenReply ? 'ESTABLISHED' : 'NEW';
    let protoinfo = false;
    let changed = false;
    let ignored: string | undefined;
    if (entry.tcp) {
      const out = tcpPacket(table, entry, dir, packet);
      if (out.kind === 'invalid') {
        if (created) delete table.entries[entry.id];
        return untrackable(table, out.reason, 'invalid');
      }
      if (out.kind === 'repeat') {
        replacedId = entry.id;
        destroyEntry(table, entry, nowMs);
        continue;
      }
      if (out.kind === 'kill') {
        acct(entry, dir, packet);
        destroyEntry(table, entry, nowMs);
        return { kind: 'tracked', ctstate, dir, entry, created, killed: true };
      }
      if (out.kind === 'ignore') ignored = out.reason;
      else {
        protoinfo = out.old !== entry.tcp.state;
        if (
          seenReply &&
          !(entry.status & IPS.ASSURED) &&
          (out.old === 'SYN_RECV' || out.old === 'ESTABLISHED') &&
          entry.tcp.state === 'ESTABLISHED'
        ) {
          entry.status |= IPS.ASSURED;
          changed = true;
        }
        if (!out.noRefresh) refreshAcct(table, entry, dir, packet, out.timeoutMs, nowMs);
      }
    } else if (entry.orig.proto === 'udp') {
      changed = udpPacket(table, entry, dir, packet, nowMs);
    } else {
      refreshAcct(table, entry, dir, packet, table.config.timeouts.icmp * 1000, nowMs);
    }
    if (dir === 'REPLY' && !seenReply) {
      entry.status |= IPS.SEEN_REPLY;
      changed = true;
    }
    if (isConfirmed(entry) && (changed || protoinfo)) {
      recordEvent(table, 'UPDATE', entry, nowMs, { protoinfo });
    }
    // Field by field, in the order conditional spreads would give (every packet at every
    // conntrack hook), without their temporary objects.
    const r: Mutable<Tracked> = { kind: 'tracked', ctstate, dir, entry, created };
    if (ignored !== undefined) r.ignored = ignored;
    if (replacedId !== undefined) r.replacedId = replacedId;
    return r;
  }
}

/**
 * nf_conntrack_udp_packet(): 30 s until both directions were seen; after that still 30 s while
 * the entry is younger than 2 s (stream_ts), then the stream timeout and ASSURED.
 * Returns whether ASSURED was set.
 */
function udpPacket(
  table: CtTable,
  entry: CtEntry,
  dir: CtDir,
  p: CtPacket,
  nowMs: number,
): boolean {
  const t = table.config.timeouts;
  if (!(entry.status & IPS.SEEN_REPLY)) {
    refreshAcct(table, entry, dir, p, t.udp * 1000, nowMs);
    return false;
  }
  const stream = nowMs > entry.createdMs + 2000;
  refreshAcct(table, entry, dir, p, (stream ? t.udpStream : t.udp) * 1000, nowMs);
  if (stream && !(entry.status & IPS.ASSURED)) {
    entry.status |= IPS.ASSURED;
    return true;
  }
  return false;
}

/** What nf_conntrack_confirm() did. */
export type ConfirmResult =
  | { readonly ok: true; readonly inserted: boolean }
  | { readonly ok: false; readonly reason: string };

/**
 * __nf_conntrack_confirm(): inserts an unconfirmed entry into the hash (both tuples), arms its
 * timeout from now and reports [NEW]. A tuple already in the hash is a clash: the entry is
 * freed and the packet must be dropped (insert_failed). Confirming a confirmed entry is a no-op.
 */
export function ctConfirm(table: CtTable, entry: CtEntry, nowMs: number): ConfirmResult {
  if (table.entries[entry.id] !== entry) return { ok: false, reason: 'entry is gone' };
  if (isConfirmed(entry)) return { ok: true, inserted: false };
  for (const t of [entry.orig, entry.reply]) {
    const ref = hashRef(table, t);
    if (ref !== undefined && findTuple(table, t, nowMs)) {
      delete table.entries[entry.id];
      // nf_ct_resolve_clash()'s drop: label (the lab resolves no clash, see stats.ts).
      table.stats.drop++;
      table.stats.insert_failed++;
      return { ok: false, reason: `tuple ${tupleKey(t)} clashes with #${Math.floor(ref / 2)}` };
    }
  }
  entry.status |= IPS.CONFIRMED;
  armTimeout(table, entry, entry.timeoutMs, nowMs);
  hashInsert(table, entry);
  table.count++;
  recordEvent(table, 'NEW', entry, nowMs);
  return { ok: true, inserted: true };
}

/** The packet carrying an unconfirmed entry was dropped: the entry is freed, unannounced. */
export function ctDrop(table: CtTable, entry: CtEntry): boolean {
  if (table.entries[entry.id] !== entry || isConfirmed(entry)) return false;
  delete table.entries[entry.id];
  return true;
}

/** nf_ct_delete() of a confirmed entry, e.g. by `conntrack -D` (`portid` of the requester). */
export function ctDelete(table: CtTable, entry: CtEntry, nowMs: number, portid?: number): boolean {
  if (table.entries[entry.id] !== entry) return false;
  destroyEntry(table, entry, nowMs, portid !== undefined ? { portid } : {});
  return true;
}

/** CONNMARK --set-mark: ct->mark changes and IPCT_MARK is reported for confirmed entries. */
export function ctSetMark(table: CtTable, entry: CtEntry, mark: number, nowMs: number): void {
  if (entry.mark === mark >>> 0) return;
  entry.mark = mark >>> 0;
  if (isConfirmed(entry)) recordEvent(table, 'UPDATE', entry, nowMs, { markEvent: true });
}
