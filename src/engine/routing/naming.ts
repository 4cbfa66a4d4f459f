/**
 * Deterministic stand-ins for the values the kernel, the CNI plugin and containerd pick at
 * random (MACs, veth names, netns names), and the address arithmetic `ip` shows (EUI-64
 * link-locals, IPv6 text form, the LAN /24). Derived from object names so the same cluster
 * always prints the same output.
 */
import type { Pod } from '../model/cluster';
import { ipFromInt, ipToInt, prefixMask } from '../model/ip';

/** A deterministic byte stream from a string: FNV-1a (32-bit) seeding splitmix32. */
export function hashBytes(text: string, count: number): number[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  const out: number[] = [];
  let s = h;
  while (out.length < count) {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    out.push(z & 255, (z >>> 8) & 255, (z >>> 16) & 255, z >>> 24);
  }
  return out.slice(0, count);
}

const hex2 = (b: number): string => b.toString(16).padStart(2, '0');

/** A MAC like the kernel's eth_random_addr(): random bytes, unicast, locally administered. */
export function randomLocalMac(seed: string): string {
  const b = hashBytes(seed, 6);
  b[0] = ((b[0] ?? 0) & 0xfe) | 0x02;
  return b.map(hex2).join(':');
}

/** A NIC address under QEMU/libvirt's default OUI 52:54:00. */
export function qemuMac(seed: string): string {
  return ['52', '54', '00', ...hashBytes(seed, 3).map(hex2)].join(':');
}

/** The host-side veth name the CNI bridge plugin would pick: `veth` + 8 hex digits. */
export function hostVethName(pod: Pick<Pod, 'meta'>): string {
  const seed = `veth:${pod.meta.namespace}/${pod.meta.name}`;
  let name = vethNames.get(seed);
  if (name === undefined) {
    name = `veth${hashBytes(seed, 4).map(hex2).join('')}`;
    // The datapath asks for every packet that crosses a bridge port; the names are few.
    if (vethNames.size >= 65536) vethNames.clear();
    vethNames.set(seed, name);
  }
  return name;
}

const vethNames = new Map<string, string>();

/** containerd's name for a pod's network namespace: `cni-` + a version-4 UUID. */
export function podNetnsName(pod: Pick<Pod, 'meta'>): string {
  const b = hashBytes(`netns:${pod.meta.namespace}/${pod.meta.name}`, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = b.map(hex2).join('');
  return `cni-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The /24 LAN an address sits on, and its gateway (.1). */
export function lanOf(ip: string): {
  network: string;
  prefix: number;
  gateway: string;
  broadcast: string;
} {
  const net = (ipToInt(ip) & prefixMask(24)) >>> 0;
  return {
    network: ipFromInt(net),
    prefix: 24,
    gateway: ipFromInt(net + 1),
    broadcast: ipFromInt(net + 255),
  };
}

export function broadcastOf(ip: string, prefix: number): string {
  return ipFromInt((ipToInt(ip) | ~prefixMask(prefix)) >>> 0);
}

/** An IPv6 address from 8 16-bit groups, as inet_ntop prints it (longest zero run → `::`). */
export function formatIpv6(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** The EUI-64 link-local address the kernel derives from a MAC (RFC 4291 appendix A). */
export function linkLocalFromMac(mac: string): string {
  const b = mac.split(':').map((x) => parseInt(x, 16));
  const bytes = [
    (b[0] ?? 0) ^ 0x02,
    b[1] ?? 0,
    b[2] ?? 0,
    0xff,
    0xfe,
    b[3] ?? 0,
    b[4] ?? 0,
    b[5] ?? 0,
  ];
  const groups = [0xfe80, 0, 0, 0];
  for (let i = 0; i < 8; i += 2) groups.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  return formatIpv6(groups);
}
