/**
 * The lab's network topology, derived from a Cluster: which interfaces, addresses and routes each
 * host has. It models a common kubeadm + flannel `host-gw` style setup on Debian bookworm VMs:
 *
 * - a node is a VM on one LAN: `lo`, `eth0` (a single-queue virtio NIC, QEMU's 52:54:00 OUI,
 *   Debian's default qdisc pfifo_fast — bookworm's systemd ships no 50-default.conf that would
 *   switch it to fq_codel) with InternalIP/24, default route via the LAN's .1;
 * - the CNI `bridge` plugin's `cni0` holds the first address of the node's podCIDR; it sets the
 *   bridge's MAC to itself (plugins/main/bridge: "Set the bridge's MAC to itself"), so the MAC is a
 *   kernel random one that stays put;
 * - one veth pair per pod: the host end is `veth` + 8 hex chars (plugins/pkg/ip RandomVethName:
 *   4 random bytes), enslaved to cni0; the pod end is `eth0`; both MACs are kernel random ones
 *   (eth_random_addr: locally administered, unicast) — the current bridge plugin no longer derives
 *   MACs from IPs (`0a:58:…`);
 * - containerd names pod network namespaces `cni-<uuid>`; the node's root namespace has no name,
 *   so a pod sees its peer as `link-netnsid 0`;
 * - routes to other nodes' podCIDRs go via their InternalIP (flannel host-gw), when on the LAN.
 *
 * Every "random" value is derived from object names, so the same cluster gives the same output.
 */
import type { Cluster, ClusterNode, Pod } from '../model/cluster';
import { cidrNth, cidrParse, cidrToString, ipToInt } from '../model/ip';
import {
  broadcastOf,
  hostVethName,
  lanOf,
  linkLocalFromMac,
  podNetnsName,
  qemuMac,
  randomLocalMac,
} from './naming';

export {
  hashBytes,
  randomLocalMac,
  qemuMac,
  hostVethName,
  podNetnsName,
  lanOf,
  formatIpv6,
  linkLocalFromMac,
} from './naming';

export type HostRef =
  | { readonly kind: 'node'; readonly name: string }
  | { readonly kind: 'pod'; readonly namespace: string; readonly name: string }
  | { readonly kind: 'external'; readonly name: string };

export interface IfAddress {
  readonly family: 'inet' | 'inet6';
  readonly address: string;
  readonly prefix: number;
  readonly broadcast?: string;
  readonly scope: 'host' | 'global' | 'link';
}

export interface NetInterface {
  readonly ifindex: number;
  readonly name: string;
  readonly type: 'loopback' | 'nic' | 'bridge' | 'veth' | 'dummy';
  /** For a veth: the peer's ifindex (printed as `@ifN`). */
  readonly peerIfindex?: number;
  /** For a veth: the peer's namespace, by name (`link-netns`) or id (`link-netnsid`). */
  readonly linkNetns?: { readonly name: string } | { readonly nsid: number };
  readonly mac: string;
  readonly mtu: number;
  /** Carrier present (LOWER_UP); a bridge without ports has none. */
  readonly carrier: boolean;
  readonly master?: string;
  readonly qdisc: 'noqueue' | 'pfifo_fast' | 'noop';
  readonly addresses: readonly IfAddress[];
}

export interface Route {
  /** `default` or a CIDR. */
  readonly dst: string;
  readonly via?: string;
  readonly dev: string;
  /** Connected routes the kernel adds for an address: `proto kernel scope link src …`. */
  readonly kernel?: { readonly src: string };
}

export interface HostNetwork {
  readonly host: HostRef;
  readonly interfaces: readonly NetInterface[];
  /** The main routing table, in the order the kernel dumps it. */
  readonly routes: readonly Route[];
}

const LOOPBACK: NetInterface = {
  ifindex: 1,
  name: 'lo',
  type: 'loopback',
  mac: '00:00:00:00:00:00',
  mtu: 65536,
  carrier: true,
  qdisc: 'noqueue',
  addresses: [
    { family: 'inet', address: '127.0.0.1', prefix: 8, scope: 'host' },
    { family: 'inet6', address: '::1', prefix: 128, scope: 'host' },
  ],
};

function withLinkLocal(
  iface: Omit<NetInterface, 'addresses'>,
  inet: readonly IfAddress[],
): NetInterface {
  // addrconf only configures a link-local address once the link has carrier.
  const ll: IfAddress[] = iface.carrier
    ? [{ family: 'inet6', address: linkLocalFromMac(iface.mac), prefix: 64, scope: 'link' }]
    : [];
  return { ...iface, addresses: [...inet, ...ll] };
}

function nicHost(ip: string, seed: string): { iface: NetInterface; routes: Route[] } {
  const lan = lanOf(ip);
  const iface = withLinkLocal(
    {
      ifindex: 2,
      name: 'eth0',
      type: 'nic',
      mac: qemuMac(seed),
      mtu: 1500,
      carrier: true,
      qdisc: 'pfifo_fast',
    },
    [{ family: 'inet', address: ip, prefix: 24, broadcast: lan.broadcast, scope: 'global' }],
  );
  const routes: Route[] = [
    { dst: 'default', via: lan.gateway, dev: 'eth0' },
    { dst: `${lan.network}/24`, dev: 'eth0', kernel: { src: ip } },
  ];
  return { iface, routes };
}

/**
 * Pods with their own network namespace on a node, in creation (ifindex) order: the kernel
 * gives a new veth the next ifindex, so a pod created later (a Deployment's replacement pod,
 * listed beside its siblings) comes after the pods that exist already (a stable sort: pods
 * created at the same instant keep the cluster's order).
 */
export function podsWithVeth(cluster: Cluster, nodeName: string): Pod[] {
  return cluster.pods
    .filter((p) => p.nodeName === nodeName && !p.hostNetwork && p.podIP !== '')
    .sort((a, b) => a.meta.createdAt - b.meta.createdAt);
}

function nodeNetwork(cluster: Cluster, node: ClusterNode): HostNetwork {
  const { iface: eth0, routes } = nicHost(node.internalIP, `nic:${node.meta.name}`);
  const podCidr = cidrParse(node.podCIDR, { allowHostBits: true });
  const interfaces: NetInterface[] = [LOOPBACK, eth0];
  if (podCidr !== undefined) {
    const pods = podsWithVeth(cluster, node.meta.name);
    const gw = cidrNth(podCidr, 1);
    interfaces.push(
      withLinkLocal(
        {
          ifindex: 3,
          name: 'cni0',
          type: 'bridge',
          mac: randomLocalMac(`bridge:${node.meta.name}`),
          mtu: 1500,
          carrier: pods.length > 0,
          qdisc: 'noqueue',
        },
        [
          {
            family: 'inet',
            address: gw,
            prefix: podCidr.prefix,
            broadcast: broadcastOf(gw, podCidr.prefix),
            scope: 'global',
          },
        ],
      ),
    );
    pods.forEach((pod, i) => {
      interfaces.push(
        withLinkLocal(
          {
            ifindex: 4 + i,
            name: hostVethName(pod),
            type: 'veth',
            peerIfindex: 2,
            linkNetns: { name: podNetnsName(pod) },
            mac: randomLocalMac(`veth-host:${pod.meta.namespace}/${pod.meta.name}`),
            mtu: 1500,
            carrier: true,
            master: 'cni0',
            qdisc: 'noqueue',
          },
          [],
        ),
      );
    });
    routes.push({ dst: cidrToString(podCidr), dev: 'cni0', kernel: { src: gw } });
    const lan = lanOf(node.internalIP);
    for (const other of cluster.nodes) {
      if (other === node || other.podCIDR === '' || lanOf(other.internalIP).network !== lan.network)
        continue;
      const cidr = cidrParse(other.podCIDR, { allowHostBits: true });
      if (cidr !== undefined)
        routes.push({ dst: cidrToString(cidr), via: other.internalIP, dev: 'eth0' });
    }
  }
  return { host: { kind: 'node', name: node.meta.name }, interfaces, routes: sortRoutes(routes) };
}

function podNetwork(cluster: Cluster, pod: Pod): HostNetwork | undefined {
  const node = cluster.nodes.find((n) => n.meta.name === pod.nodeName);
  if (node === undefined) return undefined;
  if (pod.hostNetwork)
    return {
      ...nodeNetwork(cluster, node),
      host: { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name },
    };
  const podCidr = cidrParse(node.podCIDR, { allowHostBits: true });
  const index = podsWithVeth(cluster, node.meta.name).indexOf(pod);
  if (podCidr === undefined || index < 0) return undefined;
  const eth0 = withLinkLocal(
    {
      ifindex: 2,
      name: 'eth0',
      type: 'veth',
      peerIfindex: 4 + index,
      linkNetns: { nsid: 0 },
      mac: randomLocalMac(`veth-pod:${pod.meta.namespace}/${pod.meta.name}`),
      mtu: 1500,
      carrier: true,
      qdisc: 'noqueue',
    },
    [
      {
        family: 'inet',
        address: pod.podIP,
        prefix: podCidr.prefix,
        broadcast: broadcastOf(pod.podIP, podCidr.prefix),
        scope: 'global',
      },
    ],
  );
  const routes: Route[] = [
    { dst: 'default', via: cidrNth(podCidr, 1), dev: 'eth0' },
    { dst: cidrToString(podCidr), dev: 'eth0', kernel: { src: pod.podIP } },
  ];
  return {
    host: { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name },
    interfaces: [LOOPBACK, eth0],
    routes: sortRoutes(routes),
  };
}

/** The kernel dumps the main table in trie order: by network address, longer prefixes first. */
export function sortRoutes(routes: readonly Route[]): Route[] {
  const key = (r: Route): [number, number] => {
    if (r.dst === 'default') return [0, 0];
    const [net, len] = r.dst.split('/');
    return [ipToInt(net ?? '0.0.0.0'), Number(len ?? 32)];
  };
  return [...routes].sort((a, b) => {
    const [na, la] = key(a);
    const [nb, lb] = key(b);
    return na !== nb ? na - nb : lb - la;
  });
}

/** The network of one host, or undefined when the host does not exist. */
export function hostNetwork(cluster: Cluster, host: HostRef): HostNetwork | undefined {
  if (host.kind === 'node') {
    const node = cluster.nodes.find((n) => n.meta.name === host.name);
    return node === undefined ? undefined : nodeNetwork(cluster, node);
  }
  if (host.kind === 'pod') {
    const pod = cluster.pods.find(
      (p) => p.meta.namespace === host.namespace && p.meta.name === host.name,
    );
    return pod === undefined ? undefined : podNetwork(cluster, pod);
  }
  const client = cluster.lab.externalClients.find((c) => c.name === host.name);
  if (client === undefined) return undefined;
  const { iface, routes } = nicHost(client.address, `nic:external:${client.name}`);
  return { host, interfaces: [LOOPBACK, iface], routes: sortRoutes(routes) };
}

/**
 * kube-proxy's IPVS dummy device (netlink LinkAdd of a `dummy` link, never set up): NOARP,
 * DOWN, qdisc noop, no tx queue, a kernel random MAC; each bound address a /32 `scope global`.
 * The lab numbers it after the node's other interfaces.
 */
export function withDummyInterface(
  net: HostNetwork,
  name: string,
  addresses: readonly string[],
): HostNetwork {
  const ifindex = net.interfaces.reduce((m, i) => Math.max(m, i.ifindex), 0) + 1;
  const host = net.host.kind === 'node' ? net.host.name : '';
  const dummy: NetInterface = {
    ifindex,
    name,
    type: 'dummy',
    mac: randomLocalMac(`dummy:${host}/${name}`),
    mtu: 1500,
    carrier: false,
    qdisc: 'noop',
    addresses: addresses.map((address) => ({
      family: 'inet',
      address,
      prefix: 32,
      scope: 'global',
    })),
  };
  return { ...net, interfaces: [...net.interfaces, dummy] };
}

/** Every host of the lab: nodes, pods (hostNetwork pods share their node's view), external clients. */
export function buildTopology(cluster: Cluster): HostNetwork[] {
  const hosts: HostRef[] = [
    ...cluster.nodes.map((n): HostRef => ({ kind: 'node', name: n.meta.name })),
    ...cluster.pods.map((p): HostRef => ({
      kind: 'pod',
      namespace: p.meta.namespace,
      name: p.meta.name,
    })),
    ...cluster.lab.externalClients.map((c): HostRef => ({ kind: 'external', name: c.name })),
  ];
  return hosts.map((h) => hostNetwork(cluster, h)).filter((h): h is HostNetwork => h !== undefined);
}
