/**
 * An iptables rule as `nft list` prints it (nftables 1.0.6) when iptables-nft (1.8.9) put it
 * in the kernel. iptables-nft writes a rule as nf_tables expressions: the IPv4 header fields
 * (`-i -o -p -s -d -f`), `-m tcp|udp` with ports and `-m mark` as native payload/meta
 * compares, `-j ACCEPT|DROP|RETURN`, jumps and gotos as verdicts; every other match or target
 * stays an `xt` (x_tables compat) expression. nft prints an `xt` expression through the
 * extension's libxtables `xlate` function, whose output is not always what the rule does (the
 * quirks below are the real tool's, each seen on the kernel: tests/kernel/nft-iptables.test.ts),
 * and `xt match NAME` / `xt target NAME` when there is none.
 *
 * Statements are joined by one space, an empty one included (`-m comment` translates to
 * nothing, hence kube-proxy's double spaces). nft drops `meta l4proto X` when a native
 * `X sport|dport` compare follows it with no `xt` expression in between (payload dependency
 * elimination, netlink_delinearize.c).
 */
import { icmpXlate } from '../match-icmp';
import { nftLimitText } from '../match-limit';
import { protocolName } from '../protocols';
import type { AddrSpec, IfaceSpec, Match, NatRange, PortRange, Rule, Target } from '../types';
import { ADDR_TYPES, CT_STATES } from '../types';

/** One printed statement; `xt` ones come from an x_tables expression. */
interface Part {
  readonly text: string;
  readonly xt: boolean;
  /** `meta l4proto X` (not inverted): dropped when a native `X …port` compare follows. */
  readonly l4?: string;
  /** A native transport-header compare of this protocol. */
  readonly payload?: string;
}

export interface NftRuleText {
  readonly text: string;
  /** The rule holds an x_tables expression: nft warns that iptables-nft manages the table. */
  readonly xt: boolean;
}

function isFullRange(r: PortRange | undefined): boolean {
  return r === undefined || (r.min === 0 && r.max === 65535);
}

function iface(dir: 'iifname' | 'oifname', spec: IfaceSpec): string {
  // `eth+` (a prefix) is the wildcard string "eth*".
  const name = spec.name.endsWith('+') ? `${spec.name.slice(0, -1)}*` : spec.name;
  return `${dir}${spec.invert ? ' !=' : ''} "${name}"`;
}

function addr(dir: 'saddr' | 'daddr', spec: AddrSpec): string | undefined {
  if (spec.prefix === 0) return undefined;
  const value = spec.prefix === 32 ? spec.addr : `${spec.addr}/${spec.prefix}`;
  return `ip ${dir} ${spec.invert ? '!= ' : ''}${value}`;
}

/** A native port compare: `80`, `<= 80` (from 0), `80-90`, each with its inversion. */
function nativePort(proto: string, dir: 'sport' | 'dport', r: PortRange): string {
  const head = `${proto} ${dir} `;
  if (r.min === r.max) return `${head}${r.invert ? '!= ' : ''}${r.min}`;
  if (r.min === 0) return `${head}${r.invert ? '> ' : '<= '}${r.max}`;
  return `${head}${r.invert ? '!= ' : ''}${r.min}-${r.max}`;
}

/**
 * A flags compare `(flags & mask) == cmp` as nft 1.0.6 lists it (seen in namespaces): a zero
 * cmp as `! MASK` (none set; inverted: `MASK`, any set), a one-bit mask equal to cmp as
 * `& X == X`, otherwise `CMP / MASK` (inverted `!= CMP / MASK`).
 */
function tcpFlagsText(f: {
  readonly mask: number;
  readonly cmp: number;
  readonly invert: boolean;
}): string {
  const names = (bits: number): string =>
    ['fin', 'syn', 'rst', 'psh', 'ack', 'urg'].filter((_, i) => (bits & (1 << i)) !== 0).join(',');
  if (f.cmp === 0) return `tcp flags ${f.invert ? '' : '! '}${names(f.mask)}`;
  if (f.cmp === f.mask && (f.mask & (f.mask - 1)) === 0)
    return `tcp flags & ${names(f.mask)} ${f.invert ? '!=' : '=='} ${names(f.cmp)}`;
  return `tcp flags ${f.invert ? '!= ' : ''}${names(f.cmp)} / ${names(f.mask)}`;
}

function rangeText(min: number, max: number): string {
  return min === max ? String(min) : `${min}-${max}`;
}

function portsPart(m: Extract<Match, { name: 'tcp' | 'udp' | 'sctp' }>): Part | undefined {
  if (m.name === 'sctp') {
    // libxt_sctp's xlate; without ports there is nothing to translate.
    const out: string[] = [];
    for (const [dir, r] of [
      ['sport', m.sport],
      ['dport', m.dport],
    ] as const) {
      if (r !== undefined) out.push(`sctp ${dir} ${r.invert ? '!= ' : ''}${rangeText(r.min, r.max)}`); // prettier-ignore
    }
    return out.length === 0
      ? { text: 'xt match sctp', xt: true }
      : { text: out.join(' '), xt: true };
  }
  // iptables-nft writes native compares unless both ranges are the full 0:65535 uninverted
  // (then it keeps the x_tables match, whose xlate prints nothing). The flags come first
  // (nft.c add_nft_tcp(): add_nft_tcpflags() before the ports).
  const inverted = m.sport?.invert === true || m.dport?.invert === true;
  const flags = m.flags === undefined ? undefined : tcpFlagsText(m.flags);
  if (isFullRange(m.sport) && isFullRange(m.dport) && !inverted && flags === undefined)
    return { text: '', xt: true };
  const out: string[] = flags === undefined ? [] : [flags];
  if (m.sport !== undefined && !isFullRange(m.sport))
    out.push(nativePort(m.name, 'sport', m.sport));
  if (m.dport !== undefined && !isFullRange(m.dport))
    out.push(nativePort(m.name, 'dport', m.dport));
  // An inverted full range compares nothing natively: no statement at all.
  if (out.length === 0) return undefined;
  return { text: out.join(' '), xt: false, payload: m.name };
}

function multiportPart(m: Extract<Match, { name: 'multiport' }>, proto: string): Part {
  const items = m.ports.map((p) => rangeText(p.min, p.max));
  if (m.dir === 'ports') {
    // Either side: a concatenation of (sport . dport) pairs; the inversion is lost.
    const pairs = items.flatMap((p) => [`0-65535 . ${p}`, `${p} . 0-65535`]);
    return { text: `${proto} sport . ${proto} dport { ${pairs.join(', ')} }`, xt: true };
  }
  const dir = m.dir === 'sports' ? 'sport' : 'dport';
  const value = items.length === 1 ? items[0]! : `{ ${items.join(', ')} }`;
  return { text: `${proto} ${dir} ${m.invert ? '!= ' : ''}${value}`, xt: true };
}

function conntrackPart(m: Extract<Match, { name: 'conntrack' | 'state' }>): string {
  // libxt_conntrack's xlate: SNAT/DNAT become `ct status` alone, the states and the
  // inversion are dropped.
  if (m.states.includes('SNAT')) return 'ct status snat';
  if (m.states.includes('DNAT')) return 'ct status dnat';
  const states = CT_STATES.filter((s) => m.states.includes(s)).map((s) => s.toLowerCase());
  return `ct state ${m.invert ? '! ' : ''}${states.join(',')}`;
}

/** nft has no route type for THROW, NAT and XRESOLVE: the xlate leaves them out. */
const FIB_TYPES = new Set(ADDR_TYPES.slice(0, ADDR_TYPES.indexOf('THROW')));

function addrtypePart(m: Extract<Match, { name: 'addrtype' }>): string {
  // Only one side is translated: the source type when both are given.
  const side = m.src ?? m.dst;
  const dir = m.src !== undefined ? 'saddr' : 'daddr';
  const via = m.limitIfaceIn ? ' . iif' : m.limitIfaceOut ? ' . oif' : '';
  const types = ADDR_TYPES.filter((t) => side?.types.includes(t) === true);
  const named = types.filter((t) => FIB_TYPES.has(t)).map((t) => t.toLowerCase());
  const neg = side?.invert === true ? '!= ' : '';
  if (named.length === 0) return `fib ${dir}${via} type`;
  const value = types.length > 1 ? `{ ${named.join(', ')} }` : named[0]!;
  return `fib ${dir}${via} type ${neg}${value}`;
}

function hex8(n: number): string {
  return `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
}

function matchPart(m: Match, proto: string): Part | undefined {
  switch (m.name) {
    case 'comment':
      return { text: '', xt: true };
    case 'tcp':
    case 'udp':
    case 'sctp':
      return portsPart(m);
    case 'multiport':
      return multiportPart(m, proto);
    case 'mark': {
      const op = m.invert ? '!= ' : '';
      if (m.mask === 0xffffffff) return { text: `meta mark ${op}${hex8(m.mark)}`, xt: false };
      return { text: `meta mark & ${hex8(m.mask)} ${m.invert ? '!=' : '=='} ${hex8(m.mark)}`, xt: false }; // prettier-ignore
    }
    case 'statistic':
      if (m.mode === 'random')
        return { text: `meta random & 2147483647 ${m.invert ? '>=' : '<'} ${m.probability}`, xt: true }; // prettier-ignore
      return { text: `numgen inc mod ${m.every} ${m.invert ? '!= ' : ''}${m.packet}`, xt: true };
    case 'conntrack':
    case 'state':
      return { text: conntrackPart(m), xt: true };
    case 'icmp':
      return { text: icmpXlate(m) ?? 'xt match icmp', xt: true };
    case 'limit':
      // A native nf_tables expression, not an x_tables one (nft.c add_nft_limit).
      return { text: nftLimitText(m), xt: false };
    case 'iprange': {
      const side = (dir: string, r: typeof m.src): string[] =>
        r === undefined ? [] : [`ip ${dir} ${r.invert ? '!= ' : ''}${r.min}-${r.max}`];
      return { text: [...side('saddr', m.src), ...side('daddr', m.dst)].join(' '), xt: true };
    }
    case 'addrtype':
      return { text: addrtypePart(m), xt: true };
    case 'recent':
    case 'set':
    case 'physdev':
    case 'nfacct':
    case 'ipvs':
      return { text: `xt match ${m.name}`, xt: true };
  }
}

function natRange(r: NatRange): string {
  let s = '';
  if (r.minAddr !== undefined) s += r.minAddr === r.maxAddr ? r.minAddr : `${r.minAddr}-${r.maxAddr}`; // prettier-ignore
  if (r.minPort !== undefined) s += `:${rangeText(r.minPort, r.maxPort ?? r.minPort)}`;
  return s;
}

function natFlags(r: NatRange): string {
  const flags = [
    r.random && 'random',
    r.randomFully && 'fully-random',
    r.persistent && 'persistent',
  ];
  const set = flags.filter((f): f is string => f !== false);
  return set.length === 0 ? '' : ` ${set.join(',')}`;
}

/** libxt_MARK / libxt_CONNMARK xlate of `(old & ~mask) ^ value`. */
function markSet(what: 'meta mark' | 'ct mark', value: number, mask: number): string {
  const h = (n: number): string => `0x${(n >>> 0).toString(16)}`;
  const head = `${what} set `;
  if (mask === 0xffffffff) return `${head}${h(value)}`;
  if (value === 0) return `${head}${what === 'meta mark' ? 'mark' : 'ct mark'} and ${h(~mask)}`;
  const old = what === 'meta mark' ? 'mark' : 'ct mark';
  if (value === mask) return `${head}${old} or ${h(value)}`;
  if (mask === 0) return `${head}${old} xor ${h(value)}`;
  // The two xlate functions write the general case in opposite orders.
  return what === 'meta mark'
    ? `${head}${old} and ${h(~mask)} xor ${h(value)}`
    : `${head}${old} xor ${h(value)} and ${h(~mask)}`;
}

const LOG_LEVELS = ['emerg', 'alert', 'crit', 'err', 'warn', 'notice', 'info', 'debug'];

function logText(t: Extract<Target, { kind: 'LOG' }>): string {
  let s = 'log';
  if (t.prefix !== '') s += ` prefix "${t.prefix}"`;
  if (t.level !== 4) s += ` level ${LOG_LEVELS[t.level] ?? t.level}`;
  const tcp = [t.flags & 0x01 && 'sequence', t.flags & 0x02 && 'options'].filter(Boolean);
  if (tcp.length > 0) s += ` flags tcp ${tcp.join(',')}`;
  if (t.flags & 0x04) s += ' flags ip options';
  if (t.flags & 0x08) s += ' flags skuid';
  if (t.flags & 0x20) s += ' flags ether';
  return s;
}

function connmarkText(t: Extract<Target, { kind: 'CONNMARK' }>): string {
  if (t.mode === 'set') return markSet('ct mark', t.ctmark, t.ctmask);
  const head = t.mode === 'save' ? 'ct mark set mark' : 'meta mark set ct mark';
  if (t.nfmask === 0xffffffff && t.ctmask === 0xffffffff) return head;
  if (t.nfmask === t.ctmask) return `${head} and 0x${(t.nfmask >>> 0).toString(16)}`;
  return 'xt target CONNMARK';
}

const REJECT_ICMP: Readonly<Record<string, string>> = {
  'icmp-net-unreachable': 'net-unreachable',
  'icmp-host-unreachable': 'host-unreachable',
  'icmp-proto-unreachable': 'prot-unreachable',
  'icmp-net-prohibited': 'net-prohibited',
  'icmp-host-prohibited': 'host-prohibited',
  'icmp-admin-prohibited': 'admin-prohibited',
};

/** The verdict or target statement; undefined for a rule without one. */
function targetPart(t: Target): Part | undefined {
  switch (t.kind) {
    case 'none':
      return undefined;
    case 'jump':
      return { text: `${t.goto ? 'goto' : 'jump'} ${t.chain}`, xt: false };
    case 'ACCEPT':
    case 'DROP':
    case 'RETURN':
      return { text: t.kind.toLowerCase(), xt: false };
    case 'REJECT': {
      if (t.with === 'icmp-port-unreachable') return { text: 'reject', xt: true };
      if (t.with === 'tcp-reset') return { text: 'reject with tcp reset', xt: true };
      const icmp = REJECT_ICMP[t.with];
      return { text: icmp === undefined ? 'xt target REJECT' : `reject with icmp type ${icmp}`, xt: true }; // prettier-ignore
    }
    case 'DNAT':
    case 'SNAT':
      return { text: `${t.kind.toLowerCase()} to ${natRange(t.range)}${natFlags(t.range)}`, xt: true }; // prettier-ignore
    case 'MASQUERADE': {
      const to = t.range.minPort === undefined ? '' : ` to ${natRange(t.range)}`;
      return { text: `masquerade${to}${natFlags(t.range)}`, xt: true };
    }
    case 'REDIRECT': {
      const to = t.range.minPort === undefined ? '' : ` to ${natRange(t.range)}`;
      return { text: `redirect${to}${natFlags(t.range)}`, xt: true };
    }
    case 'MARK':
      return { text: markSet('meta mark', t.value, t.mask), xt: true };
    case 'CONNMARK':
      return { text: connmarkText(t), xt: true };
    case 'LOG':
      return { text: logText(t), xt: true };
    case 'TRACE':
      // nft_xlate's TRACE: the native statement, no xt target.
      return { text: 'meta nftrace set 1', xt: false };
    case 'NOTRACK':
      return { text: 'notrack', xt: true };
    case 'CT':
      return { text: t.notrack ? 'notrack' : 'xt target CT', xt: true };
  }
}

/** The rule's statements in iptables-nft's order, the counter and the verdict. */
export function nftRuleText(rule: Rule): NftRuleText {
  const parts: Part[] = [];
  const push = (text: string | undefined, xt = false): void => {
    if (text !== undefined) parts.push({ text, xt });
  };
  if (rule.inIface !== undefined) push(iface('iifname', rule.inIface));
  if (rule.outIface !== undefined) push(iface('oifname', rule.outIface));
  const p = rule.protocol;
  const proto = p === undefined ? '' : (protocolName(p.num) ?? String(p.num));
  if (p !== undefined && p.num !== 0) {
    const l4 = `meta l4proto ${p.invert ? '!= ' : ''}${proto}`;
    parts.push(p.invert ? { text: l4, xt: false } : { text: l4, xt: false, l4: proto });
  }
  if (rule.src !== undefined) push(addr('saddr', rule.src));
  if (rule.dst !== undefined) push(addr('daddr', rule.dst));
  if (rule.fragment !== undefined) push(`ip frag-off & 8191 ${rule.fragment.invert ? '==' : '!='} 0`); // prettier-ignore
  for (const m of rule.matches) {
    const part = matchPart(m, proto);
    if (part !== undefined) parts.push(part);
  }
  dropL4Dependency(parts);
  const target = targetPart(rule.target);
  const words = parts.map((x) => x.text);
  words.push(`counter packets ${rule.counters.packets} bytes ${rule.counters.bytes}`);
  if (target !== undefined) words.push(target.text);
  const xt = parts.some((x) => x.xt) || target?.xt === true;
  return { text: words.join(' '), xt };
}

/** Payload dependency elimination: `meta l4proto tcp` goes when `tcp dport 80` says it. */
function dropL4Dependency(parts: Part[]): void {
  const at = parts.findIndex((x) => x.l4 !== undefined);
  if (at < 0) return;
  for (let i = at + 1; i < parts.length; i++) {
    const x = parts[i]!;
    if (x.xt) return;
    if (x.payload === parts[at]!.l4 && x.text !== '') {
      parts.splice(at, 1);
      return;
    }
  }
}
