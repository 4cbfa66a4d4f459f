/**
 * What the datapath keeps per World, next to the nodes' iptables: each node's conntrack table
 * (one per network namespace), the netfilter walk's memory (xt_recent, nth counters, nfacct),
 * the bridge ports' hairpin flags as `bridge link set … hairpin on|off` left them, and the
 * capture log `tcpdump` renders. Plain data, attached to the World through a WeakMap (as
 * sim/host-view.ts attaches pods' netfilter states).
 *
 * Pods' and external clients' own conntrack is not modelled: nothing programs iptables in a
 * pod, so the only effect a pod's conntrack could have (--ctstate matches, NAT) never shows.
 */
import { createConntrackTable, kubeProxyConfig, type CtTable } from '../conntrack';
import { CaptureRing, type CaptureRecord } from './capture-ring';
import { createWalkStore, type WalkStore } from '../netfilter';
import type { NodeKernel } from '../sim/node-kernel';
import type { World } from '../sim/world';

/** How many capture records a World keeps (the oldest go first). */
export const CAPTURE_LIMIT = 10_000;

export interface NodeDatapath {
  /** The node's conntrack table (nf_conntrack of the root network namespace). */
  readonly conntrack: CtTable;
  /** The netfilter walk's per-node memory. */
  readonly walkStore: WalkStore;
  /** Per host-side veth: the port's hairpin flag as a command set it (absent = kubelet's default). */
  readonly hairpin: { [port: string]: boolean };
}

export interface DatapathState {
  readonly nodes: { [node: string]: NodeDatapath };
  /** The last CAPTURE_LIMIT records. */
  readonly capture: CaptureRing;
  nextCaptureSeq: number;
  nextPacketId: number;
}

export type { CaptureRecord } from './capture-ring';

const states = new WeakMap<World, DatapathState>();

/** The World's datapath state, created on first use. */
export function datapathState(world: World): DatapathState {
  let s = states.get(world);
  if (s === undefined) {
    s = { nodes: {}, capture: new CaptureRing(CAPTURE_LIMIT), nextCaptureSeq: 1, nextPacketId: 1 };
    states.set(world, s);
  }
  return s;
}

/** A node's datapath state (conntrack table, walk store, hairpin overrides), created on first use. */
export function nodeDatapath(world: World, node: string): NodeDatapath {
  const s = datapathState(world);
  let n = s.nodes[node];
  if (n === undefined) {
    // kube-proxy writes its conntrack sysctls at start-up (tcp established 24h, close_wait 1h).
    n = {
      conntrack: createConntrackTable(kubeProxyConfig()),
      walkStore: createWalkStore(),
      hairpin: {},
    };
    s.nodes[node] = n;
  }
  return n;
}

/** The conntrack table of a node (what `conntrack -L` on that node lists). */
export function nodeConntrack(world: World, node: string): CtTable {
  return nodeDatapath(world, node).conntrack;
}

/**
 * The hairpin flag of a bridge port (BR_HAIRPIN_MODE, `bridge -d link show` `hairpin on`).
 * Default from KubeletConfiguration.hairpinMode: `hairpin-veth` sets it on every pod's port;
 * `promiscuous-bridge` puts cni0 in promiscuous mode instead, which the lab models as hairpin
 * allowed on every port; `none` leaves it off. A `bridge link set` override wins.
 */
export function hairpinFlag(world: World, node: string, port: string): boolean {
  return portHairpin(world, nodeDatapath(world, node), port);
}

/** hairpinFlag with the node's datapath state at hand (a NodeCtx's `dp`). */
export function portHairpin(world: World, dp: NodeDatapath, port: string): boolean {
  const override = dp.hairpin[port];
  if (override !== undefined) return override;
  return world.cluster.kubelet.hairpinMode !== 'none';
}

/** `bridge link set dev PORT hairpin on|off`; `undefined` goes back to kubelet's default. */
export function setHairpinFlag(
  world: World,
  node: string,
  port: string,
  on: boolean | undefined,
): void {
  const flags = nodeDatapath(world, node).hairpin;
  if (on === undefined) delete flags[port];
  else flags[port] = on;
}

/** A node's sysctl as the lab set it (world.kernel(n).sysctls), or `fallback`. */
export function nodeSysctl(world: World, node: string, key: string, fallback: string): string {
  return kernelSysctl(world.kernel(node), key, fallback);
}

/**
 * nodeSysctl of a kernel at hand (a NodeCtx's): `sysctl -w` writes into the kernel's sysctls
 * object, so reading it at each packet sees every write.
 */
export function kernelSysctl(
  kernel: NodeKernel | undefined,
  key: string,
  fallback: string,
): string {
  return kernel?.sysctls[key] ?? fallback;
}

/** The capture records still kept, oldest first (at most CAPTURE_LIMIT). */
export function captureLog(world: World): readonly CaptureRecord[] {
  return datapathState(world).capture.records();
}

/** The seq of the newest capture record kept, or undefined when there is none. */
export function lastCaptureSeq(world: World): number | undefined {
  return datapathState(world).capture.lastSeq();
}

/** Forgets every capture record. */
export function clearCaptureLog(world: World): void {
  datapathState(world).capture.clear();
}
