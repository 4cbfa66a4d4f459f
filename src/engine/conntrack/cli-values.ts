/**
 * Argument values of conntrack-tools 1.4.7 options: addresses (parse_addr() with inet_aton()
 * and CIDR masks), NAT address:port (split_address_and_port()), ports (the extensions' atoi())
 * and comma-separated parameter words (parse_parameter()).
 */
import { ipFromInt } from '../model/ip';
import { longName, ParamError } from './cli-options';
import type { TcpState } from './model';

/** An address option: an IPv4 address (as dotted quad) and its CIDR prefix, or IPv6. */
export interface AddrFilter {
  readonly addr: string;
  readonly prefix: number;
  readonly v6?: boolean;
}

/** The template of nfct_filter()/nfct_cmp(): every field set must match. */
export interface Template {
  origSrc?: AddrFilter;
  origDst?: AddrFilter;
  replySrc?: AddrFilter;
  replyDst?: AddrFilter;
  proto?: number;
  sport?: number;
  dport?: number;
  replySport?: number;
  replyDport?: number;
  tcpState?: TcpState;
  icmpType?: number;
  icmpCode?: number;
  icmpId?: number;
  mark?: { readonly value: number; readonly mask: number };
  srcNat?: { readonly addr?: AddrFilter; readonly port?: number };
  dstNat?: { readonly addr?: AddrFilter; readonly port?: number };
  anyNat?: boolean;
  family?: 'ipv4' | 'ipv6';
}

export const PROTOS: Readonly<Record<string, number>> = {
  tcp: 6,
  udp: 17,
  udplite: 136,
  sctp: 132,
  dccp: 33,
  icmp: 1,
  icmpv6: 58,
  gre: 47,
  ip: 0,
  igmp: 2,
  ipip: 4,
  esp: 50,
  ah: 51,
};

/** inet_aton(): 1 to 4 parts, each decimal, octal (0…) or hex (0x…). */
export function inetAton(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0[xX][0-9a-fA-F]*$/.test(p)) n = p.length > 2 ? parseInt(p.slice(2), 16) : 0;
    else if (/^0[0-7]*$/.test(p)) n = parseInt(p, 8);
    else if (/^[1-9]\d*$/.test(p)) n = Number(p);
    else return undefined;
    nums.push(n);
  }
  const last = nums.pop() ?? 0;
  if (nums.some((n) => n > 255) || last >= 2 ** (8 * (4 - nums.length))) return undefined;
  return nums.reduce((acc, n, i) => acc + n * 2 ** (24 - 8 * i), 0) + last;
}

const V6 = /^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$/;

/** parse_addr() + nfct_parse_addr_from_opt(): the address, its netmask and the checks. */
export function parseAddr(arg: string, opt: string, maskAllowed: boolean, t: Template): AddrFilter {
  const slash = arg.indexOf('/');
  const text = slash < 0 ? arg : arg.slice(0, slash);
  let prefix = -1;
  if (slash >= 0) {
    const m = /^\s*([+-]?\d*)$/.exec(arg.slice(slash + 1));
    prefix = m && Number(m[1] || 0) >= 0 ? Number(m[1] || 0) : -2;
  }
  const v4 = inetAton(text);
  const v6 = v4 === undefined && V6.test(text);
  if (v4 === undefined && !v6) throw new ParamError(`Invalid IP address \`${arg}'`);
  const family = v6 ? 'ipv6' : 'ipv4';
  if (prefix > (v6 ? 128 : 32)) prefix = -2;
  if (t.family !== undefined && t.family !== family)
    throw new ParamError('mismatched address family');
  t.family = family;
  if (prefix !== -1 && !maskAllowed) {
    throw new ParamError(`CIDR notation unavailable for \`--${longName(opt)}'`);
  }
  if (prefix === -2) throw new ParamError('Invalid netmask');
  const full = v6 ? 128 : 32;
  return {
    addr: v6 ? text : ipFromInt(v4 ?? 0),
    prefix: prefix < 0 ? full : prefix,
    ...(v6 ? { v6 } : {}),
  };
}

/** atoi() then the u16/u8 cast the extensions apply. */
export function atoi(s: string, bits: number): number {
  const m = /^\s*([+-]?\d+)/.exec(s);
  const n = m ? Number(m[1]) : 0;
  return ((n % 2 ** bits) + 2 ** bits) % 2 ** bits;
}

/** parse_parameter(): comma-separated words matched case-insensitively by prefix. */
export function parseWords(arg: string, words: readonly string[], warnings: string[]): number {
  let mask = 0;
  let rest = arg;
  for (;;) {
    const comma = rest.indexOf(',');
    const word = comma < 0 ? rest : rest.slice(0, comma);
    const lc = word.toLowerCase();
    if (word === '') throw new ParamError(`Bad parameter \`${rest}'`);
    if ('src_nat'.startsWith(lc) || 'dst_nat'.startsWith(lc)) {
      const w = 'src_nat'.startsWith(lc) ? 'SRC_NAT' : 'DST_NAT';
      warnings.push(`WARNING: ignoring ${w}, use --${w === 'SRC_NAT' ? 'src' : 'dst'}-nat instead`);
    } else {
      const i = words.findIndex((w) => w.toLowerCase().startsWith(lc));
      if (i < 0) throw new ParamError(`Bad parameter \`${rest}'`);
      mask |= 1 << i;
    }
    if (comma < 0) return mask;
    rest = rest.slice(comma + 1);
  }
}

/** split_address_and_port() for --src-nat/--dst-nat/--any-nat (IPv4 form). */
export function natArg(arg: string, opt: string, t: Template): { addr: AddrFilter; port?: number } {
  const colon = arg.indexOf(':');
  if (colon < 0 || arg.indexOf(':', colon + 1) >= 0 || arg.includes('[')) {
    return { addr: parseAddr(arg, opt, false, t) };
  }
  const port = arg.slice(colon + 1);
  if (port === '') throw new ParamError("No port specified after `:'");
  if (!/^\d+$/.test(port) || Number(port) > 65535) throw new ParamError(`Invalid port \`${port}'`);
  return { addr: parseAddr(arg.slice(0, colon), opt, false, t), port: Number(port) };
}
