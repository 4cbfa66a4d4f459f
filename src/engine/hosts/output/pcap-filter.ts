/**
 * The capture filters of tcpdump the lab reads (pcap-filter(7), libpcap 1.10): primitives
 * `[proto] [src|dst|src or dst|src and dst] [host|net|port|portrange] ID`, the protocols `ip`,
 * `tcp`, `udp`, `icmp`, `arp`, `sctp` alone, combined with `and`/`&&`, `or`/`||`, `not`/`!`
 * and parentheses; an ID without qualifiers takes the previous primitive's (`host A or B`).
 * Errors are tcpdump's own texts (checked against tcpdump 4.99 / libpcap 1.10).
 * The lab's packets are IPv4 and never ARP (`arp` matches nothing).
 */
import { cidrParse, ipIsValid, ipToInt } from '../../model/ip';
import type { HostPacket } from '../types';
import { portNumber } from './services';

export type Filter = (p: HostPacket) => boolean;

const PROTOS = new Set(['ip', 'tcp', 'udp', 'icmp', 'arp', 'sctp']);
const DIRS = new Set(['src', 'dst']);
const TYPES = new Set(['host', 'net', 'port', 'portrange']);

interface Quals {
  proto?: string | undefined;
  dir?: 'src' | 'dst' | 'src or dst' | 'src and dst' | undefined;
  type?: string | undefined;
}

class FilterError extends Error {}

const syntax = (): FilterError => new FilterError("can't parse filter expression: syntax error");

function tokenize(text: string): string[] {
  return text.match(/&&|\|\||[()!]|[^\s()!&|]+/g) ?? [];
}

function ports(p: HostPacket, dir: Quals['dir'], test: (port: number) => boolean): boolean {
  const s = p.sport !== undefined && test(p.sport);
  const d = p.dport !== undefined && test(p.dport);
  if (dir === 'src') return s;
  if (dir === 'dst') return d;
  if (dir === 'src and dst') return s && d;
  return s || d;
}

function addrs(p: HostPacket, dir: Quals['dir'], test: (a: string) => boolean): boolean {
  const s = test(p.src);
  const d = test(p.dst);
  if (dir === 'src') return s;
  if (dir === 'dst') return d;
  if (dir === 'src and dst') return s && d;
  return s || d;
}

function protoMatches(proto: string | undefined, p: HostPacket): boolean {
  if (proto === undefined || proto === 'ip') return true;
  if (proto === 'arp') return false;
  return p.proto === proto;
}

function port(id: string, proto: string | undefined): number {
  if (/^\d+$/.test(id) && Number(id) <= 65535) return Number(id);
  const n = portNumber(proto === 'udp' ? 'udp' : 'tcp', id);
  if (n === undefined) throw new FilterError(`unknown port '${id}'`);
  return n;
}

function primitive(q: Quals, id: string): Filter {
  const type = q.type ?? 'host';
  const proto = q.proto;
  if (type === 'port' || type === 'portrange') {
    if (proto !== undefined && !['tcp', 'udp', 'sctp'].includes(proto))
      throw new FilterError(`illegal qualifier of '${type}'`);
    let lo: number;
    let hi: number;
    if (type === 'port') lo = hi = port(id, proto);
    else {
      const [a = '', b] = id.split('-');
      if (b === undefined) throw syntax();
      [lo, hi] = [port(a, proto), port(b, proto)].sort((x, y) => x - y) as [number, number];
    }
    return (p) =>
      (proto === undefined ? p.proto === 'tcp' || p.proto === 'udp' : p.proto === proto) &&
      ports(p, q.dir, (x) => x >= lo && x <= hi);
  }
  if (type === 'net') {
    // A dotted quad without a length is a /32 (pcap's `net 10.1.2.3`).
    const text = id.includes('/') || !ipIsValid(id) ? id : `${id}/32`;
    const c = cidrParse(text, { allowHostBits: false });
    if (c === undefined) {
      if (cidrParse(text, { allowHostBits: true }) !== undefined)
        throw new FilterError(`non-network bits set in "${id}"`);
      throw syntax();
    }
    const mask = c.prefix === 0 ? 0 : (~0 << (32 - c.prefix)) >>> 0;
    const net = ipToInt(c.network);
    return (p) =>
      protoMatches(proto, p) && addrs(p, q.dir, (a) => (ipToInt(a) & mask) >>> 0 === net);
  }
  if (!/^\d+(\.\d+){3}$/.test(id)) throw new FilterError(`unknown host '${id}'`);
  if (!ipIsValid(id)) throw new FilterError(`invalid IPv4 address '${id}'`);
  return (p) => protoMatches(proto, p) && addrs(p, q.dir, (a) => a === id);
}

class Parser {
  private i = 0;
  private last: Quals = {};
  constructor(private readonly t: readonly string[]) {}

  parse(): Filter {
    const f = this.or();
    if (this.i < this.t.length) throw syntax();
    return f;
  }

  private peek(): string | undefined {
    return this.t[this.i];
  }

  private or(): Filter {
    let f = this.and();
    while (this.peek() === 'or' || this.peek() === '||') {
      this.i++;
      const a = f;
      const b = this.and();
      f = (p) => a(p) || b(p);
    }
    return f;
  }

  private and(): Filter {
    let f = this.unary();
    while (this.peek() === 'and' || this.peek() === '&&') {
      this.i++;
      const a = f;
      const b = this.unary();
      f = (p) => a(p) && b(p);
    }
    return f;
  }

  private unary(): Filter {
    const w = this.peek();
    if (w === undefined) throw syntax();
    if (w === 'not' || w === '!') {
      this.i++;
      const f = this.unary();
      return (p) => !f(p);
    }
    if (w === '(') {
      this.i++;
      const f = this.or();
      if (this.peek() !== ')') throw syntax();
      this.i++;
      return f;
    }
    return this.primitive();
  }

  private primitive(): Filter {
    const q: Quals = {};
    let qualified = false;
    if (PROTOS.has(this.peek() ?? '')) {
      q.proto = this.t[this.i++];
      qualified = true;
    }
    if (DIRS.has(this.peek() ?? '')) {
      const d = this.t[this.i++] as 'src' | 'dst';
      const next = this.t[this.i + 1];
      if (
        (this.peek() === 'or' || this.peek() === 'and') &&
        next !== undefined &&
        DIRS.has(next) &&
        next !== d
      ) {
        q.dir = this.peek() === 'or' ? 'src or dst' : 'src and dst';
        this.i += 2;
      } else q.dir = d;
      qualified = true;
    }
    if (TYPES.has(this.peek() ?? '')) {
      q.type = this.t[this.i++];
      qualified = true;
    }
    const id = this.peek();
    const isId = id !== undefined && !['and', 'or', '&&', '||', ')', '(', 'not', '!'].includes(id);
    if (!isId) {
      // A protocol alone (`tcp`, `icmp`): every packet of it.
      if (q.proto !== undefined && q.dir === undefined && q.type === undefined) {
        const proto = q.proto;
        return (p) => protoMatches(proto, p);
      }
      throw syntax();
    }
    this.i++;
    // An ID alone takes the qualifiers of the primitive before it (pcap's "qualifier inheritance").
    const quals = qualified ? q : this.last;
    const inherited = this.last.type !== undefined || this.last.dir !== undefined || this.last.proto !== undefined; // prettier-ignore
    // A bare ID with nothing to inherit is a host address; a bare word is a syntax error.
    if (!qualified && !inherited) {
      if (!/^\d+(\.\d+){3}$/.test(id)) throw syntax();
      return primitive({}, id);
    }
    this.last = quals;
    return primitive(quals, id);
  }
}

/** The filter of tcpdump's trailing words; an error as tcpdump words it. */
export function parseCaptureFilter(words: readonly string[]): Filter | { readonly error: string } {
  const text = words.join(' ').trim();
  if (text === '') return () => true;
  try {
    return new Parser(tokenize(text)).parse();
  } catch (e) {
    if (e instanceof FilterError) return { error: e.message };
    throw e;
  }
}
