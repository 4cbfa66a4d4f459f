/**
 * What iproute2 6.1.0 (`ip -V`: "ip utility, iproute2-6.1.0", Debian bookworm) prints for the
 * lab's interfaces and routes, byte for byte — including the trailing spaces iproute2 leaves
 * after `scope host`/`scope link` on inet6 lines and at the end of every route line.
 * Checked line for line against the real tool in tests/kernel/ip-views.test.ts.
 */
import { ipToInt, prefixMask } from '../model/ip';
import type { HostNetwork, IfAddress, NetInterface, Route } from './topology';

export type Family = 'all' | 'inet' | 'inet6';

/** Link flags as print_link_flags() prints them (ipaddress.c). */
export function linkFlags(i: NetInterface): string {
  if (i.type === 'loopback') return '<LOOPBACK,UP,LOWER_UP>';
  if (i.type === 'dummy') return '<BROADCAST,NOARP>';
  return i.carrier ? '<BROADCAST,MULTICAST,UP,LOWER_UP>' : '<NO-CARRIER,BROADCAST,MULTICAST,UP>';
}

/** RFC 2863 operstate as `ip` names it: lo never reports one (UNKNOWN). */
export function operState(i: NetInterface): 'UP' | 'DOWN' | 'UNKNOWN' {
  if (i.type === 'loopback') return 'UNKNOWN';
  if (i.type === 'dummy') return 'DOWN';
  return i.carrier ? 'UP' : 'DOWN';
}

/** `eth0`, or `veth…@if2` / `eth0@if5` for a veth whose peer is in another namespace. */
export function linkName(i: NetInterface): string {
  return i.peerIfindex === undefined ? i.name : `${i.name}@if${i.peerIfindex}`;
}

function netnsSuffix(i: NetInterface): string {
  if (i.linkNetns === undefined) return '';
  return 'name' in i.linkNetns
    ? ` link-netns ${i.linkNetns.name}`
    : ` link-netnsid ${i.linkNetns.nsid}`;
}

function headerLine(i: NetInterface, withMode: boolean): string {
  const master = i.master === undefined ? '' : ` master ${i.master}`;
  const mode = withMode ? ' mode DEFAULT' : '';
  // A dummy link has no tx queue (dev->tx_queue_len 0): iproute2 prints no qlen.
  const qlen = i.type === 'dummy' ? '' : ' qlen 1000';
  return `${i.ifindex}: ${linkName(i)}: ${linkFlags(i)} mtu ${i.mtu} qdisc ${i.qdisc}${master} state ${operState(i)}${mode} group default${qlen}`;
}

/**
 * The header of `ip -6 addr`: iproute2 then dumps links with family AF_INET6, and the kernel's
 * inet6 link dump (inet6_fill_ifinfo) carries no qdisc, master, group or link-netnsid — so a
 * veth's peer index is looked up in the local namespace (`veth…@eth0` on a node, `eth0@if5` in a pod).
 */
function headerLine6(ifaces: readonly NetInterface[], i: NetInterface): string {
  let name = i.name;
  if (i.peerIfindex !== undefined)
    name += `@${ifaces.find((x) => x.ifindex === i.peerIfindex)?.name ?? `if${i.peerIfindex}`}`;
  return `${i.ifindex}: ${name}: ${linkFlags(i)} mtu ${i.mtu} state ${operState(i)} qlen 1000\n`;
}

function linkLine(i: NetInterface): string {
  if (i.type === 'loopback') return '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n';
  return `    link/ether ${i.mac} brd ff:ff:ff:ff:ff:ff${netnsSuffix(i)}\n`;
}

function addressLines(i: NetInterface, a: IfAddress): string {
  const lft = '       valid_lft forever preferred_lft forever\n';
  if (a.family === 'inet') {
    const brd = a.broadcast === undefined ? '' : ` brd ${a.broadcast}`;
    return `    inet ${a.address}/${a.prefix}${brd} scope ${a.scope} ${i.name}\n${lft}`;
  }
  return `    inet6 ${a.address}/${a.prefix} scope ${a.scope} \n${lft}`;
}

const wanted =
  (family: Family) =>
  (a: IfAddress): boolean =>
    family === 'all' || a.family === family;

/** `ip addr show` for the given interfaces (`all` ifaces are needed to name a veth's peer under -6). */
export function renderAddr(
  ifaces: readonly NetInterface[],
  family: Family,
  all: readonly NetInterface[] = ifaces,
): string {
  let out = '';
  for (const i of ifaces) {
    const addrs = i.addresses.filter(wanted(family));
    if (family !== 'all' && addrs.length === 0) continue;
    if (family === 'inet6') out += headerLine6(all, i);
    // With -4 the link/ether line is left out but its link-netns part stays, on the header line.
    else if (family === 'inet') out += `${headerLine(i, false)}${netnsSuffix(i)}\n`;
    else out += `${headerLine(i, false)}\n${linkLine(i)}`;
    // The kernel dumps IPv4 addresses before IPv6 ones.
    for (const a of addrs.filter((x) => x.family === 'inet')) out += addressLines(i, a);
    for (const a of addrs.filter((x) => x.family === 'inet6')) out += addressLines(i, a);
  }
  return out;
}

/**
 * `ip -o addr`: one line per address, as print_addrinfo() writes it under -oneline: the link's
 * index and plain name (no `@peer`), then the address lines with their line break printed as
 * a backslash — no link header, and links without a selected address print nothing.
 */
export function renderAddrOneline(ifaces: readonly NetInterface[], family: Family): string {
  let out = '';
  for (const i of ifaces) {
    const addrs = i.addresses.filter(wanted(family));
    for (const f of ['inet', 'inet6'] as const)
      for (const a of addrs.filter((x) => x.family === f))
        out += `${i.ifindex}: ${i.name}${oneline(addressLines(i, a))}`;
  }
  return out;
}

/** A multi-line record on one line: each line break but the last printed as a backslash. */
export function oneline(record: string): string {
  return `${record.slice(0, -1).split('\n').join('\\')}\n`;
}

/** `ip link show`. */
export function renderLink(ifaces: readonly NetInterface[]): string {
  return ifaces.map((i) => `${headerLine(i, true)}\n${linkLine(i)}`).join('');
}

const brName = (i: NetInterface): string => `${linkName(i).padEnd(16)} `;
const brState = (i: NetInterface): string => `${operState(i).padEnd(14)} `;

/** `ip -br addr`: name (%-16s), state (%-14s), then each address followed by a space. */
export function renderBriefAddr(ifaces: readonly NetInterface[], family: Family): string {
  let out = '';
  for (const i of ifaces) {
    const addrs = i.addresses.filter(wanted(family));
    if (family !== 'all' && addrs.length === 0) continue;
    const sorted = [
      ...addrs.filter((a) => a.family === 'inet'),
      ...addrs.filter((a) => a.family === 'inet6'),
    ];
    out += `${brName(i)}${brState(i)}${sorted.map((a) => `${a.address}/${a.prefix} `).join('')}\n`;
  }
  return out;
}

/** `ip -br link`: name, state, MAC, flags. */
export function renderBriefLink(ifaces: readonly NetInterface[]): string {
  return ifaces.map((i) => `${brName(i)}${brState(i)}${i.mac} ${linkFlags(i)} \n`).join('');
}

function routeIsLinkdown(net: HostNetwork, r: Route): boolean {
  const dev = net.interfaces.find((i) => i.name === r.dev);
  return dev !== undefined && !dev.carrier;
}

/** `ip route show [dev DEV]`: with a dev filter, iproute2 leaves `dev DEV` out of each line. */
export function renderRoutes(net: HostNetwork, dev?: string): string {
  let out = '';
  for (const r of net.routes) {
    if (dev !== undefined && r.dev !== dev) continue;
    let line = r.dst;
    if (r.via !== undefined) line += ` via ${r.via}`;
    if (dev === undefined) line += ` dev ${r.dev}`;
    if (r.kernel !== undefined) line += ` proto kernel scope link src ${r.kernel.src}`;
    if (routeIsLinkdown(net, r)) line += ' linkdown';
    out += `${line} \n`;
  }
  return out;
}

/** The links IPv6 came up on (they have a link-local address), in the order it did. */
export function ipv6Links(net: HostNetwork): NetInterface[] {
  const ll = net.interfaces.filter(
    (i) =>
      i.type !== 'loopback' && i.addresses.some((a) => a.family === 'inet6' && a.scope === 'link'),
  );
  const veths = ll.filter((i) => i.type === 'veth' && i.master !== undefined);
  return [
    ...ll.filter((i) => i.type === 'nic' || (i.type === 'veth' && i.master === undefined)),
    ...veths.slice(0, 1),
    ...ll.filter((i) => i.type === 'bridge'),
    ...veths.slice(1),
  ];
}

/**
 * `ip -6 route`: the kernel's connected fe80::/64 routes (metric 256, router preference medium;
 * iproute2 ends these lines without a trailing space), in the order the links got carrier: the
 * NIC at boot, then — when the CNI plugin plugs the first pod in — that veth before cni0 (the
 * bridge's carrier follows its first forwarding port), then later veths. A node or client also
 * has `::1` in main: systemd 252's loopback setup adds ::1 without IFA_F_NOPREFIXROUTE (fixed in
 * later systemd, systemd#25819); a pod's namespace has only the kernel's own ::1 (local table).
 */
export function renderRoutes6(net: HostNetwork, dev?: string): string {
  const order = ipv6Links(net);
  const lines: string[] = [];
  const d = (name: string): string => (dev === undefined ? ` dev ${name}` : '');
  if (net.host.kind !== 'pod' && (dev === undefined || dev === 'lo'))
    lines.push(`::1${d('lo')} proto kernel metric 256 pref medium\n`);
  for (const i of order)
    if (dev === undefined || dev === i.name)
      lines.push(`fe80::/64${d(i.name)} proto kernel metric 256 pref medium\n`);
  return lines.join('');
}

/** The source address the kernel picks on a device for a destination (inet_select_addr). */
function sourceOn(net: HostNetwork, devName: string, toward: string): string | undefined {
  const dev = net.interfaces.find((i) => i.name === devName);
  const inet = dev?.addresses.filter((a) => a.family === 'inet') ?? [];
  const same = inet.find(
    (a) => ((ipToInt(a.address) ^ ipToInt(toward)) & prefixMask(a.prefix)) === 0,
  );
  return (same ?? inet[0])?.address;
}

/** `ip route get ADDR`: the local table first, then the longest prefix match in main. */
export function renderRouteGet(
  net: HostNetwork,
  dst: string,
): { stdout: string; stderr: string; exitCode: number } {
  const local = net.interfaces.some((i) =>
    i.addresses.some((a) => a.family === 'inet' && a.address === dst),
  );
  if (local || dst.startsWith('127.')) {
    const src = dst.startsWith('127.') ? '127.0.0.1' : dst;
    return {
      stdout: `local ${dst} dev lo src ${src} uid 0 \n    cache <local> \n`,
      stderr: '',
      exitCode: 0,
    };
  }
  let best: Route | undefined;
  let bestLen = -1;
  for (const r of net.routes) {
    const [netAddr, len] =
      r.dst === 'default'
        ? ['0.0.0.0', 0]
        : [r.dst.split('/')[0] ?? '', Number(r.dst.split('/')[1])];
    if (((ipToInt(netAddr) ^ ipToInt(dst)) & prefixMask(len)) === 0 && len > bestLen) {
      best = r;
      bestLen = len;
    }
  }
  if (best === undefined)
    return { stdout: '', stderr: 'RTNETLINK answers: Network is unreachable\n', exitCode: 2 };
  const src = best.kernel?.src ?? sourceOn(net, best.dev, best.via ?? dst) ?? '0.0.0.0';
  const via = best.via === undefined ? '' : ` via ${best.via}`;
  return {
    stdout: `${dst}${via} dev ${best.dev} src ${src} uid 0 \n    cache \n`,
    stderr: '',
    exitCode: 0,
  };
}
