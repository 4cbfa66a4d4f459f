/**
 * IP sets as the kernel keeps them (net/netfilter/ipset): the five types kube-proxy uses, their
 * elements as `ipset add` parses them, and the packet test iptables' `-m set` makes. The hash
 * types' table (bucket layout, growth, member order, memory) is in ./hash-table.ts.
 */
import { cidrContains, cidrParse, ipIsValid } from '../model/ip';
import type { Bucket } from './hash-table';
import { hasElement } from './hash-table';

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
  const set: IpSet = { ...spec, buckets: new Map(), extSize: 0, ports: new Set(), count: 0 };
  state.sets.push(set);
  return set;
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
    for (const { slots } of set.buckets.values())
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
