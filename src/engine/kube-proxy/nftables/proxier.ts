/**
 * kube-proxy's nftables proxier (pkg/proxy/nftables/proxier.go, v1.33+), one per node:
 * `sync(cluster)` returns the transaction kube-proxy hands to `nft -f -` through knftables.
 *
 * Sync behaviour: the first sync is full (setupNFTables flushes and rewrites everything); later
 * syncs are partial: elements are added/deleted by difference, and a service's own chains are
 * rewritten only when the Service or its EndpointSlices changed. A chain no longer used is
 * flushed at once and deleted at the first sync at least one second later, in its own
 * transaction ("with kernels before 6.2 … the kernel doesn't notice until a short amount of
 * time later that the chain is now unreferenced"). Affinity sets no longer used are deleted
 * at once. Once an hour (FullSyncPeriod) a sync is full again.
 *
 * Where the lab is deterministic and kube-proxy is not: services are processed in S/protocol
 * order (Go map order upstream), stale chains and leftover elements in name order.
 */
import type { Cluster } from '../../model/cluster';
import { ServiceChangeTracker } from '../iptables/change-tracker';
import { masqueradeMark } from '../iptables/format';
import { nodePortAddressesFor, nodePortIPs, ipIsLoopback } from '../node-port-addresses';
import type { IptablesProxierOptions } from '../iptables/proxier';
import { nftLocalDetector } from './detector';
import { writeServicePort, type ServiceEnv } from './service-rules';
import { setupNFTables, type Containers } from './setup';
import { ElementStorage, Transaction } from './tx';

export type NftablesProxierOptions = Pick<
  IptablesProxierOptions,
  'nodeName' | 'nodeIPs' | 'podCIDR' | 'config'
> & {
  /** The cluster's service CIDRs, comma separated (`--service-cluster-ip-range` / ServiceCIDRs). */
  readonly serviceCIDRs: string;
  readonly fullSyncPeriodSeconds?: number;
};

export interface NftSyncResult {
  /** The transaction deleting chains stale for over a second (run first); '' when none. */
  readonly staleChainsTransaction: string;
  /** The sync's transaction, as knftables writes it for `nft -f -`. */
  readonly transaction: string;
  readonly full: boolean;
  /** Services (namespace/name) whose own chains were rewritten. */
  readonly servicesWritten: readonly string[];
  readonly chainsFlushed: readonly string[];
  readonly chainsDeleted: readonly string[];
  readonly noLocalEndpointsInternal: number;
  readonly noLocalEndpointsExternal: number;
}

export interface NftSyncOptions {
  /** Virtual time in ms (stale chains age, the periodic full sync). */
  readonly now?: number;
  /**
   * The chains and sets in the kernel's table, as kube-proxy lists them each sync
   * (`nftables.List(ctx, "chains"|"sets")`); default: what this proxier wrote.
   */
  readonly existingChains?: Iterable<string>;
  readonly existingSets?: Iterable<string>;
}

export interface NftablesProxier {
  sync(cluster: Cluster, opts?: NftSyncOptions): NftSyncResult;
  /** The transaction failed: nothing was applied; the next sync is full. */
  syncFailed(): void;
  /** Chains the proxier believes exist in the table. */
  chains(): readonly string[];
}

/**
 * isServiceChainName: per-service chain names always hold a `/` (`ns/svc/proto/port`), kube-proxy's
 * fixed chains (`firewall-check`, `services`, …) never do.
 */
export function isNftServiceChainName(name: string): boolean {
  return name.includes('/');
}

export function createNftablesProxier(opts: NftablesProxierOptions): NftablesProxier {
  const { config } = opts;
  const nodeIP = opts.nodeIPs[0];
  const npa = nodePortAddressesFor(config.nodePortAddresses, nodeIP);
  const interfaceAddrs = ['127.0.0.1', ...opts.nodeIPs.filter((ip) => ip !== '127.0.0.1')];
  const detector = nftLocalDetector(config, opts.podCIDR);
  const env: ServiceEnv = {
    masqueradeAll: config.masqueradeAll,
    nodeIP,
    ...detector,
  };
  const fullSyncPeriodMs = (opts.fullSyncPeriodSeconds ?? 3600) * 1000;
  const tracker = new ServiceChangeTracker(opts.nodeName);
  const containers: Containers = {
    clusterIPs: new ElementStorage('set', 'cluster-ips'),
    serviceIPs: new ElementStorage('map', 'service-ips'),
    firewallIPs: new ElementStorage('map', 'firewall-ips'),
    noEndpointServices: new ElementStorage('map', 'no-endpoint-services'),
    noEndpointNodePorts: new ElementStorage('map', 'no-endpoint-nodeports'),
    serviceNodePorts: new ElementStorage('map', 'service-nodeports'),
  };
  let needFullSync = true;
  let firstSync = true;
  let lastFullSync: number | undefined;
  let existingChains = new Set<string>();
  let existingAffinitySets = new Set<string>();
  const staleChains = new Map<string, number>();

  function sync(cluster: Cluster, syncOpts: NftSyncOptions = {}): NftSyncResult {
    const now = syncOpts.now ?? 0;
    if (syncOpts.existingChains !== undefined) existingChains = new Set(syncOpts.existingChains);
    if (syncOpts.existingSets !== undefined) {
      existingAffinitySets = new Set(
        [...syncOpts.existingSets].filter((n) => n.startsWith('affinity-')),
      );
    }
    // Chains stale for more than a second are deleted first, in a transaction of their own.
    const staleTx = new Transaction();
    const chainsDeleted: string[] = [];
    for (const [chain, since] of [...staleChains].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      if (since < now - 1000) {
        staleTx.deleteChain(chain);
        staleChains.delete(chain);
        existingChains.delete(chain);
        chainsDeleted.push(chain);
      }
    }

    const periodDue = lastFullSync !== undefined && now - lastFullSync > fullSyncPeriodMs;
    const full = needFullSync || periodDue;
    const { updated, ports } = tracker.update(cluster);
    const tx = new Transaction();
    if (full) {
      setupNFTables(
        tx,
        {
          mark: masqueradeMark(config.masqueradeBit),
          firstSync,
          matchAll: npa.matchAll,
          nodePortIPs: nodePortIPs(npa, interfaceAddrs).filter((ip) => !ipIsLoopback(ip)),
          serviceCIDRs: opts.serviceCIDRs,
        },
        containers,
      );
    } else for (const s of Object.values(containers) as ElementStorage[]) s.beginPartial();

    const active = new Set<string>();
    const activeAffinity = new Set<string>();
    const servicesWritten = new Set<string>();
    let noLocalInternal = 0;
    let noLocalExternal = 0;
    for (const port of ports) {
      const skip = !full && !updated.has(port.unitKey);
      if (!skip) servicesWritten.add(port.unitKey);
      const r = writeServicePort(tx, containers, env, port.info, port.endpoints, skip, active);
      r.affinitySets.forEach((s) => activeAffinity.add(s));
      if (r.noLocalInternal) noLocalInternal++;
      if (r.noLocalExternal) noLocalExternal++;
    }

    // Stale service chains: flushed now, deleted a second later.
    const chainsFlushed: string[] = [];
    for (const chain of [...existingChains].sort()) {
      if (!isNftServiceChainName(chain)) continue;
      if (!active.has(chain)) {
        if (!staleChains.has(chain)) {
          tx.flushChain(chain);
          chainsFlushed.push(chain);
          staleChains.set(chain, now);
        }
      } else staleChains.delete(chain);
    }
    for (const set of [...existingAffinitySets].sort()) {
      if (!activeAffinity.has(set)) tx.deleteSet('set', set);
    }
    for (const s of Object.values(containers) as ElementStorage[]) s.cleanupLeftover(tx);

    existingChains = new Set([...existingChains, ...active]);
    existingAffinitySets = activeAffinity;
    needFullSync = false;
    firstSync = false;
    if (full) lastFullSync = now;
    return {
      staleChainsTransaction: staleTx.text(),
      transaction: tx.text(),
      full,
      servicesWritten: [...servicesWritten].sort(),
      chainsFlushed,
      chainsDeleted,
      noLocalEndpointsInternal: noLocalInternal,
      noLocalEndpointsExternal: noLocalExternal,
    };
  }

  return {
    sync,
    syncFailed() {
      needFullSync = true;
    },
    chains: () => [...existingChains].sort(),
  };
}

/**
 * nftables.CleanupLeftovers (run by kube-proxy at start in iptables and IPVS modes, and by
 * `--cleanup`): one transaction per family deleting the whole table; a table that is not there
 * is not an error (knftables.IsNotFound). IPv4 only in the lab.
 */
export function nftablesCleanupTransaction(): string {
  const tx = new Transaction();
  tx.deleteTable();
  return tx.text();
}
