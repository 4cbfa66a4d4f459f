/**
 * The bridge ports of each node's cni0 (a pod's host-side veth) and the pods found by name, by
 * address and by port, per Cluster object (a Cluster is final data: a scale or delete makes a
 * new one). Every frame crossing a bridge asks (net-cache.test.ts checks the answers against
 * scans of the pod list).
 */
import type { Cluster, Pod } from '../model/cluster';
import { hostVethName, type HostRef } from '../routing';
import { hostNet, primaryAddress } from './net';
/** A pod with its own network namespace behind a port of `node`'s bridge. */
export interface BridgePort {
  readonly pod: Pod;
  readonly ref: HostRef;
  /** The host-side veth (the bridge port's name). */
  readonly port: string;
}

/** Per Pod object (final data): every frame crossing the bridge asks. */
const ports = new WeakMap<Pod, BridgePort>();

function portOf(pod: Pod): BridgePort {
  let bp = ports.get(pod);
  if (bp === undefined) {
    bp = {
      pod,
      ref: { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name },
      port: hostVethName(pod),
    };
    ports.set(pod, bp);
  }
  return bp;
}

const hasVeth = (p: Pod, node: string): boolean =>
  p.nodeName === node && !p.hostNetwork && p.podIP !== '';

/**
 * The cluster's pods found by name, by address and by bridge port (per Cluster object: a
 * Cluster is final data, a scale or delete makes a new one). Every frame asks; a scan of the
 * pod list per frame cost more than the rest of the bridge. Each map keeps the first pod the
 * list order gives, as the scans it replaces did (net-cache.test.ts).
 */
interface PodIndex {
  /** namespace → name → pod. */
  readonly byName: Map<string, Map<string, Pod>>;
  /** node → its bridge segment. */
  readonly bridges: Map<string, BridgeSegment>;
}

/** One node's cni0 segment: who answers ARP there, and the ports (a pod's veth) by name. */
interface BridgeSegment {
  /** Pod IP → the port of the pod with a veth there. */
  readonly byIp: Map<string, BridgePort>;
  /** Host-side veth name → its port. */
  readonly byPort: Map<string, BridgePort>;
  /** cni0's primary address (null: not asked yet); every frame a pod sends compares with it. */
  cni0: string | undefined | null;
}

const podIndexes = new WeakMap<Cluster, PodIndex>();

function firstIn<K, V>(outer: Map<string, Map<K, V>>, a: string, b: K, value: V): void {
  let inner = outer.get(a);
  if (inner === undefined) outer.set(a, (inner = new Map()));
  if (!inner.has(b)) inner.set(b, value);
}

function segmentOf(idx: PodIndex, node: string): BridgeSegment {
  let seg = idx.bridges.get(node);
  if (seg === undefined)
    idx.bridges.set(node, (seg = { byIp: new Map(), byPort: new Map(), cni0: null }));
  return seg;
}

function podIndex(cluster: Cluster): PodIndex {
  let idx = podIndexes.get(cluster);
  if (idx === undefined) {
    idx = { byName: new Map(), bridges: new Map() };
    for (const p of cluster.pods) {
      firstIn(idx.byName, p.meta.namespace, p.meta.name, p);
      if (p.hostNetwork || p.podIP === '') continue;
      const seg = segmentOf(idx, p.nodeName);
      const bp = portOf(p);
      if (!seg.byIp.has(p.podIP)) seg.byIp.set(p.podIP, bp);
      if (!seg.byPort.has(bp.port)) seg.byPort.set(bp.port, bp);
    }
    podIndexes.set(cluster, idx);
  }
  return idx;
}

/** The pod that answers ARP for `ip` on `node`'s bridge. */
export function podByIp(cluster: Cluster, node: string, ip: string): BridgePort | undefined {
  return podIndex(cluster).bridges.get(node)?.byIp.get(ip);
}

/**
 * Who answers ARP for `ip` on `node`'s bridge segment: cni0 itself (its primary address), a
 * pod's port, or nobody. Per Cluster object, as the pod index (the node's network is too).
 */
export function bridgeOwner(
  cluster: Cluster,
  node: string,
  ip: string,
): BridgePort | 'cni0' | undefined {
  const seg = segmentOf(podIndex(cluster), node);
  let cni0 = seg.cni0;
  if (cni0 === null) {
    const net = hostNet(cluster, { kind: 'node', name: node });
    seg.cni0 = cni0 = net === undefined ? undefined : primaryAddress(net, 'cni0');
  }
  if (cni0 === ip) return 'cni0';
  return seg.byIp.get(ip);
}

/**
 * The ports of `node`'s bridge in br->port_list order: br_add_if() adds a port at the head
 * (list_add_rcu), so the newest port comes first; br_flood() walks them in that order.
 */
export function bridgePorts(cluster: Cluster, node: string): BridgePort[] {
  const out: BridgePort[] = [];
  for (const p of cluster.pods) if (hasVeth(p, node)) out.push(portOf(p));
  return out.reverse();
}

/** The pod a host-side veth leads to. */
export function podByPort(cluster: Cluster, node: string, port: string): BridgePort | undefined {
  return podIndex(cluster).bridges.get(node)?.byPort.get(port);
}

/**
 * The pod a pod ref names, remembered per ref object (refs are read-only, and the datapath's
 * are kept ones: every packet a pod sends asks twice) for the Cluster it was found in.
 */
function foundPod(cluster: Cluster, ref: HostRef & { kind: 'pod' }): FoundPod {
  const known = podsByRef.get(ref);
  if (known !== undefined && known.cluster === cluster) return known;
  const pod = podIndex(cluster).byName.get(ref.namespace)?.get(ref.name);
  const port = pod !== undefined && !pod.hostNetwork && pod.podIP !== '' ? portOf(pod) : undefined;
  const found = { cluster, pod, port };
  podsByRef.set(ref, found);
  return found;
}

function findPod(cluster: Cluster, ref: HostRef & { kind: 'pod' }): Pod | undefined {
  return foundPod(cluster, ref).pod;
}

/** A pod ref's pod in `cluster`, and its bridge port when it has its own network namespace. */
interface FoundPod {
  readonly cluster: Cluster;
  readonly pod: Pod | undefined;
  readonly port: BridgePort | undefined;
}

const podsByRef = new WeakMap<HostRef, FoundPod>();

/** The pod's node and bridge port, for a pod with its own network namespace. */
export function portOfPod(cluster: Cluster, ref: HostRef): BridgePort | undefined {
  return ref.kind === 'pod' ? foundPod(cluster, ref).port : undefined;
}

/** A hostNetwork pod is its node, as far as packets go. */
export function effectiveHost(cluster: Cluster, ref: HostRef): HostRef | undefined {
  if (ref.kind !== 'pod') return ref;
  const pod = findPod(cluster, ref);
  if (pod === undefined) return undefined;
  return pod.hostNetwork ? { kind: 'node', name: pod.nodeName } : ref;
}
