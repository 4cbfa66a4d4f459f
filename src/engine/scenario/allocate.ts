/**
 * The API server's ClusterIP and NodePort allocators (pkg/registry/core/service/ipallocator and
 * portallocator), made deterministic.
 *
 * Both split their range in two bands (KEP-3070 for ClusterIPs, KEP-3668 for NodePorts): a
 * lower band of min(max(16, size/16), 256) addresses, or min(max(16, ports/32), 128) ports,
 * that dynamic allocation only uses once the upper band is full, so values users pick by hand
 * (the DNS Service's 10.96.0.10, a NodePort 30080) rarely collide with allocated ones. The API
 * server picks a random free value in the upper band; the lab picks the lowest free one, so a
 * scenario always gets the same addresses (10.96.1.1, 10.96.1.2… and 30086, 30087… by default).
 */
import { cidrNth, cidrSize, ipToInt } from '../model/ip';
import type { Cidr } from '../model/ip';
import { cidrContains } from '../model/ip';

export type AllocateResult = 'ok' | 'allocated' | 'range';

export class ClusterIPAllocator {
  private readonly used = new Set<number>();
  private readonly free = new LowestFree(this.used);
  /** Usable offsets from the network address: 1 … size-2 (no network, no broadcast address). */
  private readonly first = 1;
  private readonly last: number;
  private readonly bandStart: number;

  constructor(readonly cidr: Cidr) {
    const size = cidrSize(cidr);
    this.last = size - 2;
    // calculateRangeOffset: min(max(16, size/16), 256), 0 for tiny ranges.
    const offset = size <= 16 ? 0 : Math.min(Math.max(16, Math.floor(size / 16)), 256);
    this.bandStart = this.first + offset;
  }

  get range(): string {
    return `${this.cidr.network}/${this.cidr.prefix}`;
  }

  allocate(ip: string): AllocateResult {
    if (!cidrContains(this.cidr, ip)) return 'range';
    const off = ipToInt(ip) - ipToInt(this.cidr.network);
    if (off < this.first || off > this.last) return 'range';
    if (this.used.has(off)) return 'allocated';
    this.used.add(off);
    return 'ok';
  }

  release(ip: string): void {
    if (!cidrContains(this.cidr, ip)) return;
    this.used.delete(ipToInt(ip) - ipToInt(this.cidr.network));
    this.free.reset();
  }

  has(ip: string): boolean {
    return cidrContains(this.cidr, ip) && this.used.has(ipToInt(ip) - ipToInt(this.cidr.network));
  }

  /** Lowest free address of the upper band, then of the lower band; undefined when full. */
  next(): string | undefined {
    const off =
      this.free.find(this.bandStart, this.last) ?? this.free.find(this.first, this.bandStart - 1);
    if (off === undefined) return undefined;
    this.used.add(off);
    return cidrNth(this.cidr, off);
  }
}

export const NODE_PORT_BASE = 30000;
export const NODE_PORT_SIZE = 2768;

/** The default --service-node-port-range 30000-32767. */
export class NodePortAllocator {
  private readonly used = new Set<number>();
  private readonly free = new LowestFree(this.used);
  private readonly bandStart: number;
  readonly range = `${NODE_PORT_BASE}-${NODE_PORT_BASE + NODE_PORT_SIZE - 1}`;

  constructor() {
    const offset = Math.min(Math.max(16, Math.floor(NODE_PORT_SIZE / 32)), 128);
    this.bandStart = NODE_PORT_BASE + offset;
  }

  allocate(port: number): AllocateResult {
    if (port < NODE_PORT_BASE || port >= NODE_PORT_BASE + NODE_PORT_SIZE) return 'range';
    if (this.used.has(port)) return 'allocated';
    this.used.add(port);
    return 'ok';
  }

  release(port: number): void {
    this.used.delete(port);
    this.free.reset();
  }

  next(): number | undefined {
    const last = NODE_PORT_BASE + NODE_PORT_SIZE - 1;
    const port =
      this.free.find(this.bandStart, last) ?? this.free.find(NODE_PORT_BASE, this.bandStart - 1);
    if (port !== undefined) this.used.add(port);
    return port;
  }
}

/**
 * The lowest value of [from, to] not in `used`. Values below the last answer stay used until
 * something is released (allocations only add), so each search resumes there: allocating n
 * values costs n steps, not n² (10,000 Services).
 */
class LowestFree {
  private readonly resume = new Map<number, number>();
  constructor(private readonly used: ReadonlySet<number>) {}

  find(from: number, to: number): number | undefined {
    for (let v = Math.max(from, this.resume.get(from) ?? from); v <= to; v++) {
      if (!this.used.has(v)) {
        this.resume.set(from, v);
        return v;
      }
    }
    this.resume.set(from, to + 1);
    return undefined;
  }

  /** A released value may be below a resume point. */
  reset(): void {
    this.resume.clear();
  }
}

/** ErrNotInRange / ErrAllocated of the ipallocator, as `failed to allocate IP <ip>: <err>`. */
export function clusterIPError(ip: string, result: AllocateResult, range: string): string {
  const err =
    result === 'allocated'
      ? 'provided IP is already allocated'
      : `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${range}`;
  return `failed to allocate IP ${ip}: ${err}`;
}

/** ErrNotInRange / ErrAllocated of the portallocator. */
export function nodePortError(result: AllocateResult, range: string): string {
  return result === 'allocated'
    ? 'provided port is already allocated'
    : `provided port is not in the valid range. The range of valid ports is ${range}`;
}
