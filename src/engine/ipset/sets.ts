/**
 * IP sets as the kernel keeps them (net/netfilter/ipset): the types kube-proxy uses and
 * hash:net (elements as `ipset add` reads them are in ./element-plan.ts), and the packet test iptables' `-m set` makes. The hash
 * types' table (bucket layout, growth, member order, memory) is in ./hash-table.ts.
 */
import { ipFromInt, ipToInt, prefixMask } from '../model/ip';
import type { Bucket } from './hash-table';
import { hasElement } from './hash-table';

export type SetType =
  'hash:ip' | 'hash:net' | 'hash:ip,port' | 'hash:ip,port,ip' | 'hash:ip,port,net' | 'bitmap:port';

export const SET_TYPES: readonly SetType[] = [
  'hash:ip',
  'hash:net',
  'hash:ip,port',
  'hash:ip,port,ip',
  'hash:ip,port,net',
  'bitmap:port',
];

/**
 * The type names ipset 7.17 knows (its lib/ipset_*.c); the ones not in SET_TYPES the lab
 * refuses with a lab note instead of the tool's "typename is unknown".
 */
export const KNOWN_TYPES: readonly string[] = [
  'bitmap:ip',
  'bitmap:ip,mac',
  'bitmap:port',
  'hash:ip',
  'hash:ip,mac',
  'hash:ip,mark',
  'hash:ip,port',
  'hash:ip,port,ip',
  'hash:ip,port,net',
  'hash:mac',
  'hash:net',
  'hash:net,iface',
  'hash:net,net',
  'hash:net,port',
  'hash:net,port,net',
  'list:set',
];

/** The revision `ipset list` prints (the newest each kernel 6.x module registers). */
export const REVISIONS: Readonly<Record<SetType, number>> = {
  'hash:ip': 6,
  'hash:net': 7,
  'hash:ip,port': 7,
  'hash:ip,port,ip': 6,
  'hash:ip,port,net': 8,
  'bitmap:port': 3,
};

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
  /** jhash_size(htable_bits): grows when a full bucket needs one more slot. */
  hashsize: number;
  readonly maxelem: number;
  readonly initval: number;
  /** bitmap:port range. */
  readonly range?: { readonly from: number; readonly to: number };
  /** Hash types: bucket index → bucket. */
  buckets: Map<number, Bucket>;
  /**
   * The bucket memory the kernel books (hregion[].ext_size): every allocation step adds
   * ext_size(AHASH_INIT_SIZE), a freed bucket gives back ext_size(size), a shrink one step.
   */
  extSize: number;
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

export function findSet(state: IpsetState, name: string): IpSet | undefined {
  return state.sets.find((s) => s.name === name);
}

export function createSet(
  state: IpsetState,
  spec: Pick<IpSet, 'name' | 'type' | 'hashsize' | 'maxelem' | 'initval' | 'range'>,
): IpSet {
  const set: IpSet = { ...spec, buckets: new Map(), extSize: 0, ports: new Set(), count: 0 };
  state.sets.push(set);
  return set;
}

/** The prefixes a hash:net type holds, longest first (the kernel keeps them in h->nets). */
function prefixes(set: IpSet): number[] {
  const seen = new Set<number>();
  for (const { slots } of set.buckets.values())
    for (const e of slots) if (e?.cidr !== undefined) seen.add(e.cidr);
  return [...seen].sort((a, b) => b - a);
}

const masked = (ip: string, cidr: number): string =>
  ipFromInt((ipToInt(ip) & prefixMask(cidr)) >>> 0);

/**
 * `ipset test` of a host address in a hash:net type (mtype_test_cidrs): each prefix the set
 * holds, longest first, with the address masked to it.
 */
export function hasAddressInNets(set: IpSet, e: Element): boolean {
  const addr = set.type === 'hash:net' ? e.ip : e.ip2;
  if (addr === undefined) return false;
  return prefixes(set).some((cidr) => {
    const network = masked(addr, cidr);
    if (set.type === 'hash:net')
      return hasElement(set, {
        ip: network,
        cidr,
        text: cidr === 32 ? network : `${network}/${cidr}`,
      });
    const net = cidr === 32 ? network : `${network}/${cidr}`;
    const text = `${e.ip},${e.proto}:${e.port},${net}`;
    return hasElement(set, { ...e, ip2: network, cidr, text });
  });
}

/** Does the packet's (addr, port, proto) tuple, read in the `dims` directions, belong to the set? */
export function testTuple(
  set: IpSet,
  tuple: { ip?: string; proto?: string; port?: number; ip2?: string },
): boolean {
  if (set.type === 'bitmap:port') return tuple.port !== undefined && set.ports.has(tuple.port);
  const ip = tuple.ip;
  if (ip === undefined) return false;
  if (set.type === 'hash:ip') return hasElement(set, { ip, text: ip });
  if (set.type === 'hash:net') return hasAddressInNets(set, { ip, text: ip });
  const proto = tuple.proto as 'tcp' | 'udp' | 'sctp' | undefined;
  const port = tuple.port;
  if (proto === undefined || port === undefined) return false;
  const base = `${ip},${proto}:${port}`;
  if (set.type === 'hash:ip,port') return hasElement(set, { ip, proto, port, text: base });
  const ip2 = tuple.ip2;
  if (ip2 === undefined) return false;
  switch (set.type) {
    case 'hash:ip,port,ip':
      return hasElement(set, { ip, proto, port, ip2, text: `${base},${ip2}` });
    default:
      return hasAddressInNets(set, { ip, proto, port, ip2, text: '' });
  }
}
