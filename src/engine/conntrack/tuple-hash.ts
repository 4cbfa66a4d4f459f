/**
 * The tuple hash and nf_nat_bysource as JSON-safe nested records. The kernel hashes a tuple's
 * fields (hash_conntrack_raw) without printing them; keying one flat record by a string built
 * from the five fields cost every packet a string concatenation (two numbers formatted) and the
 * hashing of that new string — for both tuples of every connection, at every node. Nested by
 * protocol, source and destination (strings the packet already holds) with the per-protocol
 * part packed into one integer, a lookup builds nothing. Each level counts its keys under
 * COUNT (no address, protocol or integer is spelled '#'), so an emptied level is deleted at
 * once, without enumerating its keys: an empty table has an empty `hash` and `bysource`, and
 * the records do not grow as connections come and go. The answers are the flat record's
 * (tuple-hash.test.ts).
 */
import type { CtTuple } from './model';
import { l4Src } from './tuple';

/** How many keys (besides itself) a level holds. */
const COUNT = '#';

/**
 * A level of the records: a key's value, and COUNT. Plain objects (not Maps), so that a table
 * survives a JSON round trip.
 */
interface Level<T> {
  [key: string]: T | number;
}

/** ref = `id * 2 + direction` (0 ORIGINAL, 1 REPLY) by protocol, source, destination, l4 key. */
export type TupleHash = Level<Level<Level<Level<number>>>>;

/** nf_nat_bysource: ids by protocol, source address and source port (or ICMP id). */
export type BySource = Level<Level<Level<number[]>>>;

export function emptyTupleHash(): TupleHash {
  return newLevel();
}

export function emptyBySource(): BySource {
  return newLevel();
}

/**
 * A level without a prototype: V8 keeps such an object as a hash table from the start, so every
 * level has one shape and a lookup is one probe, however many addresses the levels were given.
 * (A literal would get a hidden class per set of addresses, and the lookups would go
 * megamorphic.) A JSON copy has ordinary objects, which answer the same.
 */
function newLevel<T>(): Level<T> {
  const level = Object.create(null) as Level<T>;
  level[COUNT] = 0;
  return level;
}

/** The per-protocol part as one integer: both ports, or the ICMP type, code and id. */
function l4Key(t: CtTuple): number {
  return t.proto === 'icmp' ? (t.type * 256 + t.code) * 65536 + t.id : t.sport * 65536 + t.dport;
}

function get<T>(level: Level<T> | undefined, key: string | number): T | undefined {
  // COUNT is never asked for: keys are protocols, addresses and integers.
  return level?.[key] as T | undefined;
}

/** The level under `key`, created (and counted) when missing. */
function child<T>(level: Level<Level<T>>, key: string | number): Level<T> {
  let c = level[key] as Level<T> | undefined;
  if (c === undefined) {
    c = newLevel<T>();
    level[key] = c;
    (level[COUNT] as number)++;
  }
  return c;
}

/** Deletes `key` from `level`; whether the level is now empty. */
function remove(level: Level<unknown>, key: string | number): boolean {
  delete level[key];
  return --(level[COUNT] as number) === 0;
}

export function hashGet(hash: TupleHash, t: CtTuple): number | undefined {
  // One property access per level, each its own site (a generic getter made every level's
  // lookup megamorphic). COUNT is never asked for: keys are protocols, addresses, integers.
  const bySrc = hash[t.proto] as Level<Level<Level<number>>> | undefined;
  if (bySrc === undefined) return undefined;
  const byDst = bySrc[t.src] as Level<Level<number>> | undefined;
  if (byDst === undefined) return undefined;
  const refs = byDst[t.dst] as Level<number> | undefined;
  if (refs === undefined) return undefined;
  return refs[l4Key(t)];
}

export function hashSet(hash: TupleHash, t: CtTuple, ref: number): void {
  const refs = child(child(child(hash, t.proto), t.src), t.dst);
  const key = l4Key(t);
  if (refs[key] === undefined) (refs[COUNT] as number)++;
  refs[key] = ref;
}

/** Deletes the tuple's ref when it belongs to entry `id` (ref = id * 2 + direction). */
export function hashDeleteIfOwned(hash: TupleHash, t: CtTuple, id: number): void {
  const bySrc = get(hash, t.proto);
  const byDst = get(bySrc, t.src);
  const refs = get(byDst, t.dst);
  const key = l4Key(t);
  const ref = get(refs, key);
  if (ref === undefined || Math.floor(ref / 2) !== id) return;
  if (remove(refs!, key) && remove(byDst!, t.dst) && remove(bySrc!, t.src)) remove(hash, t.proto);
}

export function bySourceGet(bysource: BySource, t: CtTuple): readonly number[] | undefined {
  return get(get(get(bysource, t.proto), t.src), l4Src(t));
}

export function bySourceAdd(bysource: BySource, t: CtTuple, id: number): void {
  const ports = child(child(bysource, t.proto), t.src);
  const key = l4Src(t);
  const ids = ports[key] as number[] | undefined;
  if (ids === undefined) {
    // A list of one (most sources have one connection): `[]` then push gets room for 17.
    ports[key] = [id];
    (ports[COUNT] as number)++;
  } else ids.push(id);
}

/**
 * Takes `id` out of the tuple's source list, the others kept in order. A new list, not the
 * old one shortened: a caller may be iterating the old one.
 */
export function bySourceRemove(bysource: BySource, t: CtTuple, id: number): void {
  const bySrc = get(bysource, t.proto);
  const ports = get(bySrc, t.src);
  const key = l4Src(t);
  const ids = get(ports, key);
  if (ids === undefined) return;
  if (ids.length === 1 && ids[0] === id) {
    if (remove(ports!, key) && remove(bySrc!, t.src)) remove(bysource, t.proto);
    return;
  }
  const rest = ids.filter((x) => x !== id);
  if (rest.length > 0) ports![key] = rest;
  else if (remove(ports!, key) && remove(bySrc!, t.src)) remove(bysource, t.proto);
}
