/**
 * The kernel's `local` routing table (id 255) as iproute2 6.1 prints it (`ip route show table
 * local`, and its part of `table all`). The kernel fills it from the host's addresses; nobody
 * adds these routes by hand:
 *
 * - IPv4, fib_add_ifaddr() (net/ipv4/fib_frontend.c): every address gets `local ADDR`, even on
 *   a link that is down — that is how the IPVS mode's ClusterIPs on the never-up kube-ipvs0 make
 *   a node accept them; on a link that is up, the address's `brd` and its network's broadcast
 *   (a prefix under /31) become `broadcast` routes, and lo's 127.0.0.1/8 gets its whole prefix
 *   as `local 127.0.0.0/8` (a loopback's prefix route is a local one). Routes of scope host never say `linkdown`; a
 *   broadcast route on a link without carrier does. The FIB trie dumps them by address.
 * - IPv6, addrconf: every address gets `local ADDR … metric 0`, and every link where IPv6 came up
 *   (carrier; never lo) a `multicast ff00::/8 … metric 256`, in the order the links came up. The
 *   fib6 tree is walked by address, a prefix after the longer ones inside it.
 *
 * Checked against the kernel in tests/kernel/ip-views.test.ts (kube-ipvs0's case with a bridge
 * that is never set up standing in for the dummy link: the test kernel has no dummy driver).
 */
import { ipToInt } from '../model/ip';
import { isAdminUp } from './ip-select';
import type { HostNetwork, NetInterface } from './topology';

interface LocalRoute {
  readonly sortKey: number;
  readonly line: string;
}

/** `ip route show table local` (IPv4); `withTable`: as `table all` prints it (` table local`). */
export function renderLocalRoutes(net: HostNetwork, dev?: string, withTable = false): string {
  const routes: LocalRoute[] = [];
  const table = withTable ? ' table local' : '';
  for (const i of net.interfaces) {
    if (dev !== undefined && i.name !== dev) continue;
    const d = dev === undefined ? ` dev ${i.name}` : '';
    for (const a of i.addresses) {
      if (a.family !== 'inet') continue;
      const src = `proto kernel scope host src ${a.address} \n`;
      routes.push({ sortKey: ipToInt(a.address), line: `local ${a.address}${d}${table} ${src}` });
      if (!isAdminUp(i)) continue;
      const mask = a.prefix === 0 ? 0 : (0xffffffff << (32 - a.prefix)) >>> 0;
      const network = (ipToInt(a.address) & mask) >>> 0;
      // The address's own brd, and its network's broadcast when the prefix is under /31.
      const broadcasts = new Set<number>();
      if (a.broadcast !== undefined && a.broadcast !== '255.255.255.255')
        broadcasts.add(ipToInt(a.broadcast));
      if (a.prefix < 31) broadcasts.add((network | ~mask) >>> 0);
      for (const b of broadcasts) {
        const linkdown = i.carrier ? '' : ' linkdown';
        const line = `broadcast ${intToIp(b)}${d}${table} proto kernel scope link src ${a.address}${linkdown} \n`;
        routes.push({ sortKey: b, line });
      }
      if (i.type === 'loopback' && a.prefix < 32) {
        const prefix = `${intToIp(network)}/${a.prefix}`;
        routes.push({ sortKey: network, line: `local ${prefix}${d}${table} ${src}` });
      }
    }
  }
  return routes
    .sort((x, y) => x.sortKey - y.sortKey)
    .map((r) => r.line)
    .join('');
}

function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** IPv6 addresses as 8 numbers, for ordering (the lab's are `::1` and `fe80::…` forms). */
function ip6Words(address: string): number[] {
  const [head = '', tail = ''] = address.includes('::') ? address.split('::') : [address, ''];
  const h = head === '' ? [] : head.split(':').map((w) => parseInt(w, 16));
  const t = tail === '' ? [] : tail.split(':').map((w) => parseInt(w, 16));
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

function compareIp6(a: string, b: string): number {
  const x = ip6Words(a);
  const y = ip6Words(b);
  for (let k = 0; k < 8; k++) if (x[k] !== y[k]) return (x[k] ?? 0) - (y[k] ?? 0);
  return 0;
}

/**
 * `ip -6 route show table local`. `ipv6Order`: the links in the order IPv6 came up on them
 * (ip-views.ts renderRoutes6 orders the fe80::/64 routes the same way).
 */
export function renderLocalRoutes6(
  net: HostNetwork,
  ipv6Order: readonly NetInterface[],
  dev?: string,
  withTable = false,
): string {
  const table = withTable ? ' table local' : '';
  const d = (name: string): string => (dev === undefined ? ` dev ${name}` : '');
  const locals = net.interfaces
    .filter((i) => dev === undefined || i.name === dev)
    .flatMap((i) =>
      i.addresses.filter((a) => a.family === 'inet6').map((a) => ({ i, address: a.address })),
    )
    .sort((x, y) => compareIp6(x.address, y.address));
  let out = '';
  for (const { i, address } of locals)
    out += `local ${address}${d(i.name)}${table} proto kernel metric 0 pref medium\n`;
  for (const i of ipv6Order)
    if (dev === undefined || i.name === dev)
      out += `multicast ff00::/8${d(i.name)}${table} proto kernel metric 256 pref medium\n`;
  return out;
}
