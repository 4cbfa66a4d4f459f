/**
 * NAT bindings on conntrack entries, as nf_nat_core.c keeps them: nf_nat_setup_info() picks a
 * unique tuple (get_unique_tuple, find_appropriate_src, nf_nat_l4proto_unique_tuple) and
 * rewrites the reply tuple; nf_nat_packet() rewrites each packet from the stored binding.
 * MASQUERADE (nf_nat_masquerade.c) is SNAT to the address the caller's routing chose.
 *
 * Not modelled: address ranges (--to-source a-b, find_best_ips_proto's hashing): one address
 * per binding; NF_NAT_RANGE_PROTO_OFFSET; nf_nat_used_tuple_harder()'s eviction of TIME_WAIT
 * entries on the last attempts; rewriting the embedded header of ICMP errors.
 */
import type { Rng } from '../model/runtime';
import { IPS, type CtDir, type CtEntry, type CtTable, type CtTuple } from './model';
import { bysourceAdd, bysourceIds, findTuple, isConfirmed } from './table';
import { invertTuple, l4Src, mustInvert, tupleEqual, type CtPacket } from './tuple';

/** NF_NAT_MANIP_SRC (SNAT, MASQUERADE) or NF_NAT_MANIP_DST (DNAT). */
export type NatManip = 'snat' | 'dnat';

/** The netfilter hooks of IPv4. */
export type NatHook = 'PREROUTING' | 'INPUT' | 'FORWARD' | 'OUTPUT' | 'POSTROUTING';

/** struct nf_nat_range2 with a single address. */
export interface NatRange {
  readonly addr: string;
  /** NF_NAT_RANGE_PROTO_SPECIFIED: the first (or only) port / ICMP id. */
  readonly port?: number;
  /** Last port of the range (default `port`). */
  readonly portMax?: number;
  /** --random (NF_NAT_RANGE_PROTO_RANDOM). */
  readonly random?: boolean;
  /** --random-fully (NF_NAT_RANGE_PROTO_RANDOM_FULLY). */
  readonly randomFully?: boolean;
}

/** HOOK2MANIP(): PREROUTING/OUTPUT change the destination, POSTROUTING/INPUT the source. */
export function hookManip(hook: NatHook): NatManip | undefined {
  if (hook === 'PREROUTING' || hook === 'OUTPUT') return 'dnat';
  if (hook === 'POSTROUTING' || hook === 'INPUT') return 'snat';
  return undefined;
}

/** !nf_nat_initialized(): the nat chain of this manip type must still be consulted. */
export function natNeeded(entry: CtEntry, manip: NatManip): boolean {
  return (entry.status & (manip === 'snat' ? IPS.SRC_NAT_DONE : IPS.DST_NAT_DONE)) === 0;
}

export type NatSetupResult =
  | {
      readonly kind: 'bound';
      /** The original direction's tuple as it leaves the box (inverse of the new reply). */
      readonly tuple: CtTuple;
      /** The tuple changed: IPS_SRC_NAT / IPS_DST_NAT was set. */
      readonly changed: boolean;
    }
  /** nf_nat_setup_info() on a confirmed entry does nothing (NF_ACCEPT). */
  | { readonly kind: 'confirmed' }
  /** Already initialised for this manip (the kernel WARNs and drops the packet). */
  | { readonly kind: 'drop'; readonly reason: string };

interface Range {
  readonly addr: string;
  readonly min?: number;
  readonly max?: number;
  readonly randomAll: boolean;
}

function withL4(t: CtTuple, manip: NatManip, value: number): CtTuple {
  if (t.proto === 'icmp') return { ...t, id: value };
  return manip === 'snat' ? { ...t, sport: value } : { ...t, dport: value };
}

function withAddr(t: CtTuple, manip: NatManip, addr: string): CtTuple {
  return manip === 'snat' ? { ...t, src: addr } : { ...t, dst: addr };
}

function l4Key(t: CtTuple, manip: NatManip): number {
  if (t.proto === 'icmp') return t.id;
  return manip === 'snat' ? t.sport : t.dport;
}

/** l4proto_in_range(). */
function l4InRange(t: CtTuple, manip: NatManip, r: Range): boolean {
  const v = l4Key(t, manip);
  return r.min !== undefined && r.max !== undefined && v >= r.min && v <= r.max;
}

/** in_range(): would a source mapping to `t` satisfy the range? */
function inRange(t: CtTuple, r: Range): boolean {
  if (t.src !== r.addr) return false;
  return r.min === undefined || l4InRange(t, 'snat', r);
}

/**
 * One NAT setup: the table, the entry being set up, and the random source; `used()` is
 * nf_nat_used_tuple(): is the reply of this candidate already in the hash (not by us)?
 */
class Picker {
  constructor(
    private readonly table: CtTable,
    private readonly self: CtEntry,
    private readonly rng: Rng,
    private readonly nowMs: number,
  ) {}

  used(t: CtTuple, counted = true): boolean {
    const reply = invertTuple(t);
    const hit = reply && findTuple(this.table, reply, this.nowMs);
    if (hit === undefined || hit.entry === this.self) return false;
    // nf_conntrack_tuple_taken() counts `found` for every candidate it turns down (stats.ts).
    if (counted) this.table.stats.found++;
    return true;
  }

  /**
   * nf_nat_used_tuple_harder() (Linux 6.5+): in the last NF_NAT_HARDER_THRESH (128 / 4)
   * attempts for a TCP SYN it looks the reply up with nf_conntrack_find_get(), which counts
   * no `found`, to evict a TIME_WAIT entry whose sequence numbers have advanced. The lab keeps
   * no sequence numbers, so it evicts nothing: the tuple stays taken.
   */
  usedHarder(t: CtTuple, attemptsLeft: number): boolean {
    const harder = attemptsLeft <= 32 && t.proto === 'tcp' && this.self.tcp?.state === 'SYN_SENT';
    return this.used(t, !harder);
  }

  u16(): number {
    return this.rng.nextU32() & 0xffff;
  }

  /** find_appropriate_src(): reuse the mapping of a connection from the same source. */
  appropriateSrc(orig: CtTuple, r: Range): CtTuple | undefined {
    const ids = bysourceIds(this.table, orig) ?? [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const ct = this.table.entries[ids[i] ?? -1];
      if (ct === undefined || ct === this.self) continue;
      if (ct.orig.proto !== orig.proto || l4Src(ct.orig) !== l4Src(orig)) continue;
      const mapped = mustInvert(ct.reply);
      // "Copy source part from reply tuple", keep our destination.
      let result: CtTuple = orig;
      if (mapped.proto === 'icmp' && orig.proto === 'icmp')
        result = { ...orig, src: mapped.src, id: mapped.id };
      else if (mapped.proto !== 'icmp' && orig.proto !== 'icmp')
        result = { ...orig, src: mapped.src, sport: mapped.sport };
      if (inRange(result, r)) return result;
    }
    return undefined;
  }

  /** nf_nat_l4proto_unique_tuple(): search the port (or ICMP id) space for a free tuple. */
  uniqueL4(t: CtTuple, r: Range, manip: NatManip): CtTuple {
    let min: number;
    let size: number;
    if (r.min === undefined || r.max === undefined) {
      if (t.proto === 'icmp') [min, size] = [0, 65536];
      else {
        if (manip === 'dnat') return t; // "If it's dst rewrite, can't change port"
        const port = l4Key(t, manip);
        if (port < 512) [min, size] = [1, 511];
        else if (port < 1024) [min, size] = [600, 424];
        else [min, size] = [1024, 64512];
      }
    } else {
      min = Math.min(r.min, r.max);
      size = Math.abs(r.max - r.min) + 1;
    }
    let off = this.u16();
    let attempts = Math.min(size, 128);
    let cand = t;
    for (;;) {
      for (let i = 0; i < attempts; i++, off = (off + 1) & 0xffff) {
        cand = withL4(t, manip, min + (off % size));
        if (!this.usedHarder(cand, attempts - i)) return cand;
      }
      if (attempts >= size || attempts < 16) return cand;
      attempts = Math.floor(attempts / 2);
      off = this.u16();
    }
  }

  /** get_unique_tuple(). */
  unique(orig: CtTuple, r: Range, manip: NatManip): CtTuple {
    if (manip === 'snat' && !r.randomAll) {
      if (inRange(orig, r)) {
        if (!this.used(orig)) return orig;
      } else {
        const found = this.appropriateSrc(orig, r);
        if (found && !this.used(found)) return found;
      }
    }
    const t = withAddr(orig, manip, r.addr); // find_best_ips_proto with one address
    if (!r.randomAll) {
      if (r.min !== undefined && r.max !== undefined) {
        if (l4InRange(t, manip, r) && (r.min === r.max || !this.used(t))) return t;
      } else if (!this.used(t)) return t;
    }
    return this.uniqueL4(t, r, manip);
  }
}

/**
 * nf_nat_setup_info(): binds `manip` on an unconfirmed entry. `range` null is the null
 * binding (__nf_nat_alloc_null_binding: the current address, any port) recorded when no nat
 * rule matched, so that the nat chain is never consulted again for this connection.
 */
export function natSetup(
  table: CtTable,
  entry: CtEntry,
  manip: NatManip,
  range: NatRange | null,
  rng: Rng,
  nowMs: number,
): NatSetupResult {
  if (isConfirmed(entry)) return { kind: 'confirmed' };
  if (!natNeeded(entry, manip)) return { kind: 'drop', reason: `${manip} already set up` };
  const r: Range =
    range === null
      ? { addr: manip === 'snat' ? entry.reply.dst : entry.reply.src, randomAll: false }
      : {
          addr: range.addr,
          ...(range.port !== undefined
            ? { min: range.port, max: range.portMax ?? range.port }
            : {}),
          randomAll: range.random === true || range.randomFully === true,
        };
  const current = mustInvert(entry.reply);
  const next = new Picker(table, entry, rng, nowMs).unique(current, r, manip);
  const changed = !tupleEqual(next, current);
  if (changed) {
    entry.reply = mustInvert(next);
    entry.status |= manip === 'snat' ? IPS.SRC_NAT : IPS.DST_NAT;
  }
  entry.status |= manip === 'snat' ? IPS.SRC_NAT_DONE : IPS.DST_NAT_DONE;
  if (manip === 'snat') bysourceAdd(table, entry);
  return { kind: 'bound', tuple: next, changed };
}

/** One header field nf_nat_manip_pkt() rewrote. */
export interface NatChange {
  readonly field: 'src' | 'dst' | 'sport' | 'dport' | 'icmpId';
  readonly from: string | number;
  readonly to: string | number;
}

export interface NatPacketResult {
  readonly packet: CtPacket;
  /** The manipulation done at this hook, if any. */
  readonly manip?: NatManip;
  readonly changes: readonly NatChange[];
}

/**
 * nf_nat_packet(): at a DST hook (PREROUTING, OUTPUT) an original-direction packet gets its
 * destination rewritten if the entry is DNATed; at a SRC hook (POSTROUTING, INPUT) its source
 * if SNATed. Reply packets are inverted: destination restored at DST hooks if SNATed (de-
 * masquerade), source restored at SRC hooks if DNATed (un-DNAT). The new values come from the
 * inverse of the other direction's tuple.
 */
export function natApplies(entry: CtEntry, dir: CtDir, hook: NatHook): boolean {
  const manip = hookManip(hook);
  if (manip === undefined) return false;
  const srcBit = dir === 'ORIGINAL' ? IPS.SRC_NAT : IPS.DST_NAT;
  const dstBit = dir === 'ORIGINAL' ? IPS.DST_NAT : IPS.SRC_NAT;
  return (entry.status & (manip === 'snat' ? srcBit : dstBit)) !== 0;
}

/**
 * nf_nat_packet(): rewrites `packet` from the entry's binding for this hook's manip type
 * (natApplies says whether there is one: without, the packet is returned unchanged).
 */
export function natPacket(
  entry: CtEntry,
  dir: CtDir,
  hook: NatHook,
  packet: CtPacket,
): NatPacketResult {
  const manip = hookManip(hook);
  if (manip === undefined || !natApplies(entry, dir, hook)) return { packet, changes: [] };
  const target = mustInvert(dir === 'ORIGINAL' ? entry.reply : entry.orig);
  // A copy (Object.assign: the spread's keys in the spread's order) changed field by field.
  const next = { ...packet } as unknown as Record<string, unknown>;
  const changes: NatChange[] = [];
  if (manip === 'snat') rewrite(next, changes, 'src', target.src);
  else rewrite(next, changes, 'dst', target.dst);
  if (packet.icmpInner === undefined) {
    if (target.proto === 'icmp') rewrite(next, changes, 'icmpId', target.id);
    else if (manip === 'snat') rewrite(next, changes, 'sport', target.sport);
    else rewrite(next, changes, 'dport', target.dport);
  }
  return { packet: next as unknown as CtPacket, manip, changes };
}

/** Sets a field the packet has to a new value, noting the change. */
function rewrite(
  next: Record<string, unknown>,
  changes: NatChange[],
  field: NatChange['field'],
  to: string | number,
): void {
  const from = next[field] as string | number | undefined;
  if (from === undefined || from === to) return;
  changes.push({ field, from, to });
  next[field] = to;
}
