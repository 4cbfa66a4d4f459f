/**
 * A hash set's table as ip_set_hash_gen.h keeps it: the element struct hashed with jhash2 and
 * the set's initval into 2^htable_bits buckets; slots added two at a time, up to 12 a bucket,
 * after which the table doubles (mtype_add, mtype_resize); deletes that free or shrink buckets
 * (mtype_del); the member order `ipset list` dumps and the "Size in memory" the kernel books.
 */
import { ipToInt } from '../model/ip';
import { jhash2 } from './jhash';
import type { Element, IpSet, SetType } from './sets';
/** Element struct size (dsize) and the set's fixed memory, as measured on kernel 6.18. */
const DSIZE: Readonly<Record<SetType, number>> = {
  'hash:ip': 4,
  'hash:net': 8,
  'hash:ip,port': 8,
  'hash:ip,port,ip': 12,
  'hash:ip,port,net': 12,
  'bitmap:port': 0,
};
const BASE_MEMORY: Readonly<Record<SetType, number>> = {
  'hash:ip': 216,
  // Measured (an empty hash:net set, hashsize 64 and 1024): more than hash:ip for the
  // per-prefix counters (h->nets) the type keeps.
  'hash:net': 456,
  'hash:ip,port': 216,
  'hash:ip,port,ip': 208,
  'hash:ip,port,net': 464,
  'bitmap:port': 72,
};
/** struct hbucket without its slots (rcu head, size, pos, used bitmap). */
const BUCKET_HEADER = 32;
/** AHASH_INIT_SIZE: a bucket's slots grow two at a time. */
const AHASH_INIT_SIZE = 2;
/** The default bucketsize (AHASH_MAX): a full bucket of 12 makes the table grow. */
const BUCKET_SIZE = 12;
/** HTABLE_REGION_BITS: one lock region per 1024 buckets. */
const REGION_BITS = 10;
/** sizeof(struct ip_set_region): spinlock, ext_size, elements. */
const REGION_SIZE = 24;
/** ext_size(AHASH_INIT_SIZE, dsize): what the kernel books for each allocation step. */
const stepSize = (type: SetType): number => BUCKET_HEADER + AHASH_INIT_SIZE * DSIZE[type];

/** struct hbucket: `size` slots allocated, the first `slots.length` (pos) in use or deleted. */
export interface Bucket {
  size: number;
  /** Slots 0..pos-1 in order; undefined = a deleted slot (its `used` bit clear). */
  slots: (Element | undefined)[];
}

const PROTO_NUMBERS = { tcp: 6, udp: 17, sctp: 132 } as const;

/** The u32 the kernel reads from a network-order address (little-endian load on x86). */
const leIp = (ip: string): number => {
  const v = ipToInt(ip);
  return (((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >>> 8) & 0xff00) | (v >>> 24)) >>> 0;
};
const lePort = (port: number): number => ((port >>> 8) | ((port & 0xff) << 8)) >>> 0;

/** The element struct as u32 words (hash_ip4_elem, hash_ipport4_elem, …). */
function keyWords(type: SetType, e: Element): number[] {
  const proto = e.proto === undefined ? 0 : PROTO_NUMBERS[e.proto];
  switch (type) {
    case 'hash:ip':
      return [leIp(e.ip!)];
    case 'hash:net':
      // hash_net4_elem: ip, u16 padding0, u8 nomatch, u8 cidr.
      return [leIp(e.ip!), ((e.cidr ?? 32) << 24) >>> 0];
    case 'hash:ip,port':
      return [leIp(e.ip!), (lePort(e.port!) | (proto << 16)) >>> 0];
    case 'hash:ip,port,ip':
      return [leIp(e.ip!), leIp(e.ip2!), (lePort(e.port!) | (proto << 16)) >>> 0];
    case 'hash:ip,port,net':
      return [
        leIp(e.ip!),
        leIp(e.ip2!),
        (lePort(e.port!) | (((e.cidr ?? 32) - 1) << 16) | (proto << 24)) >>> 0,
      ];
    default:
      return [];
  }
}

/** fls(hashsize - 1): the hash table has 2^bits buckets. */
const htableBits = (hashsize: number): number => 32 - Math.clz32(Math.max(1, hashsize - 1));

function keyOf(set: IpSet, e: Element, bits: number): number {
  return (jhash2(keyWords(set.type, e), set.initval) & ((1 << bits) - 1)) >>> 0;
}

function bucketOf(set: IpSet, e: Element): number {
  return keyOf(set, e, htableBits(set.hashsize));
}

export function hasElement(set: IpSet, e: Element): boolean {
  if (set.type === 'bitmap:port') return set.ports.has(e.port!);
  return (set.buckets.get(bucketOf(set, e))?.slots ?? []).some((x) => x?.text === e.text);
}

/**
 * mtype_resize(): a table of 2^(bits+1) buckets, filled by walking the old one bucket by bucket,
 * slot by slot (deleted slots left behind); a bucket that would need a 13th slot makes it try
 * one more bit. The kernel books the new table's allocations afresh.
 */
function resize(set: IpSet): void {
  for (let bits = htableBits(set.hashsize) + 1; bits < 32; bits++) {
    const table = new Map<number, Bucket>();
    let extSize = 0;
    let full = false;
    for (const b of [...set.buckets.keys()].sort((x, y) => x - y)) {
      for (const e of set.buckets.get(b)!.slots) {
        if (e === undefined) continue;
        const key = keyOf(set, e, bits);
        let m = table.get(key);
        if (m === undefined) {
          table.set(key, (m = { size: AHASH_INIT_SIZE, slots: [] }));
          extSize += stepSize(set.type);
        } else if (m.slots.length >= m.size) {
          if (m.size >= BUCKET_SIZE) full = true;
          else {
            m.size += AHASH_INIT_SIZE;
            extSize += stepSize(set.type);
          }
        }
        if (full) break;
        m.slots.push(e);
      }
      if (full) break;
    }
    if (full) continue;
    set.hashsize = 2 ** bits;
    set.buckets = table;
    set.extSize = extSize;
    return;
  }
}

/**
 * mtype_add()'s maxelem check: it first compares the element's lock region with its share,
 * t->maxelem = maxelem / regions, and only when that is reached counts the whole set. So a set
 * of several regions can pass maxelem by the elements that land in emptier regions (a real
 * hash:ip of maxelem 65536 took 65537). Called only when the set holds maxelem or more.
 */
function regionIsFull(set: IpSet, e: Element): boolean {
  const bits = htableBits(set.hashsize);
  const regions = bits < REGION_BITS ? 1 : 2 ** (bits - REGION_BITS);
  // A region is 1024 consecutive buckets: which adds the kernel refused past maxelem matched
  // this, not bucket % regions (tests/kernel/ipset-elements.test.ts, 90 adds at the limit).
  const regionOf = (bucket: number): number => Math.floor(bucket / 2 ** REGION_BITS);
  const region = regionOf(bucketOf(set, e));
  let elements = 0;
  for (const [b, bucket] of set.buckets)
    if (regionOf(b) === region) for (const x of bucket.slots) if (x !== undefined) elements++;
  return elements >= Math.floor(set.maxelem / regions);
}

/**
 * mtype_add(): the first deleted slot of the bucket is reused, else a new slot at `pos`; a
 * full bucket grows by two slots, up to 12, and a full 12 makes the table grow (-EAGAIN, then
 * the add again in the new table).
 */
export function addElement(set: IpSet, e: Element): 'added' | 'exists' | 'full' {
  if (hasElement(set, e)) return 'exists';
  // mtype_add: an element already there is found before the set counts as full.
  if (set.type !== 'bitmap:port' && set.count >= set.maxelem && regionIsFull(set, e)) return 'full';
  if (set.type === 'bitmap:port') {
    set.count++;
    set.ports.add(e.port!);
    return 'added';
  }
  const b = bucketOf(set, e);
  let n = set.buckets.get(b);
  if (n === undefined) {
    set.buckets.set(b, (n = { size: AHASH_INIT_SIZE, slots: [] }));
    set.extSize += stepSize(set.type);
  }
  const free = n.slots.indexOf(undefined);
  if (free >= 0) n.slots[free] = e;
  else {
    if (n.slots.length >= n.size) {
      if (n.size >= BUCKET_SIZE) {
        resize(set);
        return addElement(set, e);
      }
      n.size += AHASH_INIT_SIZE;
      set.extSize += stepSize(set.type);
    }
    n.slots.push(e);
  }
  set.count++;
  return 'added';
}

/**
 * mtype_del(): the slot's used bit is cleared (pos drops by one when it was the last slot); a
 * bucket left with no entry is freed, and one with two or more free slots shrinks by two,
 * its entries packed to the front.
 */
export function deleteElement(set: IpSet, e: Element): 'deleted' | 'missing' {
  if (!hasElement(set, e)) return 'missing';
  set.count--;
  if (set.type === 'bitmap:port') {
    set.ports.delete(e.port!);
    return 'deleted';
  }
  const b = bucketOf(set, e);
  const n = set.buckets.get(b)!;
  const i = n.slots.findIndex((x) => x?.text === e.text);
  n.slots[i] = undefined;
  if (i + 1 === n.slots.length) n.slots.length--;
  const unused = n.slots.filter((x) => x === undefined).length;
  if (unused === n.slots.length) {
    set.extSize -= BUCKET_HEADER + n.size * DSIZE[set.type];
    set.buckets.delete(b);
  } else if (unused >= AHASH_INIT_SIZE) {
    n.size -= AHASH_INIT_SIZE;
    n.slots = n.slots.filter((x) => x !== undefined);
    set.extSize -= stepSize(set.type);
  }
  return 'deleted';
}

export function flushSet(set: IpSet): void {
  set.buckets.clear();
  set.extSize = 0;
  set.ports.clear();
  set.count = 0;
}

/** Members in the order the kernel dumps them: buckets in index order, slots in order. */
export function members(set: IpSet): string[] {
  if (set.type === 'bitmap:port') return [...set.ports].sort((a, b) => a - b).map(String);
  const out: string[] = [];
  for (const b of [...set.buckets.keys()].sort((x, y) => x - y))
    for (const e of set.buckets.get(b)!.slots) if (e !== undefined) out.push(e.text);
  return out;
}

/**
 * "Size in memory" (mtype_head): the fixed structs, one ip_set_region per 1024 buckets, and the
 * bucket memory as the kernel books it (see extSize).
 */
export function memorySize(set: IpSet): number {
  if (set.type === 'bitmap:port') {
    const bits = (set.range?.to ?? 65535) - (set.range?.from ?? 0) + 1;
    return BASE_MEMORY[set.type] + Math.ceil(bits / 64) * 8;
  }
  const regionBits = Math.max(0, htableBits(set.hashsize) - REGION_BITS);
  return BASE_MEMORY[set.type] + (2 ** regionBits - 1) * REGION_SIZE + set.extSize;
}
