/**
 * The running lab: a cluster, every node's kernel as kube-proxy and kubelet programmed it, a
 * virtual clock and a seeded random source. Commands (the terminal, the CLI) read and change
 * it; nothing here reads the wall clock or Math.random.
 */
import type { Cluster } from '../model/cluster';
import type { Diagnostic } from '../model/diagnostic';
import { ManualClock, rngFromSeed, type Rng } from '../model/runtime';
import { applyManifests, loadScenario } from '../scenario';
import { bootNodeKernel, syncNodeKernel, type NodeKernel } from './node-kernel';

/**
 * What wall-clock time the lab's clock 0 stands for (tools that print dates — iptables-save's
 * header, kubectl's creationTimestamp — show it). Fixed so that runs are reproducible:
 * 2026-03-02T08:00:00Z.
 */
export const LAB_EPOCH_SECONDS = 1772438400;

/** What kube-proxy is started with: the nodes (names, IPs, pod CIDRs) and its configuration. */
function restartFingerprint(cluster: Cluster): string {
  const { source: _source, ...config } = cluster.kubeProxy;
  const nodes = cluster.nodes.map((n) => [n.meta.name, n.internalIP, n.externalIP, n.podCIDR]);
  return JSON.stringify([nodes, config, cluster.lab.sysctls]);
}

export interface WorldOptions {
  readonly epochSeconds?: number;
  /** Keep every iptables operation per node (for replaying them on a real kernel in tests). */
  readonly recordKernelOps?: boolean;
}

export class World {
  cluster: Cluster;
  readonly clock: ManualClock;
  readonly rng: Rng;
  readonly epochSeconds: number;
  readonly kernels = new Map<string, NodeKernel>();
  private readonly recordKernelOps: boolean;
  private readonly tickListeners: ((nowMs: number) => void)[] = [];

  constructor(cluster: Cluster, opts: WorldOptions = {}) {
    this.cluster = cluster;
    this.recordKernelOps = opts.recordKernelOps ?? false;
    this.epochSeconds = opts.epochSeconds ?? LAB_EPOCH_SECONDS;
    // Lab time starts when the scenario says the cluster is this old (objects were created at 0).
    this.clock = new ManualClock(cluster.lab.clusterAgeSeconds * 1000);
    this.rng = rngFromSeed(cluster.lab.seed);
    this.bootNodes();
  }

  /** Loads a scenario; the world runs whatever documents loaded, the diagnostics say what did not. */
  static fromScenario(
    text: string,
    opts: WorldOptions = {},
  ): { world: World; diagnostics: Diagnostic[] } {
    const { cluster, diagnostics } = loadScenario(text);
    return { world: new World(cluster, opts), diagnostics };
  }

  /** Seconds of virtual time since the lab started. */
  nowSeconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  /** Wall-clock seconds since the Unix epoch that tools print. */
  wallSeconds(): number {
    return this.epochSeconds + this.nowSeconds();
  }

  /**
   * Virtual time passes (`sleep`, the UI's play loop): listeners registered by the datapath
   * and the end hosts run their timers (conntrack expiry, TCP retransmissions).
   */
  advance(ms: number): void {
    this.clock.advance(ms);
    for (const onTick of this.tickListeners) onTick(this.clock.now());
  }

  /** Subscribes to clock advances (modules that keep timers attach here). */
  onTick(listener: (nowMs: number) => void): void {
    this.tickListeners.push(listener);
  }

  kernel(nodeName: string): NodeKernel | undefined {
    return this.kernels.get(nodeName);
  }

  /**
   * The API server accepted a change: every node's kube-proxy sees it through its informers
   * and syncs (the lab syncs at once; real kube-proxy waits up to minSyncPeriod).
   */
  setCluster(next: Cluster): void {
    // A new node, or a new kube-proxy configuration, means (re)starting kube-proxy there.
    const nodesChanged = restartFingerprint(next) !== restartFingerprint(this.cluster);
    this.cluster = next;
    if (nodesChanged) this.bootNodes();
    else for (const kernel of this.kernels.values()) syncNodeKernel(kernel, next, this.clock.now());
  }

  /** `kubectl apply -f`: objects are created or replaced and controllers re-run. */
  apply(text: string): ReturnType<typeof applyManifests> {
    const result = applyManifests(this.cluster, text, this.nowSeconds());
    if (result.cluster !== this.cluster) this.setCluster(result.cluster);
    return result;
  }

  private bootNodes(): void {
    this.kernels.clear();
    for (const node of this.cluster.nodes) {
      const kernel = bootNodeKernel(node, this.cluster, { recordOps: this.recordKernelOps });
      syncNodeKernel(kernel, this.cluster, this.clock.now());
      this.kernels.set(node.meta.name, kernel);
    }
  }
}
