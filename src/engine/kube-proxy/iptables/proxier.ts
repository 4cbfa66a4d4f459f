/**
 * kube-proxy's iptables proxier (pkg/proxy/iptables/proxier.go, v1.33+), one per node:
 * `sync(cluster)` returns exactly the bytes kube-proxy pipes to
 * `iptables-restore --noflush --counters`, and `jumpRules()` the built-in-chain jumps it
 * ensures with `iptables -C`/`-I` on full syncs.
 *
 * Sync behaviour: the first sync is full; later syncs are partial. Top-level chains are
 * always re-declared and rewritten; a service's own chains (SVC/SVL/EXT/FW/SEP) are written
 * only when the Service or its EndpointSlices changed since the last sync (kube-proxy's
 * `UpdatedServices`, keyed by namespace/name). Chains that exist in the kernel but are no
 * longer active are flushed (`:CHAIN - [0:0]`) and deleted (`-X CHAIN`).
 */
import type { Cluster, KubeProxyConfig } from '../../model/cluster';
import { joinPieces, type RestorePieces } from '../../netfilter/restore-pieces';
import { nodePortAddressesFor } from '../node-port-addresses';
import { NatChainRegistry } from './chain-registry';
import { ServiceChangeTracker } from './change-tracker';
import { localDetectorFor, masqueradeMark } from './format';
import { jumpRuleOps, type JumpRuleOp } from './jump-rules';
import { chainLine, LineBuffer } from './line-buffer';
import type { FragmentEnv } from './service-fragment';
import { ServiceSection } from './service-section';
import {
  NAT_TOP_LEVEL_CHAINS,
  writeForwardRules,
  writeNodePortsTail,
  writeStaticHead,
} from './static-rules';

export { isServiceChainName } from './chain-registry';

export interface IptablesProxierOptions {
  readonly nodeName: string;
  /**
   * The node's IPv4 interface addresses; the first is the node IP kube-proxy was started
   * with (KUBE-FW compares source ranges with it). 127.0.0.1 (lo) is implied.
   */
  readonly nodeIPs: readonly string[];
  /** node.spec.podCIDR (the NodeCIDR local-traffic detector). */
  readonly podCIDR: string;
  readonly config: KubeProxyConfig;
  /** The nfacct counters could be created (`ct_state_invalid_dropped_pkts`, `localhost_nps_accepted_pkts`). */
  readonly nfacct: boolean;
  /** net.netfilter.nf_conntrack_tcp_be_liberal != 0: no INVALID drop rule. */
  readonly tcpBeLiberal: boolean;
  /** iptables supports `--random-fully` (1.6.2+; every current node). Default true. */
  readonly randomFully?: boolean;
  /** pkg/proxy/util FullSyncPeriod (1 hour), in seconds. */
  readonly fullSyncPeriodSeconds?: number;
}

export interface SyncOptions {
  /** Virtual time in ms: drives the periodic full sync and large-cluster chain cleanup. */
  readonly now?: number;
  /** Chains in the kernel's nat table (what kube-proxy reads with iptables-save); defaults to the proxier's own record. */
  readonly existingNatChains?: Iterable<string>;
}

export interface SyncResult {
  /** Exactly the input of `iptables-restore --noflush --counters`. */
  readonly restoreInput: string;
  /** The same input as the pieces it is joined from (see netfilter/restore-pieces.ts). */
  readonly restorePieces: RestorePieces;
  readonly full: boolean;
  /** Full syncs also ensure the jump rules (see `jumpRules()`). */
  readonly jumpRulesEnsured: boolean;
  readonly largeClusterMode: boolean;
  readonly totalEndpoints: number;
  /** Lines in the restore input (kube-proxy's numFilterChains/numFilterRules/numNATChains/numNATRules log). */
  readonly filterChains: number;
  readonly filterRules: number;
  readonly natChains: number;
  readonly natRules: number;
  /** sync_proxy_rules_iptables_total{table="nat"}: rules written + rules skipped − deleted chains. */
  readonly natRulesTotal: number;
  /** Per-service nat chains declared (and so rewritten) by this restore. */
  readonly chainsWritten: readonly string[];
  /** Stale per-service nat chains flushed and deleted by this restore. */
  readonly chainsDeleted: readonly string[];
  /** Services (namespace/name) whose own chains were rewritten. */
  readonly servicesWritten: readonly string[];
  /** sync_proxy_rules_no_local_endpoints_total{traffic_policy="internal"|"external"}. */
  readonly noLocalEndpointsInternal: number;
  readonly noLocalEndpointsExternal: number;
}

export interface IptablesProxier {
  readonly mode: 'iptables';
  sync(cluster: Cluster, opts?: SyncOptions): SyncResult;
  /** The `-N`/`-C`+`-I` operations kube-proxy performs for built-in-chain jumps and the canary. */
  jumpRules(): JumpRuleOp[];
  /** The next sync is full (canary chain gone, topology labels changed: `forceSyncProxyRules`). */
  forceFullSync(): void;
  /** The last restore input was rejected: nothing was applied, and the next sync is full. */
  restoreFailed(): void;
  /** The nat chains the proxier believes exist. */
  natChains(): readonly string[];
}

/** `largeClusterEndpointsThreshold`: above this many endpoints, comments are dropped. */
export const LARGE_CLUSTER_ENDPOINTS_THRESHOLD = 1000;

export function createIptablesProxier(opts: IptablesProxierOptions): IptablesProxier {
  const { config } = opts;
  const nodeIP = opts.nodeIPs[0];
  const npa = nodePortAddressesFor(config.nodePortAddresses, nodeIP);
  // NewProxier: localhost NodePorts need nodePortAddresses to include 127.0.0.0.
  const localhostNodePorts = config.localhostNodePorts && npa.containsIPv4Loopback;
  const mark = masqueradeMark(config.masqueradeBit);
  const interfaceAddrs = ['127.0.0.1', ...opts.nodeIPs.filter((ip) => ip !== '127.0.0.1')];
  const fullSyncPeriodMs = (opts.fullSyncPeriodSeconds ?? 3600) * 1000;
  const env: FragmentEnv = {
    masqueradeAll: config.masqueradeAll,
    detector: localDetectorFor(config, opts.podCIDR),
    nodeIP,
    localhostNodePortCounter: localhostNodePorts && opts.nfacct,
  };

  let needFullSync = true;
  let lastFullSync: number | undefined;
  let lastCleanup: number | undefined;
  const tracker = new ServiceChangeTracker(opts.nodeName);
  const chains = new NatChainRegistry();
  const section = new ServiceSection(env, chains);

  function sync(cluster: Cluster, syncOpts: SyncOptions = {}): SyncResult {
    const now = syncOpts.now;
    // A full sync is forced, or due once per FullSyncPeriod.
    const periodDue =
      now !== undefined && lastFullSync !== undefined && now - lastFullSync > fullSyncPeriodMs;
    const doFullSync = needFullSync || periodDue;
    if (syncOpts.existingNatChains !== undefined)
      chains.replaceExisting(syncOpts.existingNatChains);
    const { updated, ports, rerender, released, totalEndpoints } = tracker.update(cluster);
    const largeClusterMode = totalEndpoints > LARGE_CLUSTER_ENDPOINTS_THRESHOLD;

    // The service loop. Ports keep their rendered lines between syncs: only new ports and
    // ports whose endpoints changed are rendered, plus written ports last rendered in the
    // other large-cluster mode (it changes the comments in their own chains).
    const written = doFullSync ? ports : tracker.portsOf(updated);
    section.release(released);
    section.render(rerender, largeClusterMode, true);
    section.render(written, largeClusterMode, false);

    const b = {
      filterChains: new LineBuffer(),
      filterRules: new LineBuffer(),
      natChains: new LineBuffer(),
      natRules: new LineBuffer(),
    };
    writeStaticHead(b, mark, opts.randomFully !== false, localhostNodePorts);
    const loop = section.write(b, ports, written);

    // Delete chains no longer in use. kube-proxy lists the kernel's nat chains with
    // iptables-save; in large clusters it does so only once per syncPeriod.
    let chainsDeleted: string[] = [];
    const cleanupDue =
      !largeClusterMode ||
      now === undefined ||
      lastCleanup === undefined ||
      now - lastCleanup > config.syncPeriodSeconds * 1000;
    if (cleanupDue) {
      // kube-proxy walks a set difference (random order); the lab sorts by name.
      chainsDeleted = chains.staleChains();
      for (const chain of chainsDeleted) {
        b.natChains.write(chainLine(chain)); // declaring a chain flushes it
        b.natRules.write('-X', chain);
      }
      if (now !== undefined) lastCleanup = now;
    }

    writeNodePortsTail(b.natRules, npa, localhostNodePorts, interfaceAddrs);
    writeForwardRules(b.filterRules, mark, opts.nfacct, opts.tcpBeLiberal);

    const restorePieces = LineBuffer.pieces([
      '*filter\n',
      b.filterChains,
      b.filterRules,
      'COMMIT\n*nat\n',
      b.natChains,
      b.natRules,
      'COMMIT\n',
    ]);
    let restoreInput: string | undefined;

    // What the kernel holds once this restore succeeds (restoreFailed() undoes it).
    chains.commit([...NAT_TOP_LEVEL_CHAINS, ...loop.chainsWritten], chainsDeleted);
    needFullSync = false;
    if (doFullSync && now !== undefined) lastFullSync = now;

    return {
      // Joined when first read (the node's iptables-restore reads the pieces).
      get restoreInput(): string {
        return (restoreInput ??= joinPieces(restorePieces.pieces));
      },
      restorePieces,
      full: doFullSync,
      jumpRulesEnsured: doFullSync,
      largeClusterMode,
      totalEndpoints,
      filterChains: b.filterChains.lineCount,
      filterRules: b.filterRules.lineCount,
      natChains: b.natChains.lineCount,
      natRules: b.natRules.lineCount,
      // kube-proxy counts the own rules of unchanged services too (sync_proxy_rules_iptables_total).
      natRulesTotal: b.natRules.lineCount + loop.skippedNatRules - chainsDeleted.length,
      chainsWritten: loop.chainsWritten,
      chainsDeleted,
      servicesWritten: loop.servicesWritten,
      noLocalEndpointsInternal: loop.noLocalEndpointsInternal,
      noLocalEndpointsExternal: loop.noLocalEndpointsExternal,
    };
  }

  return {
    mode: 'iptables',
    sync,
    jumpRules: jumpRuleOps,
    forceFullSync() {
      needFullSync = true;
    },
    restoreFailed() {
      // iptables-restore applies all or nothing; the change trackers are already drained.
      chains.rollback();
      needFullSync = true;
    },
    natChains: () => chains.chains(),
  };
}
