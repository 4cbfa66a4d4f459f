/**
 * An `ipset add|del|test` element for a set type, as the kernel's uadt functions walk it
 * (net/netfilter/ipset/ip_set_hash_ip.c, …_ipport.c, …_net.c, ip_set_bitmap_port.c): a CIDR or
 * range in the first address, and a port range, become one element per address and port
 * (address outer, port inner); a hash:net range becomes the CIDR blocks that cover it.
 * `ipset test` checks the first element only.
 */
import { ipFromInt, prefixMask } from '../model/ip';
import {
  parseIpPart,
  parsePortPart,
  rangeToCidrs,
  type IpPart,
  type ParseFailure,
  type PortPart,
} from './element-parse';
import type { Element, SetType } from './sets';

export interface ElementPlan {
  /** What `ipset test` checks: the first address and port as written. */
  readonly first: Element;
  /** The element as `ipset test` prints it back ("1.2.3.4,tcp:80" for "1.2.3.4,80"). */
  readonly shown: string;
  /** How many addresses the first part covers (the lab bounds long walks). */
  readonly addresses: number;
  /** add/del: every element, in the kernel's order. */
  readonly all: () => Generator<Element>;
  /** hash:net types given a host address: `test` tries every prefix the set holds. */
  readonly anyPrefix: boolean;
  /** Why `ipset test` refuses this element, when it does. */
  readonly testRefusal?: string;
}

const INVALID_CIDR: ParseFailure = {
  error: 'The value of the CIDR parameter of the IP address is invalid',
};
const NULL_ELEMENT: ParseFailure = {
  error: 'Null-valued element, cannot be stored in a hash type of set',
};
/** The tool's check of what `test` may be given (the type's test flags in its lib/ipset_*.c). */
const notInTest = (what: string, type: SetType): string =>
  `${what} is not allowed in command test with set type ${type} and family ${type === 'bitmap:port' ? 'unspec' : 'inet'}`;

const isFailure = (x: object): x is ParseFailure => 'error' in x || 'note' in x;

/** A network as hash:net types store it: masked, printed without /32. */
function net(ip: number, cidr: number): { ip: string; cidr: number; text: string } {
  const network = ipFromInt((ip & prefixMask(cidr)) >>> 0);
  return { ip: network, cidr, text: cidr === 32 ? network : `${network}/${cidr}` };
}

/** The CIDR blocks a network part covers: a range splits, a CIDR or address is one block. */
function blocks(part: IpPart): { ip: number; cidr: number }[] {
  if (part.isRange) return [...rangeToCidrs(part.from, part.to)];
  return [{ ip: part.first, cidr: part.cidr ?? 32 }];
}

function* addresses(part: IpPart): Generator<number> {
  for (let ip = part.from; ip <= part.to; ip++) yield ip;
}

const portText = (p: PortPart, port: number): string => `${p.proto}:${port}`;

function planHashIp(text: string, part: IpPart): ElementPlan {
  const el = (ip: number): Element => ({ ip: ipFromInt(ip), text: ipFromInt(ip) });
  return {
    first: el(part.first),
    shown: part.shown,
    addresses: part.to - part.from + 1,
    anyPrefix: false,
    *all() {
      // hash_ip4_uadt skips 0.0.0.0 inside a range (it cannot be stored in a hash).
      for (const ip of addresses(part)) if (ip !== 0) yield el(ip);
    },
  };
}

function planHashNet(set: SetType, text: string, part: IpPart): ElementPlan {
  const cidrs = blocks(part);
  return {
    first: net(cidrs[0]!.ip, cidrs[0]!.cidr),
    shown: part.shown,
    addresses: cidrs.length,
    anyPrefix: (part.cidr ?? 32) === 32,
    ...(part.isRange
      ? {
          testRefusal: notInTest('FROM-TO IP range', set),
        }
      : {}),
    *all() {
      for (const b of cidrs) yield net(b.ip, b.cidr);
    },
  };
}

/** hash:ip,port, hash:ip,port,ip and hash:ip,port,net. */
function planIpPort(type: SetType, text: string, parts: string[]): ElementPlan | ParseFailure {
  const ip = parseIpPart(parts[0]!);
  if (isFailure(ip)) return ip;
  if (ip.cidr === 0) return INVALID_CIDR;
  if (parts[1] === undefined || parts[1] === '')
    return { error: `Syntax error: Second element is missing from ${text}.` };
  const port = parsePortPart(parts[1]);
  if (isFailure(port)) return port;
  let third: { ip: string; cidr?: number; text: string }[] = [];
  let thirdShown: string | undefined;
  // What `test` checks in the third part: a range there is tested as its first address.
  let testThird: (typeof third)[number] | undefined;
  if (type !== 'hash:ip,port') {
    if (parts[2] === undefined || parts[2] === '')
      return { error: `Syntax error: Third element is missing from ${text}.` };
    const ip2 = parseIpPart(parts[2], type === 'hash:ip,port,ip');
    if (isFailure(ip2)) return ip2;
    if (ip2.cidr === 0) return INVALID_CIDR;
    thirdShown = ip2.isRange ? ipFromInt(ip2.first) : ip2.shown;
    third =
      type === 'hash:ip,port,ip'
        ? [{ ip: ipFromInt(ip2.first), text: ipFromInt(ip2.first) }]
        : blocks(ip2).map((b) => net(b.ip, b.cidr));
    testThird = ip2.isRange && type === 'hash:ip,port,net' ? net(ip2.first, 32) : third[0];
  }
  const el = (addr: number, p: number, t: (typeof third)[number] | undefined): Element => {
    const base = `${ipFromInt(addr)},${portText(port, p)}`;
    const withThird =
      t === undefined ? {} : { ip2: t.ip, ...(t.cidr !== undefined ? { cidr: t.cidr } : {}) };
    // A /32 network is listed as a plain address, as for hash:net.
    const tail = t === undefined ? '' : `,${t.text}`;
    return { ip: ipFromInt(addr), proto: port.proto, port: p, ...withThird, text: base + tail };
  };
  const testRefusal = ip.isRange
    ? notInTest('FROM-TO IP range', type)
    : ip.cidr !== undefined
      ? notInTest('IP/CIDR range', type)
      : port.isRange
        ? notInTest('FROM-TO port range', type)
        : undefined;
  return {
    ...(testRefusal !== undefined ? { testRefusal } : {}),
    first: el(ip.first, port.first, testThird),
    shown: [ip.shown, port.shown, ...(thirdShown !== undefined ? [thirdShown] : [])].join(','),
    addresses: (ip.to - ip.from + 1) * (port.to - port.from + 1),
    anyPrefix: type === 'hash:ip,port,net' && testThird?.cidr === 32,
    *all() {
      for (const a of addresses(ip))
        for (let p = port.from; p <= port.to; p++)
          for (const t of third.length === 0 ? [undefined] : third) yield el(a, p, t);
    },
  };
}

/** Parses an element for the set's type; a failure carries the tool's text or a lab note. */
export function planElement(type: SetType, text: string): ElementPlan | ParseFailure {
  if (type === 'bitmap:port') {
    const port = parsePortPart(text);
    if (isFailure(port)) return port;
    const el = (p: number): Element => ({ port: p, text: String(p) });
    return {
      ...(port.isRange ? { testRefusal: notInTest('FROM-TO port range', type) } : {}),
      first: el(port.first),
      shown: String(port.first),
      addresses: 1,
      anyPrefix: false,
      *all() {
        for (let p = port.from; p <= port.to; p++) yield el(p);
      },
    };
  }
  const parts = text.split(',');
  if ((type === 'hash:ip' || type === 'hash:net') && parts.length > 1) {
    const ip = parseIpPart(parts[0]!);
    if (isFailure(ip)) return ip;
    return { error: `Syntax error: Elem separator in ${text}, but settype ${type} supports none.` };
  }
  if (type !== 'hash:ip' && type !== 'hash:net') return planIpPort(type, text, parts);
  const part = parseIpPart(text);
  if (isFailure(part)) return part;
  if (part.cidr === 0) return INVALID_CIDR;
  if (type === 'hash:net') return planHashNet(type, text, part);
  if (part.first === 0) return NULL_ELEMENT;
  return planHashIp(text, part);
}

export { isFailure };
