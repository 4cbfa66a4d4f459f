/**
 * ss's filter expressions (misc/ssfilter.y and parse_hostcond() in misc/ss.c, iproute2 6.1):
 * `dst`/`src` HOST (`10.96.1.1`, `10.244.0.0/16`, `10.96.1.1:80`, `:80`, `*:80`, an optional
 * `=`), `dport`/`sport` with `=`/`==`/`eq`, `!=`/`ne`/`neq`, `<`/`lt`, `>`/`gt`, `<=`/`le`/`leq`,
 * `>=`/`ge`/`geq` and a port (`:80`, `80`, a service name), joined by `and`/`&`/`&&`, `or`/`|`/
 * `||`, juxtaposition (and), `not`/`!` and parentheses. The grammar has one level: `a or b and
 * c` is `(a or b) and c`. Addresses match as ss.c's inet2_addr_match(): a prefix compares the
 * first bits of the address as stored, and an IPv4 rule also matches an IPv4-mapped IPv6 socket.
 * Host names, IPv6 literals, `dev`, `fwmark`, `cgroup` and `autobound` are not modelled.
 */
import { servicePort } from '../netfilter/services';

export interface SockAddrBits {
  /** The address as the kernel stores it: one 32-bit word for IPv4, four for IPv6. */
  readonly words: readonly number[];
  readonly port: number;
}

export interface FilterSocket {
  readonly local: SockAddrBits;
  readonly remote: SockAddrBits;
}

interface HostCond {
  /** undefined: any address. */
  readonly prefix?: { readonly word: number; readonly bits: number };
  /** -1: any port. */
  readonly port: number;
}

type Node =
  | { readonly kind: 'and' | 'or'; readonly a: Node; readonly b: Node }
  | { readonly kind: 'not'; readonly e: Node }
  | { readonly kind: 'dst' | 'src'; readonly cond: HostCond }
  | { readonly kind: 'dge' | 'dle' | 'sge' | 'sle'; readonly port: number };

/** A parse failure: ss's own message (and exit status), or the lab's "not modelled". */
export type FilterError =
  | { readonly kind: 'syntax' }
  | { readonly kind: 'message'; readonly stderr: string; readonly exitCode: number }
  | { readonly kind: 'unmodelled' };

const OPS: Readonly<Record<string, string>> = {
  '=': '=', '==': '=', eq: '=', '!=': '!=', ne: '!=', neq: '!=', '>=': '>=', ge: '>=',
  geq: '>=', '<=': '<=', le: '<=', leq: '<=', '>': '>', gt: '>', '<': '<', lt: '<',
}; // prettier-ignore

const UNMODELLED = new Set(['dev', 'fwmark', 'cgroup', 'autobound']);

function ipv4Word(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (m === null) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((w, p) => w * 256 + p, 0);
}

/** parse_hostcond(): a host condition, or why not. */
function hostCond(text: string, portOnly: boolean, ctx: ParseContext): HostCond | FilterError {
  const { tcp, udp } = ctx;
  let addr = text;
  let port: string | undefined;
  if (!portOnly && (addr.startsWith('[') || /^(unix|link|netlink|vsock|inet|inet6):/.test(addr) || addr.split(':').length > 2)) return { kind: 'unmodelled' }; // prettier-ignore
  if (addr.startsWith('*')) port = addr.slice(1);
  else {
    const slash = addr.indexOf('/');
    const colon = addr.lastIndexOf(':');
    if (colon >= 0 && colon > slash) port = addr.slice(colon);
  }
  if (portOnly) port = addr;
  let portNum = -1;
  if (port !== undefined && port !== '') {
    if (!portOnly) addr = addr.slice(0, addr.length - port.length);
    const p = port.startsWith(':') ? port.slice(1) : port;
    if (p !== '' && p !== '*') {
      if (/^\d+$/.test(p)) portNum = Number(p);
      else {
        const u = udp ? servicePort(p, 'udp') : undefined;
        const t = tcp ? servicePort(p, 'tcp') : undefined;
        if (u !== undefined && t !== undefined && u !== t)
          return { kind: 'message', stderr: `Error: ambiguous port "${p}".\nCannot parse dst/src address.\n`, exitCode: 1 }; // prettier-ignore
        const found = u ?? t;
        if (found === undefined)
          return { kind: 'message', stderr: `Error: "${p}" does not look like a port.\nCannot parse dst/src address.\n`, exitCode: 1 }; // prettier-ignore
        portNum = found;
      }
    }
  }
  if (portOnly || addr === '' || addr === '*') return { port: portNum };
  const [ip = '', len] = addr.split('/');
  // -6 makes an address IPv6 (preferred_family): an IPv4 one is then no prefix at all.
  const word = ctx.family === 6 ? undefined : ipv4Word(ip);
  const bits = len === undefined ? 32 : /^\d+$/.test(len) ? Number(len) : NaN;
  if (word === undefined || !(bits >= 0 && bits <= 32)) {
    // Not an address: ss would look the name up in DNS, which the lab's ss does not do.
    if (ipv4Word(ip) === undefined && /^[a-z][a-z0-9.-]*$/i.test(ip)) return { kind: 'unmodelled' };
    return { kind: 'message', stderr: `Error: an inet prefix is expected rather than "${addr}".\nCannot parse dst/src address.\n`, exitCode: 1 }; // prettier-ignore
  }
  return { prefix: { word, bits }, port: portNum };
}

/** What parsing a host condition depends on: the socket kinds asked for, the last of -4/-6. */
export interface ParseContext {
  readonly tcp: boolean;
  readonly udp: boolean;
  readonly family: 4 | 6 | undefined;
}

/** The expression of `tokens` (ss's filter arguments), or why it cannot be used. */
export function parseFilter(args: readonly string[], ctx: ParseContext): Node | FilterError {
  const tokens = args.flatMap((a) => a.split(/[ \t]+/)).filter((t) => t !== '');
  let at = 0;
  const fail = (e: FilterError): never => {
    throw e;
  };
  const isAnd = (t: string | undefined) => t === '&' || t === '&&' || t === 'and';
  const isOr = (t: string | undefined) => t === '|' || t === '||' || t === 'or';
  const list = (): Node => {
    let left = expr();
    for (;;) {
      const t = tokens[at];
      if (t === undefined || t === ')') return left;
      if (isOr(t) || isAnd(t)) at++;
      left = { kind: isOr(t) ? 'or' : 'and', a: left, b: expr() };
    }
  };
  const host = (portOnly: boolean): HostCond => {
    const t = tokens[at++];
    if (t === undefined || OPS[t] !== undefined || t === '(' || t === ')') fail({ kind: 'syntax' });
    const c = hostCond(t!, portOnly, ctx);
    return 'kind' in c ? fail(c) : c;
  };
  const expr = (): Node => {
    const t = tokens[at++];
    if (t === undefined) return fail({ kind: 'syntax' });
    if (t === '(') {
      const e = list();
      if (tokens[at++] !== ')') fail({ kind: 'syntax' });
      return e;
    }
    if (t === '!' || t === 'not') return { kind: 'not', e: expr() };
    if (UNMODELLED.has(t)) return fail({ kind: 'unmodelled' });
    if (t === 'dst' || t === 'src') {
      if (OPS[tokens[at] ?? ''] === '=') at++;
      return { kind: t, cond: host(false) };
    }
    if (t === 'dport' || t === 'sport') {
      const op = OPS[tokens[at] ?? ''];
      if (op !== undefined) at++;
      const side = t === 'dport' ? 'd' : 's';
      const port = host(true).port;
      const cond: Node = { kind: t === 'dport' ? 'dst' : 'src', cond: { port } };
      switch (op ?? '=') {
        case '=': return cond;
        case '!=': return { kind: 'not', e: cond };
        case '>=': return { kind: `${side}ge`, port };
        case '<=': return { kind: `${side}le`, port };
        case '>': return { kind: 'not', e: { kind: `${side}le`, port } };
        default: return { kind: 'not', e: { kind: `${side}ge`, port } };
      } // prettier-ignore
    }
    return fail({ kind: 'syntax' });
  };
  try {
    const node = list();
    if (at < tokens.length) return { kind: 'syntax' };
    return node;
  } catch (e) {
    return e as FilterError;
  }
}

export const isFilterError = (x: Node | FilterError): x is FilterError =>
  x.kind === 'syntax' || x.kind === 'message' || x.kind === 'unmodelled';

/** inet_addr_match() on the first word, then the IPv4-mapped case of inet2_addr_match(). */
function addrMatches(a: SockAddrBits, prefix: { word: number; bits: number }): boolean {
  const mask = prefix.bits === 0 ? 0 : (0xffffffff << (32 - prefix.bits)) >>> 0;
  const same = (w: number) => (w & mask) >>> 0 === (prefix.word & mask) >>> 0;
  if (same(a.words[0] ?? 0)) return true;
  const mapped = a.words.length === 4 && a.words[0] === 0 && a.words[1] === 0 && a.words[2] === 0xffff; // prettier-ignore
  return mapped && same(a.words[3] ?? 0);
}

function condMatches(c: HostCond, a: SockAddrBits): boolean {
  if (c.port !== -1 && c.port !== a.port) return false;
  return c.prefix === undefined || addrMatches(a, c.prefix);
}

/** run_ssfilter(). */
export function filterMatches(n: Node, s: FilterSocket): boolean {
  switch (n.kind) {
    case 'and':
      return filterMatches(n.a, s) && filterMatches(n.b, s);
    case 'or':
      return filterMatches(n.a, s) || filterMatches(n.b, s);
    case 'not':
      return !filterMatches(n.e, s);
    case 'dst':
      return condMatches(n.cond, s.remote);
    case 'src':
      return condMatches(n.cond, s.local);
    case 'dge':
      return s.remote.port >= n.port;
    case 'dle':
      return s.remote.port <= n.port;
    case 'sge':
      return s.local.port >= n.port;
    case 'sle':
      return s.local.port <= n.port;
  }
}

export type SsFilter = Node;
