/**
 * One node's kernel state as far as Service networking goes, and the two agents that program
 * it at boot: kubelet (its iptables hint chain and martian-protection rule) and kube-proxy.
 */
import type { Cluster, ClusterNode } from '../model/cluster';
import {
  createIptablesProxier,
  jumpRuleArgv,
  type IptablesProxier,
  type SyncResult,
} from '../kube-proxy';
import {
  createNetfilter,
  iptablesCommand,
  iptablesRestore,
  type NetfilterState,
} from '../netfilter';
import { bootNodeNftables, syncNodeNftables, type NodeNftables } from './node-nftables';

/** One operation an agent performed on the node's iptables, as it ran it (for replay on a real kernel). */
export type KernelOp =
  | { readonly iptables: readonly string[] }
  | { readonly restore: string; readonly args: readonly string[] };

export interface NodeKernel {
  readonly name: string;
  /** When recording, every iptables operation kubelet and kube-proxy ran, in order. */
  readonly ops?: KernelOp[];
  readonly netfilter: NetfilterState;
  readonly proxier: IptablesProxier;
  /** The last sync kube-proxy ran on this node (its restore input is shown as kube-proxy wrote it). */
  lastSync?: SyncResult;
  /** The output of the last iptables-restore kube-proxy ran ('' when it succeeded). */
  lastRestoreError: string;
  /** net.* sysctls as the lab set them for this node. */
  readonly sysctls: Record<string, string>;
  /** kube-proxy's nf_tables state and proxier when its mode is `nftables`. */
  readonly nftables?: NodeNftables;
}

/** Sysctl defaults on a node where br_netfilter is loaded (every bridge-CNI Kubernetes node). */
export const DEFAULT_SYSCTLS: Readonly<Record<string, string>> = {
  'net.bridge.bridge-nf-call-iptables': '1',
  'net.ipv4.ip_forward': '1',
  'net.netfilter.nf_conntrack_tcp_be_liberal': '0',
};

/**
 * kubelet's syncIPTablesRules (pkg/kubelet/kubelet_network_linux.go) followed by the start of
 * its iptables Monitor, which creates the KUBE-KUBELET-CANARY chains.
 */
const KUBELET_BOOT: readonly (readonly string[])[] = [
  ['-t', 'mangle', '-N', 'KUBE-IPTABLES-HINT'],
  ['-t', 'filter', '-N', 'KUBE-FIREWALL'],
  ['-t', 'filter', '-I', 'OUTPUT', '-j', 'KUBE-FIREWALL'],
  ['-t', 'filter', '-I', 'INPUT', '-j', 'KUBE-FIREWALL'],
  [
    '-t',
    'filter',
    '-A',
    'KUBE-FIREWALL',
    '-m',
    'comment',
    '--comment',
    'block incoming localnet connections',
    '--dst',
    '127.0.0.0/8',
    '!',
    '--src',
    '127.0.0.0/8',
    '-m',
    'conntrack',
    '!',
    '--ctstate',
    'RELATED,ESTABLISHED,DNAT',
    '-j',
    'DROP',
  ],
  ['-t', 'mangle', '-N', 'KUBE-KUBELET-CANARY'],
  ['-t', 'nat', '-N', 'KUBE-KUBELET-CANARY'],
  ['-t', 'filter', '-N', 'KUBE-KUBELET-CANARY'],
];

export function bootNodeKernel(
  node: ClusterNode,
  cluster: Cluster,
  opts: { recordOps?: boolean } = {},
): NodeKernel {
  const netfilter = createNetfilter();
  const ops: KernelOp[] | undefined = opts.recordOps ? [] : undefined;
  for (const argv of KUBELET_BOOT) {
    ops?.push({ iptables: argv });
    iptablesCommand(netfilter, argv);
  }
  const sysctls = { ...DEFAULT_SYSCTLS, ...(cluster.lab.sysctls[node.meta.name] ?? {}) };
  const proxier = createIptablesProxier({
    nodeName: node.meta.name,
    nodeIPs: [node.internalIP, ...(node.externalIP !== undefined ? [node.externalIP] : [])],
    podCIDR: node.podCIDR,
    config: cluster.kubeProxy,
    nfacct: true,
    tcpBeLiberal: sysctls['net.netfilter.nf_conntrack_tcp_be_liberal'] !== '0',
  });
  return {
    name: node.meta.name,
    netfilter,
    proxier,
    lastRestoreError: '',
    sysctls,
    ...(ops ? { ops } : {}),
    ...(cluster.kubeProxy.mode === 'nftables' ? { nftables: bootNodeNftables(node, cluster) } : {}),
  };
}

/**
 * One kube-proxy sync on the node: on full syncs the jump rules are ensured first
 * (`iptables -C`, then `-I` when missing, as kube-proxy's EnsureChain/EnsureRule do), then
 * the restore input is piped to `iptables-restore --noflush --counters`.
 */
export function syncNodeKernel(
  kernel: NodeKernel,
  cluster: Cluster,
  nowMs: number,
): SyncResult | undefined {
  if (kernel.nftables !== undefined) {
    syncNodeNftables(kernel.nftables, cluster, nowMs);
    return undefined;
  }
  const result = kernel.proxier.sync(cluster, { now: nowMs });
  const run = (argv: readonly string[]) => {
    kernel.ops?.push({ iptables: argv });
    return iptablesCommand(kernel.netfilter, argv);
  };
  if (result.jumpRulesEnsured) {
    for (const op of kernel.proxier.jumpRules()) {
      if (op.kind === 'chain') {
        run(jumpRuleArgv(op));
        continue;
      }
      if (run(jumpRuleArgv(op, '-C')).exitCode !== 0) run(jumpRuleArgv(op, '-I'));
    }
  }
  kernel.ops?.push({ restore: result.restoreInput, args: ['--noflush', '--counters'] });
  const restored = iptablesRestore(kernel.netfilter, result.restoreInput, {
    noflush: true,
    counters: true,
  });
  kernel.lastRestoreError = restored.exitCode === 0 ? '' : restored.stderr;
  if (restored.exitCode !== 0) kernel.proxier.restoreFailed();
  kernel.lastSync = result;
  return result;
}
