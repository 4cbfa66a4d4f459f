/**
 * Values of the data types kube-proxy's sets and maps use, and the order nft lists set
 * elements in (src/mergesort.c, nft 1.0.6): a single value sorts by its number (10.96.0.10
 * before 172.30.0.41); a concatenation's components are exported in their own byte order one
 * after the other and the bytes imported back in *host* (little-endian) order
 * (`concat_expr_msort_value`), so its last byte weighs most: `ip . proto . port` elements sort
 * by port (low byte first), then protocol, then the address's last octet. Checked against the
 * real nft in tests/kernel/nft-views.test.ts.
 */
import { cidrParse, ipToInt } from '../model/ip';

const PROTO_NUMBERS: Readonly<Record<string, number>> = { icmp: 1, tcp: 6, udp: 17, sctp: 132 };

export function protoNumber(name: string): number | undefined {
  return PROTO_NUMBERS[name];
}

/** The numeric value of one key component (an address or CIDR start, protocol, port). */
export function componentValue(v: string): number {
  if (v.includes('.')) {
    const cidr = v.includes('/') ? cidrParse(v, { allowHostBits: true }) : undefined;
    return ipToInt(cidr ? cidr.network : v);
  }
  const proto = PROTO_NUMBERS[v];
  if (proto !== undefined) return proto;
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}

/** A component's bytes in network order: 4 for an address, 1 for a protocol, 2 for a port. */
function componentBytes(v: string): number[] {
  const n = componentValue(v);
  if (v.includes('.')) return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  if (PROTO_NUMBERS[v] !== undefined) return [n & 255];
  return [(n >>> 8) & 255, n & 255];
}

/** Element order as nft prints it. */
export function compareKeys(a: readonly string[], b: readonly string[]): number {
  if (a.length === 1 && b.length === 1) {
    const x = componentValue(a[0]!);
    const y = componentValue(b[0]!);
    return x === y ? 0 : x < y ? -1 : 1;
  }
  const x = a.flatMap(componentBytes);
  const y = b.flatMap(componentBytes);
  for (let i = Math.max(x.length, y.length) - 1; i >= 0; i--) {
    const p = x[i] ?? 0;
    const q = y[i] ?? 0;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

/**
 * An anonymous set of addresses and prefixes as the kernel keeps it (an interval set, nft
 * merges overlapping and adjacent ranges): what `nft list` prints back, sorted.
 */
export function mergeAddressIntervals(values: readonly string[]): string[] {
  const ranges = values
    .map((v) => {
      const cidr = v.includes('/') ? cidrParse(v, { allowHostBits: true }) : undefined;
      const start = ipToInt(cidr ? cidr.network : v);
      const size = cidr ? 2 ** (32 - cidr.prefix) : 1;
      return { start, end: start + size - 1 };
    })
    .sort((p, q) => p.start - q.start);
  const merged: { start: number; end: number }[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged.map(({ start, end }) => {
    const size = end - start + 1;
    const prefix = 32 - Math.log2(size);
    const ip = (n: number) => `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
    if (size === 1) return ip(start);
    if (Number.isInteger(prefix) && start % size === 0) return `${ip(start)}/${prefix}`;
    return `${ip(start)}-${ip(end)}`;
  });
}
