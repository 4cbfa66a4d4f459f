/**
 * IPv4 addresses and CIDRs. The lab models an IPv4 single-stack cluster (kube-proxy's
 * IPv6 proxier writes the same rules with other addresses; the lab says so on screen).
 *
 * Addresses are kept as dotted-quad strings in the model (what every tool prints) and
 * converted to unsigned 32-bit integers only where arithmetic is needed.
 */

const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** True for a canonical dotted-quad IPv4 address, as Go's net.ParseIP accepts it (no leading zeros). */
export function ipIsValid(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => OCTET.test(p));
}

/**
 * Dotted quad → unsigned 32-bit integer. The caller validates first. (Hot: every packet's
 * routing and every rule's address; read digit by digit, nothing allocated.)
 */
export function ipToInt(ip: string): number {
  let value = 0;
  let octet = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      value = value * 256 + octet;
      octet = 0;
    } else octet = octet * 10 + (c - 48);
  }
  return (value * 256 + octet) >>> 0;
}

/** Unsigned 32-bit integer → dotted quad. */
export function ipFromInt(value: number): string {
  const v = value >>> 0;
  return `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

export interface Cidr {
  /** The network address (host bits cleared). */
  readonly network: string;
  readonly prefix: number;
}

/** Parses `a.b.c.d/n`; returns undefined when malformed. Host bits must be zero, as the API server requires for CIDR fields. */
export function cidrParse(text: string, opts: { allowHostBits?: boolean } = {}): Cidr | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const addr = text.slice(0, slash);
  const len = text.slice(slash + 1);
  if (!ipIsValid(addr) || !/^(3[0-2]|[12]?\d)$/.test(len)) return undefined;
  const prefix = Number(len);
  const base = ipToInt(addr);
  const network = (base & prefixMask(prefix)) >>> 0;
  if (network !== base && !opts.allowHostBits) return undefined;
  return { network: ipFromInt(network), prefix };
}

/** The netmask of a prefix length as an unsigned integer. */
export function prefixMask(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

export function cidrContains(cidr: Cidr, ip: string): boolean {
  const mask = prefixMask(cidr.prefix);
  return (ipToInt(ip) & mask) >>> 0 === ipToInt(cidr.network);
}

export function cidrToString(cidr: Cidr): string {
  return `${cidr.network}/${cidr.prefix}`;
}

/** Number of addresses in the block. */
export function cidrSize(cidr: Cidr): number {
  return 2 ** (32 - cidr.prefix);
}

/** The n-th address of the block (0 = the network address). */
export function cidrNth(cidr: Cidr, n: number): string {
  return ipFromInt(ipToInt(cidr.network) + n);
}

/** Orders addresses numerically (used where a tool sorts by address). */
export function ipCompare(a: string, b: string): number {
  return ipToInt(a) - ipToInt(b);
}
