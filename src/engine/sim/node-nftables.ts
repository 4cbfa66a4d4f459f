/**
 * kube-proxy in nftables mode on a node: its proxier's transactions go to the node's
 * nf_tables state as `nft -f -` would apply them (the stale-chain deletion first, in its own
 * transaction, as kube-proxy runs it). kubelet keeps its iptables rules in this mode too.
 */
import type { Cluster, ClusterNode } from '../model/cluster';
import {
  createNftablesProxier,
  nftablesCleanupTransaction,
  type NftablesProxier,
  type NftSyncResult,
} from '../kube-proxy/nftables/proxier';
import { createNftState, nftApply, type NftState } from '../nftables';

export interface NodeNftables {
  readonly state: NftState;
  readonly proxier: NftablesProxier;
  /** The last sync, with the transactions as kube-proxy sent them. */
  lastSync?: NftSyncResult;
  /** nft's stderr for the last transaction ('' when it succeeded). */
  lastError: string;
}

export function bootNodeNftables(
  node: ClusterNode,
  cluster: Cluster,
  state: NftState = createNftState(),
): NodeNftables {
  return {
    state,
    proxier: createNftablesProxier({
      nodeName: node.meta.name,
      nodeIPs: [node.internalIP, ...(node.externalIP !== undefined ? [node.externalIP] : [])],
      podCIDR: node.podCIDR,
      config: cluster.kubeProxy,
      serviceCIDRs: cluster.lab.serviceCIDR,
    }),
    lastError: '',
  };
}

export function syncNodeNftables(n: NodeNftables, cluster: Cluster, nowMs: number): NftSyncResult {
  // kube-proxy lists the table's chains and sets every sync (a restarted kube-proxy finds
  // what its predecessor left and cleans it up).
  const table = n.state.tables.get('ip kube-proxy');
  const result = n.proxier.sync(cluster, {
    now: nowMs,
    existingChains: table?.chains.keys() ?? [],
    existingSets: table?.sets.keys() ?? [],
  });
  let error = '';
  if (result.staleChainsTransaction !== '') {
    error = nftApply(n.state, result.staleChainsTransaction, { nowMs }).stderr;
  }
  const r = nftApply(n.state, result.transaction, { nowMs });
  if (r.exitCode !== 0) {
    error = r.stderr;
    n.proxier.syncFailed();
  }
  n.lastError = error;
  n.lastSync = result;
  return result;
}

/**
 * kube-proxy's nftables CleanupLeftovers on a node's nf_tables state: the `ip kube-proxy` table
 * is deleted; when there is none, nft's "No such file or directory" is ignored as kube-proxy
 * ignores it. Returns whether a table was deleted.
 */
export function cleanupNodeNftables(state: NftState, nowMs: number): boolean {
  return nftApply(state, nftablesCleanupTransaction(), { nowMs }).exitCode === 0;
}
