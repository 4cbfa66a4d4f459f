/**
 * The running lab: a cluster, every node's kernel as kube-proxy and kubelet programmed it, a
 * virtual clock and a seeded random source. Commands (the terminal, the CLI) read and change
 * it; nothing here reads the wall clock or Math.random.
 */
import type { Cluster } from '../model/cluster';
import type { Diagnostic } from '../model/diagnostic';
import { LAB_EPOCH_SECONDS, ManualClock, rngFromSeed, type Rng } from '../model/runtime';
import { applyManifests, deleteService, loadScenario } from '../scenario';
import { cleanStaleEntries, conntrackCleanupRequired, staleUdpFilters } from './conntrack-cleanup';
import { bootNodeKernel, restartKubeProxy, syncNodeKernel, type NodeKernel } from './node-kernel';

export { LAB_EPOCH_SECONDS };

/** What kube-proxy is started with: the nodes (names, IPs, pod CIDRs) and its configuration. */
function restartFingerprint(cluster: Cluster): string {
  const { source: _source, ...config } = cluster.kubeProxy;
  const nodes = cluster.nodes.map((n) => [n.meta.name, n.internalIP, n.externalIP, n.podCIDR]);
  return JSON.stringify([nodes, config, cluster.lab.sysctls]);
}

/** A sync kube-proxy would have run on a node nobody looked at yet; `restart`: it restarted first. */
interface PendingSync {
  readonly cluster: Cluster;
  readonly nowMs: number;
  readonly restart?: boolean;
  /** kube-proxy's conntrack cleanup follows this sync (nothing to delete on a node not booted). */
  readonly cleanup?: boolean;
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
  /**
   * The width of the terminal the lab's commands print to (the web terminal's, the CLI's):
   * `ss` spreads its table over it. Undefined: no terminal width is known.
   */
  terminalColumns: number | undefined = undefined;
  private readonly booted = new Map<string, NodeKernel>();
  /**
   * Nodes whose kernel nobody has looked at yet, with every sync kube-proxy would have run
   * there since it (re)started: the cluster it saw and when. The first look replays them in
   * order, so the kernel ends up exactly as if it had been running all along.
   */
  private pending = new Map<string, PendingSync[]>();
  private readonly recordKernelOps: boolean;

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
   * Moves the virtual clock only. To let time pass with its effects (TCP retransmissions,
   * program timeouts) use sim/network's advanceNetwork, which steps from timer to timer;
   * conntrack entries age against the clock whenever they are looked at.
   */
  advance(ms: number): void {
    this.clock.advance(ms);
  }

  /**
   * A node's kernel. kubelet and kube-proxy on a node start when the lab first looks at it:
   * the syncs it missed run then, in order, at the virtual times they were due.
   */
  kernel(nodeName: string): NodeKernel | undefined {
    return this.booted.get(nodeName) ?? this.bootPending(nodeName);
  }

  /** Every node's kernel, by node name (boots the nodes not looked at yet). */
  get kernels(): ReadonlyMap<string, NodeKernel> {
    const kernels = new Map<string, NodeKernel>();
    for (const node of this.cluster.nodes) {
      const kernel = this.kernel(node.meta.name);
      if (kernel) kernels.set(node.meta.name, kernel);
    }
    return kernels;
  }

  /**
   * The API server accepted a change: every node's kube-proxy sees it through its informers
   * and syncs (the lab syncs at once; real kube-proxy waits up to minSyncPeriod).
   */
  setCluster(next: Cluster): void {
    // A new node, or a new kube-proxy configuration, means (re)starting kube-proxy there.
    const restart = restartFingerprint(next) !== restartFingerprint(this.cluster);
    const cleanup = conntrackCleanupRequired(this.cluster, next);
    this.cluster = next;
    const nowMs = this.clock.now();
    if (restart) {
      // A freshly started kube-proxy has no previous endpoints to compare: no cleanup.
      this.restartNodes(nowMs);
      return;
    }
    for (const kernel of this.booted.values()) {
      syncNodeKernel(kernel, next, nowMs);
      // After a successful sync kube-proxy flushes stale UDP conntrack entries.
      if (cleanup && kernel.lastRestoreError === '') cleanStaleEntries(this, kernel.name, next);
    }
    for (const syncs of this.pending.values()) syncs.push({ cluster: next, nowMs, cleanup });
  }

  /**
   * The operator changed kube-proxy's configuration (or the nodes changed) and restarted it:
   * each node keeps its kernel (conntrack, kubelet's rules, whatever the previous mode left);
   * the new kube-proxy cleans up as it does at start and syncs. New nodes boot; removed
   * nodes are forgotten.
   */
  private restartNodes(nowMs: number): void {
    const names = new Set(this.cluster.nodes.map((n) => n.meta.name));
    for (const name of [...this.booted.keys(), ...this.pending.keys()]) {
      if (names.has(name)) continue;
      this.booted.delete(name);
      this.pending.delete(name);
    }
    for (const node of this.cluster.nodes) {
      const name = node.meta.name;
      const kernel = this.booted.get(name);
      if (kernel !== undefined) {
        restartKubeProxy(kernel, node, this.cluster, nowMs);
        syncNodeKernel(kernel, this.cluster, nowMs);
      } else {
        const syncs = this.pending.get(name);
        if (syncs !== undefined) syncs.push({ cluster: this.cluster, nowMs, restart: true });
        else this.pending.set(name, [{ cluster: this.cluster, nowMs }]);
      }
    }
  }

  /**
   * The lab's scenario editor: the edited scenario replaces the running cluster (objects that
   * still exist keep their addresses). A changed KubeProxyConfiguration restarts kube-proxy on
   * every node, as an operator does after editing kube-proxy's configuration; the nodes keep
   * their kernels. Documents with errors are reported and left out, as at load.
   */
  reloadScenario(text: string): Diagnostic[] {
    const { cluster, diagnostics } = loadScenario(text, { previous: this.cluster });
    this.setCluster(cluster);
    return diagnostics;
  }

  /** `kubectl apply -f`: objects are created or replaced and controllers re-run. */
  apply(text: string): ReturnType<typeof applyManifests> {
    const result = applyManifests(this.cluster, text, this.nowSeconds());
    if (result.cluster !== this.cluster) this.setCluster(result.cluster);
    return result;
  }

  /** `kubectl delete service`: false when there is no such Service. */
  deleteService(namespace: string, name: string): boolean {
    const next = deleteService(this.cluster, namespace, name, this.nowSeconds());
    if (next === undefined) return false;
    this.setCluster(next);
    return true;
  }

  /** Starts kubelet and kube-proxy on every node; each boots when first looked at. */
  private bootNodes(): void {
    this.booted.clear();
    const nowMs = this.clock.now();
    const boot = { cluster: this.cluster, nowMs };
    this.pending = new Map(this.cluster.nodes.map((n) => [n.meta.name, [boot]]));
  }

  private bootPending(nodeName: string): NodeKernel | undefined {
    const syncs = this.pending.get(nodeName);
    if (syncs === undefined) return undefined;
    this.pending.delete(nodeName);
    const first = syncs[0]!;
    const node = first.cluster.nodes.find((n) => n.meta.name === nodeName)!;
    const kernel = bootNodeKernel(node, first.cluster, { recordOps: this.recordKernelOps });
    for (const { cluster, nowMs, restart, cleanup } of syncs) {
      if (restart) {
        const now = cluster.nodes.find((n) => n.meta.name === nodeName);
        if (now !== undefined) restartKubeProxy(kernel, now, cluster, nowMs);
      }
      syncNodeKernel(kernel, cluster, nowMs);
      // The table is empty until the node is looked at: only the cleanup's filters are kept.
      if (cleanup && kernel.lastRestoreError === '')
        kernel.ops?.push({ conntrackCleanup: staleUdpFilters(cluster, nodeName) });
    }
    this.booted.set(nodeName, kernel);
    return kernel;
  }
}
