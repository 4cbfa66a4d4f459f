/**
 * Addresses and routes of one host, as the kernel's FIB answers for them (fib_lookup over the
 * local table, then the main table: longest prefix first), and the neighbours on a link
 * (who answers ARP for a next hop). Reads the lab topology (routing/topology.ts).
 */
import type { Cluster } from '../model/cluster';
import { cidrParse, ipToInt, prefixMask } from '../model/ip';
import { defaultAddrType, type AddrType } from '../netfilter';
import { hostNetwork, withDummyInterface, type HostNetwork, type HostRef } from '../routing';
import type { World } from '../sim/world';

const LAN_MASK = prefixMask(24);

/** Networks built per Cluster object (a Cluster is final data), found without building keys. */
interface NetCache {
  /** Pods by `namespace/name`, nodes and external clients by name. */
  readonly byName: Map<string, HostNetwork | undefined>;
}

const cache = new WeakMap<Cluster, NetCache>();

/**
 * Pods' networks by ref object, for the Cluster they were found in: the datapath's pod refs
 * are kept objects (per Pod, per host key), and each packet to or from a pod asks (one lookup
 * by the ref, not one by the Cluster and another by the ref).
 */
const podNets = new WeakMap<
  HostRef,
  { readonly cluster: Cluster; readonly net: HostNetwork | undefined }
>();

/** The host's interfaces and routes (cached per Cluster object: a Cluster is final data). */
export function hostNet(cluster: Cluster, ref: HostRef): HostNetwork | undefined {
  if (ref.kind === 'pod') {
    const known = podNets.get(ref);
    if (known !== undefined && known.cluster === cluster) return known.net;
  }
  let c = cache.get(cluster);
  if (c === undefined) cache.set(cluster, (c = { byName: new Map() }));
  if (ref.kind === 'pod') {
    const net = byName(c, cluster, ref, `pod/${ref.namespace}/${ref.name}`);
    podNets.set(ref, { cluster, net });
    return net;
  }
  return byName(c, cluster, ref, ref.kind === 'node' ? ref.name : `${ref.kind}/${ref.name}`);
}

function byName(c: NetCache, cluster: Cluster, ref: HostRef, key: string): HostNetwork | undefined {
  if (!c.byName.has(key)) c.byName.set(key, hostNetwork(cluster, ref));
  return c.byName.get(key);
}

const withDummy = new WeakMap<object, WeakMap<HostNetwork, HostNetwork>>();

/**
 * A node's network as its kernel has it now: the lab topology plus the interfaces agents
 * created (kube-proxy's kube-ipvs0 with the service addresses bound to it).
 */
export function kernelNet(world: World, ref: HostRef): HostNetwork | undefined {
  const net = hostNet(world.cluster, ref);
  if (net === undefined || ref.kind !== 'node') return net;
  const dummy = world.kernel(ref.name)?.kubeIpvs0;
  if (dummy === undefined) return net;
  let byNet = withDummy.get(dummy);
  if (byNet === undefined) withDummy.set(dummy, (byNet = new WeakMap()));
  let merged = byNet.get(net);
  if (merged === undefined)
    byNet.set(net, (merged = withDummyInterface(net, 'kube-ipvs0', dummy.addresses)));
  return merged;
}

interface InetAddr {
  readonly iface: string;
  readonly address: string;
  readonly prefix: number;
  readonly broadcast?: string | undefined;
}

/**
 * What is remembered per network (final data once built): its addresses, and the answers of
 * fibLookup and martianSource (a host's packets go to and come from few addresses). One
 * object, so that a packet's receive (martian check, then route) looks the network up once.
 */
interface NetMemo {
  readonly inet: readonly InetAddr[];
  readonly fib: Map<string, FibResult | null>;
  readonly martian: Map<string, string | null>;
}

const netMemos = new WeakMap<HostNetwork, NetMemo>();

function memoOf(net: HostNetwork): NetMemo {
  let m = netMemos.get(net);
  if (m === undefined)
    netMemos.set(net, (m = { inet: collectInetAddrs(net), fib: new Map(), martian: new Map() }));
  return m;
}

function inetAddrs(net: HostNetwork): readonly InetAddr[] {
  return memoOf(net).inet;
}

function collectInetAddrs(net: HostNetwork): InetAddr[] {
  const out: InetAddr[] = [];
  for (const i of net.interfaces)
    for (const a of i.addresses)
      if (a.family === 'inet')
        out.push({ iface: i.name, address: a.address, prefix: a.prefix, broadcast: a.broadcast });
  return out;
}

const isLoopback = (ip: string): boolean => ipToInt(ip) >>> 24 === 127;

/** The interface holding a local address (127/8 is lo's), or undefined when not local. */
export function localAddressIface(net: HostNetwork, ip: string): string | undefined {
  if (isLoopback(ip)) return 'lo';
  for (const a of inetAddrs(net)) if (a.address === ip) return a.iface;
  return undefined;
}

export function isLocalAddress(net: HostNetwork, ip: string): boolean {
  return localAddressIface(net, ip) !== undefined;
}

/**
 * inet_dev_addr_type(): LOCAL for the host's addresses, BROADCAST for the interfaces'
 * broadcast addresses, UNICAST otherwise. With `iface` (--limit-iface-in/out), a local or
 * broadcast route through another device reads as UNICAST.
 */
export function addrTypeOf(net: HostNetwork, ip: string, iface: string | undefined): AddrType {
  const local = localAddressIface(net, ip);
  const bcast = inetAddrs(net).find((a) => a.broadcast === ip)?.iface;
  const dev = local ?? bcast;
  const type = local ? 'LOCAL' : bcast ? 'BROADCAST' : defaultAddrType(() => false, ip);
  if (iface !== undefined && dev !== undefined && dev !== iface) return 'UNICAST';
  return type;
}

/** inet_select_addr(dev, …, RT_SCOPE_UNIVERSE): the interface's primary global IPv4 address. */
/**
 * The first IPv4 address of `iface` (in_dev->ifa_list's head, loopback ones included), what
 * REDIRECT takes as the new destination (nf_nat_redirect_ipv4).
 */
export function firstAddress(net: HostNetwork, iface: string): string | undefined {
  for (const a of inetAddrs(net)) if (a.iface === iface) return a.address;
  return undefined;
}

export function primaryAddress(net: HostNetwork, iface: string): string | undefined {
  for (const a of inetAddrs(net)) if (a.iface === iface && !isLoopback(a.address)) return a.address;
  return undefined;
}

/** A FIB result: delivery to this host, or a unicast route out of a device. */
export type FibResult =
  | { readonly type: 'local'; readonly dev: string; readonly src: string }
  | {
      readonly type: 'unicast';
      readonly dev: string;
      /** The gateway (`via`), absent for a connected route. */
      readonly via?: string;
      /** rt_nexthop(): the gateway, or the destination itself on a connected route. */
      readonly nexthop: string;
      /** The preferred source (the route's `src`, else the device's primary address). */
      readonly src: string;
      /** The route as `ip route` prints its destination. */
      readonly dst: string;
    };

/** A route's destination as integers, parsed once per text (routes come from few texts). */
const routeCidrs = new Map<string, { network: number; mask: number; prefix: number } | null>();

function routeCidr(text: string): { network: number; mask: number; prefix: number } | undefined {
  let c = routeCidrs.get(text);
  if (c === undefined) {
    const cidr = text === 'default' ? { network: '0.0.0.0', prefix: 0 } : cidrParse(text);
    c =
      cidr === undefined
        ? null
        : { network: ipToInt(cidr.network), mask: prefixMask(cidr.prefix), prefix: cidr.prefix };
    if (routeCidrs.size >= 4096) routeCidrs.clear();
    routeCidrs.set(text, c);
  }
  return c ?? undefined;
}

/** Answers kept per network (and per kind) before the memo starts again. */
const FIB_CACHE_SIZE = 4096;

/** fib_lookup(): the local table first, then the main table's longest matching prefix. */
export function fibLookup(net: HostNetwork, dst: string): FibResult | undefined {
  const byDst = memoOf(net).fib;
  let hit = byDst.get(dst);
  if (hit === undefined) {
    if (byDst.size >= FIB_CACHE_SIZE) byDst.clear();
    byDst.set(dst, (hit = fibLookupUncached(net, dst) ?? null));
  }
  return hit ?? undefined;
}

/** fib_lookup() computed afresh (fibLookup remembers its answers). */
export function fibLookupUncached(net: HostNetwork, dst: string): FibResult | undefined {
  const local = localAddressIface(net, dst);
  if (local !== undefined) return { type: 'local', dev: local, src: dst };
  let best: { route: HostNetwork['routes'][number]; prefix: number } | undefined;
  const d = ipToInt(dst);
  for (const route of net.routes) {
    const cidr = routeCidr(route.dst);
    if (cidr === undefined || (d & cidr.mask) >>> 0 !== cidr.network) continue;
    if (best === undefined || cidr.prefix > best.prefix) best = { route, prefix: cidr.prefix };
  }
  if (best === undefined) return undefined;
  const r = best.route;
  const src = r.kernel?.src ?? primaryAddress(net, r.dev) ?? '0.0.0.0';
  return {
    type: 'unicast',
    dev: r.dev,
    ...(r.via !== undefined ? { via: r.via } : {}),
    nexthop: r.via ?? dst,
    src,
    dst: r.dst,
  };
}

/** Who answers ARP for `ip` on the LAN (eth0 of a node or of an external client). */
export function lanHostByIp(cluster: Cluster, from: string, ip: string): HostRef | undefined {
  // lanOf(): the /24 around an address (compared as integers, not as its dotted network).
  if (((ipToInt(from) ^ ipToInt(ip)) & LAN_MASK) !== 0) return undefined;
  const node = cluster.nodes.find((n) => n.internalIP === ip);
  if (node !== undefined) return { kind: 'node', name: node.meta.name };
  const client = cluster.lab.externalClients.find((c) => c.address === ip);
  return client === undefined ? undefined : { kind: 'external', name: client.name };
}

/** Source addresses ip_route_input() refuses (fib_validate_source / martian source). */
export function martianSource(net: HostNetwork, src: string): string | undefined {
  const bySrc = memoOf(net).martian;
  let hit = bySrc.get(src);
  if (hit === undefined) {
    if (bySrc.size >= FIB_CACHE_SIZE) bySrc.clear();
    bySrc.set(src, (hit = martianSourceUncached(net, src) ?? null));
  }
  return hit ?? undefined;
}

/** martianSource computed afresh. */
export function martianSourceUncached(net: HostNetwork, src: string): string | undefined {
  const v = ipToInt(src);
  if (v === 0 || v >>> 28 === 0xe || v === 0xffffffff) return 'invalid source address';
  if (isLoopback(src)) return 'loopback source address from outside';
  // __fib_validate_source(): a source that is a local address is refused (accept_local = 0).
  if (isLocalAddress(net, src)) return 'source is an address of this host';
  return undefined;
}
