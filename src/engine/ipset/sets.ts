/**
 * IP sets as the kernel keeps them (net/netfilter/ipset): the five types kube-proxy uses, their
 * elements, and the bucket layout of hash types (ip_set_hash_gen.h: jhash2 of the element
 * struct with the set's initval, 2^htable_bits buckets, slots added two at a time), which decides
 * the order `ipset list` prints members in and the "Size in memory" figure.
 */
import { cidrContains, cidrParse, ipIsValid, ipToInt } from '../model/ip';
import { jhash2 } from './jhash';

export type SetType =
  'hash:ip' | 'hash:ip,port' | 'hash:ip,port,ip' | 'hash:ip,port,net' | 'bitmap:port';

export const SET_TYPES: readonly SetType[] = [
  'hash:ip',
  'hash:ip,port',
  'hash:ip,port,ip',
  'hash:ip,port,net',
  'bitmap:port',
];

/** The revision `ipset list` prints (the newest each kernel 6.x module registers). */
export const REVISIONS: Readonly<Record<SetType, number>> = {
  'hash:ip': 6,
  'hash:ip,port': 7,
  'hash:ip,port,ip': 6,
  'hash:ip,port,net': 8,
  'bitmap:port': 3,
};

/** Element struct size (dsize) and the set's fixed memory, as measured on kernel 6.18. */
const DSIZE: Readonly<Record<SetType, number>> = {
  'hash:ip': 4,
  'hash:ip,port': 8,
  'hash:ip,port,ip': 12,
  'hash:ip,port,net': 12,
  'bitmap:port': 0,
};
const BASE_MEMORY: Readonly<Record<SetType, number>> = {
  'hash:ip': 216,
  'hash:ip,port': 216,
  'hash:ip,port,ip': 208,
  'hash:ip,port,net': 464,
  'bitmap:port': 72,
};
/** struct hbucket without its slots (rcu head, size, pos, used bitmap). */
const BUCKET_HEADER = 32;
/** AHASH_INIT_SIZE: a bucket's slots grow two at a time. */
const AHASH_INIT_SIZE = 2;

export interface Element {
  readonly ip?: string;
  readonly proto?: 'tcp' | 'udp' | 'sctp';
  readonly port?: number;
  readonly ip2?: string;
  readonly cidr?: number;
  /** As `ipset list` prints it. */
  readonly text: string;
}

export interface IpSet {
  readonly name: string;
  readonly type: SetType;
  readonly hashsize: number;
  readonly maxelem: number;
  readonly initval: number;
  /** bitmap:port range. */
  readonly range?: { readonly from: number; readonly to: number };
  /** Hash types: bucket index → slots in order (undefined = a deleted slot). */
  readonly buckets: Map<number, (Element | undefined)[]>;
  /** bitmap:port: the ports set. */
  readonly ports: Set<number>;
  count: number;
}

export interface IpsetState {
  /** In creation order: `ipset list` lists them so. */
  readonly sets: IpSet[];
}

export function createIpsetState(): IpsetState {
  return { sets: [] };
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

function bucketOf(set: IpSet, e: Element): number {
  const mask = (1 << htableBits(set.hashsize)) - 1;
  return jhash2(keyWords(set.type, e), set.initval) & mask;
}

/** Parses an element as `ipset add` does for the set's type; a string is the error text. */
export function parseElement(type: SetType, text: string): Element | string {
  const parts = text.split(',');
  const ipOf = (s: string | undefined): string | string => {
    if (s === undefined || !ipIsValid(s))
      return `Syntax error: cannot parse ${s ?? ''}: resolving to IPv4 address failed`;
    return s;
  };
  const portOf = (s: string | undefined): Pick<Element, 'proto' | 'port'> | string => {
    if (s === undefined) return `Syntax error: Second element is missing from ${text}.`;
    const m = /^(?:(tcp|udp|sctp):)?(\d+)$/.exec(s);
    if (m === null || Number(m[2]) > 65535) return `Syntax error: cannot parse '${s}' as a port`;
    return { proto: (m[1] ?? 'tcp') as 'tcp' | 'udp' | 'sctp', port: Number(m[2]) };
  };
  if (type === 'bitmap:port') {
    const m = /^(?:(?:tcp|udp|sctp):)?(\d+)$/.exec(text);
    if (m === null) return `Syntax error: cannot parse '${text}' as a port`;
    return { port: Number(m[1]), text: String(Number(m[1])) };
  }
  const ip = ipOf(parts[0]);
  if (!ipIsValid(ip)) return ip;
  if (type === 'hash:ip') {
    if (parts.length > 1)
      return `Syntax error: Elem separator in ${text}, but settype ${type} supports none.`;
    return { ip, text: ip };
  }
  const pp = portOf(parts[1]);
  if (typeof pp === 'string') return pp;
  const base = `${ip},${pp.proto}:${pp.port}`;
  if (type === 'hash:ip,port') return { ip, ...pp, text: base };
  if (parts[2] === undefined) return `Syntax error: Third element is missing from ${text}.`;
  if (type === 'hash:ip,port,ip') {
    const ip2 = ipOf(parts[2]);
    if (!ipIsValid(ip2)) return ip2;
    return { ip, ...pp, ip2, text: `${base},${ip2}` };
  }
  const cidr = cidrParse(parts[2].includes('/') ? parts[2] : `${parts[2]}/32`, {
    allowHostBits: true,
  });
  if (cidr === undefined)
    return `Syntax error: cannot parse ${parts[2]}: resolving to IPv4 address failed`;
  const net = `${cidr.network}/${cidr.prefix}`;
  return { ip, ...pp, ip2: cidr.network, cidr: cidr.prefix, text: `${base},${net}` };
}

export function findSet(state: IpsetState, name: string): IpSet | undefined {
  return state.sets.find((s) => s.name === name);
}

export function createSet(
  state: IpsetState,
  spec: Pick<IpSet, 'name' | 'type' | 'hashsize' | 'maxelem' | 'initval' | 'range'>,
): IpSet {
  const set: IpSet = { ...spec, buckets: new Map(), ports: new Set(), count: 0 };
  state.sets.push(set);
  return set;
}

export function hasElement(set: IpSet, e: Element): boolean {
  if (set.type === 'bitmap:port') return set.ports.has(e.port!);
  return (set.buckets.get(bucketOf(set, e)) ?? []).some((x) => x?.text === e.text);
}

/** mtype_add(): a deleted slot of the bucket is reused first, else the bucket grows. */
export function addElement(set: IpSet, e: Element): 'added' | 'exists' {
  if (hasElement(set, e)) return 'exists';
  set.count++;
  if (set.type === 'bitmap:port') {
    set.ports.add(e.port!);
    return 'added';
  }
  const b = bucketOf(set, e);
  const slots = set.buckets.get(b) ?? [];
  const free = slots.indexOf(undefined);
  if (free >= 0) slots[free] = e;
  else slots.push(e);
  set.buckets.set(b, slots);
  return 'added';
}

export function deleteElement(set: IpSet, e: Element): 'deleted' | 'missing' {
  if (!hasElement(set, e)) return 'missing';
  set.count--;
  if (set.type === 'bitmap:port') {
    set.ports.delete(e.port!);
    return 'deleted';
  }
  const b = bucketOf(set, e);
  const slots = set.buckets.get(b)!;
  slots[slots.findIndex((x) => x?.text === e.text)] = undefined;
  // mtype_del(): a bucket left without entries is freed.
  if (slots.every((x) => x === undefined)) set.buckets.delete(b);
  return 'deleted';
}

export function flushSet(set: IpSet): void {
  set.buckets.clear();
  set.ports.clear();
  set.count = 0;
}

/** Members in the order the kernel dumps them: buckets in index order, slots in order. */
export function members(set: IpSet): string[] {
  if (set.type === 'bitmap:port') return [...set.ports].sort((a, b) => a - b).map(String);
  const out: string[] = [];
  for (const b of [...set.buckets.keys()].sort((x, y) => x - y))
    for (const e of set.buckets.get(b)!) if (e !== undefined) out.push(e.text);
  return out;
}

/** "Size in memory": the fixed part plus each allocated bucket (slots grown by two). */
export function memorySize(set: IpSet): number {
  if (set.type === 'bitmap:port') {
    const bits = (set.range?.to ?? 65535) - (set.range?.from ?? 0) + 1;
    return BASE_MEMORY[set.type] + Math.ceil(bits / 64) * 8;
  }
  let size = BASE_MEMORY[set.type];
  for (const slots of set.buckets.values()) {
    const n = Math.ceil(slots.length / AHASH_INIT_SIZE) * AHASH_INIT_SIZE;
    size += BUCKET_HEADER + n * DSIZE[set.type];
  }
  return size;
}

/** Does the packet's (addr, port, proto) tuple, read in the `dims` directions, belong to the set? */
export function testTuple(
  set: IpSet,
  tuple: { ip?: string; proto?: string; port?: number; ip2?: string },
): boolean {
  if (set.type === 'bitmap:port') return tuple.port !== undefined && set.ports.has(tuple.port);
  const proto = tuple.proto as 'tcp' | 'udp' | 'sctp' | undefined;
  if (set.type === 'hash:ip,port,net') {
    // The kernel tries each cidr the set holds, longest first; the lab walks its elements.
    for (const slots of set.buckets.values())
      for (const e of slots) {
        if (e === undefined || e.ip !== tuple.ip || e.port !== tuple.port || e.proto !== proto)
          continue;
        const net = { network: e.ip2!, prefix: e.cidr ?? 32 };
        if (tuple.ip2 !== undefined && cidrContains(net, tuple.ip2)) return true;
      }
    return false;
  }
  const text =
    set.type === 'hash:ip'
      ? tuple.ip
      : set.type === 'hash:ip,port'
        ? `${tuple.ip},${proto}:${tuple.port}`
        : `${tuple.ip},${proto}:${tuple.port},${tuple.ip2}`;
  if (text === undefined) return false;
  const parsed = parseElement(set.type, text);
  return typeof parsed !== 'string' && hasElement(set, parsed);
}
