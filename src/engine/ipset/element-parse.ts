/**
 * How `ipset add|del|test` reads an element (ipset 7.17 lib/parse.c, as the tool answers on a
 * Debian node): an address, a CIDR (`1.2.3.0/24`) or a range (`1.2.3.1-1.2.3.9`), a port with an
 * optional protocol (`udp:53`, `http`, `80-82`), and the error texts each part gives. The
 * expansion of ranges into elements is in ./element-plan.ts.
 */
import { ipIsValid, ipToInt, prefixMask } from '../model/ip';
import { servicePort } from '../netfilter/services';

/** A parse failure: the tool's own error text, or a lab note (the lab does not model it). */
export type ParseFailure =
  { readonly error: string } | { readonly note: 'protocol'; readonly protocol: string };

/** An address part: `first` as written, `from`..`to` the addresses it covers. */
export interface IpPart {
  readonly first: number;
  readonly from: number;
  readonly to: number;
  /** Given as a.b.c.d/N. */
  readonly cidr?: number;
  /** Given as a.b.c.d-e.f.g.h. */
  readonly isRange: boolean;
  /** As `ipset test` prints it back (the tool prints the parsed data, not the words typed). */
  readonly shown: string;
}

export interface PortPart {
  readonly proto: 'tcp' | 'udp' | 'sctp';
  readonly first: number;
  readonly from: number;
  readonly to: number;
  /** Given as from-to. */
  readonly isRange: boolean;
  /** As `ipset test` prints it back: numbers, the protocol always named. */
  readonly shown: string;
}

const syntax = (text: string): ParseFailure => ({ error: `Syntax error: ${text}` });
const unresolvable = (text: string): ParseFailure =>
  syntax(`cannot parse ${text}: resolving to IPv4 address failed`);

/**
 * string_to_number_ll(): strtoull(text, &end, 0) then a range check, so "010" is octal 8 and
 * "0x10" is 16, "-1" wraps to a huge number and is "out of range", trailing text is "invalid
 * as number". A string is the error text.
 */
export function parseNumber(text: string, max: number): number | string {
  let n: number | undefined;
  if (/^0x[0-9a-f]+$/i.test(text)) n = parseInt(text.slice(2), 16);
  else if (/^0[0-7]*$/.test(text)) n = parseInt(text, 8);
  else if (/^[1-9]\d*$/.test(text)) n = Number(text);
  else if (/^-(0x[0-9a-f]+|\d+)$/i.test(text)) n = /^-0+$/.test(text) ? 0 : Infinity;
  if (n === undefined) return `'${text}' is invalid as number`;
  return n <= max ? n : `'${text}' is out of range 0-${max}`;
}

/** A CIDR prefix: parsed as a u8 first (0-255), then checked against 32. */
function parsePrefix(text: string): number | ParseFailure {
  const n = parseNumber(text, 255);
  if (typeof n === 'string') return syntax(n);
  if (n > 32) return syntax(`'${text}' is out of range 0-32`);
  return n;
}

/**
 * An IPv4 element part. `what` says what the set type allows there: a plain address only
 * (hash:ip,port,ip's second address) or also a CIDR and a range.
 */
export function parseIpPart(text: string, plainOnly = false): IpPart | ParseFailure {
  const dash = text.indexOf('-');
  const slash = text.indexOf('/');
  if ((dash >= 0 || slash >= 0) && plainOnly)
    return syntax(`plain IP address must be supplied: ${text}`);
  // A slash makes it a CIDR, even with a dash after it ("10.0.0.0/-1").
  if (slash >= 0) {
    const a = text.slice(0, slash);
    const c = text.slice(slash + 1);
    // "10.0.0.0/" and "/8" are taken as one host name, which does not resolve.
    if (a === '' || c === '') return unresolvable(text);
    if (!ipIsValid(a)) return unresolvable(a);
    const cidr = parsePrefix(c);
    if (typeof cidr !== 'number') return cidr;
    const ip = ipToInt(a);
    const from = (ip & prefixMask(cidr)) >>> 0;
    const to = (from | ~prefixMask(cidr)) >>> 0;
    return { first: ip, from, to, cidr, isRange: false, shown: cidr === 32 ? a : `${a}/${cidr}` };
  }
  if (dash >= 0) {
    const a = text.slice(0, dash);
    const b = text.slice(dash + 1);
    if (!ipIsValid(a)) return unresolvable(a === '' ? text : a);
    if (!ipIsValid(b)) return unresolvable(b === '' ? text : b);
    const x = ipToInt(a);
    const y = ipToInt(b);
    return { first: x, from: Math.min(x, y), to: Math.max(x, y), isRange: true, shown: text };
  }
  if (!ipIsValid(text)) return unresolvable(text);
  const ip = ipToInt(text);
  return { first: ip, from: ip, to: ip, isRange: false, shown: text };
}

/** Protocols /etc/protocols knows that the lab's ipset does not model (no port to key on). */
const OTHER_PROTOCOLS = new Set([
  'icmp',
  'icmpv6',
  'ipv6-icmp',
  'udplite',
  'igmp',
  'gre',
  'esp',
  'ah',
  'ipip',
  'ipv6',
  'ospf',
  'pim',
  'vrrp',
  'l2tp',
  'dccp',
  'ip',
  'hopopt',
]);

/**
 * ipset_parse_port(): a number, else a service name for the protocol. Its failure is three
 * lines: the number error, the tool's retry of the protocol name as a number, and the summary.
 */
function parsePort(text: string, proto: string): number | ParseFailure {
  const n = parseNumber(text, 65535);
  if (typeof n === 'number') return n;
  if (!/^-?\d+$/.test(text)) {
    const byName = servicePort(text, proto);
    if (byName !== undefined) return byName;
  }
  return syntax(
    `${n}\nSyntax error: '${proto}' is invalid as number\ncannot parse '${text}' as a ${proto} port`,
  );
}

/** `[proto:]port[-port]` (ipset_parse_proto_port); tcp when no protocol is given. */
export function parsePortPart(text: string): PortPart | ParseFailure {
  const colon = text.indexOf(':');
  let proto = 'tcp';
  let ports = text;
  if (colon > 0 && colon < text.length - 1) {
    proto = text.slice(0, colon);
    ports = text.slice(colon + 1);
  }
  if (proto !== 'tcp' && proto !== 'udp' && proto !== 'sctp') {
    if (OTHER_PROTOCOLS.has(proto) || /^\d+$/.test(proto))
      return { note: 'protocol', protocol: proto };
    return syntax(`cannot parse '${proto}' as a protocol`);
  }
  // "-5" and "5-" are one (bad) port, not a range.
  const at = ports.indexOf('-', 1);
  const dash = at > 0 && at < ports.length - 1 ? at : -1;
  const a = parsePort(dash > 0 ? ports.slice(0, dash) : ports, proto);
  if (typeof a !== 'number') return a;
  const b = dash > 0 ? parsePort(ports.slice(dash + 1), proto) : a;
  if (typeof b !== 'number') return b;
  const shown = a === b ? `${proto}:${a}` : `${proto}:${a}-${b}`;
  return { proto, first: a, from: Math.min(a, b), to: Math.max(a, b), isRange: dash > 0, shown };
}

/**
 * ip_set_range_to_cidr(): the largest aligned blocks that cover from..to, in order — how the
 * kernel stores a range in a hash:net type.
 */
export function* rangeToCidrs(from: number, to: number): Generator<{ ip: number; cidr: number }> {
  let ip = from;
  for (;;) {
    let cidr = 32;
    while (cidr > 0) {
      const mask = prefixMask(cidr - 1);
      const start = (ip & mask) >>> 0;
      const end = (start | ~mask) >>> 0;
      if (start !== ip || end > to) break;
      cidr--;
    }
    yield { ip, cidr };
    const last = (ip | ~prefixMask(cidr)) >>> 0;
    if (last >= to) return;
    ip = last + 1;
  }
}
