/**
 * One node's kernel state as far as Service networking goes, and the two agents that program
 * it at boot: kubelet (its iptables hint chain and martian-protection rule) and kube-proxy.
 */
import type { Cluster, ClusterNode, ProxyMode } from '../model/cluster';
import { createIpsetState, type IpsetState } from '../ipset';
import { createIpvsState, type IpvsState } from '../ipvs';
import {
  createIptablesProxier,
  createIpvsProxier,
  jumpRuleArgv,
  type IptablesProxier,
  type IpvsProxier,
  type IpvsSyncResult,
  type SyncResult,
} from '../kube-proxy';
import { cleanupIptablesLeftovers, cleanupIpvsLeftovers } from './cleanup';
import type { StaleUdpFilter } from './conntrack-cleanup';
import { ipvsNodeOf } from './ipvs-node';
import { createNftState, type NftState } from '../nftables';
import {
  createNetfilter,
  iptablesCommand,
  iptablesRestore,
  type NetfilterState,
} from '../netfilter';
import {
  bootNodeNftables,
  cleanupNodeNftables,
  syncNodeNftables,
  type NodeNftables,
} from './node-nftables';

/**
 * One operation an agent performed on the node's kernel, as it ran it (for replay on a real
 * kernel): iptables, iptables-restore and ipset runs, and kube-proxy's conntrack cleanup (the
 * filters its CleanStaleEntries deleted the node's UDP entries by).
 */
export type KernelOp =
  | { readonly iptables: readonly string[] }
  | { readonly restore: string; readonly args: readonly string[] }
  | { readonly ipset: readonly string[] }
  | { readonly conntrackCleanup: readonly StaleUdpFilter[] };

/** The proxier kube-proxy runs, by mode (one small switch in `startProxier`). */
export type NodeProxier = IptablesProxier | IpvsProxier;

export interface NodeKernel {
  readonly name: string;
  /** When recording, every iptables operation kubelet and kube-proxy ran, in order. */
  readonly ops?: KernelOp[];
  readonly netfilter: NetfilterState;
  /** The running kube-proxy's proxier (replaced when kube-proxy restarts with a new configuration). */
  proxier: NodeProxier;
  /** The last sync kube-proxy ran on this node (its restore input is shown as kube-proxy wrote it). */
  lastSync?: SyncResult | IpvsSyncResult;
  /** IPVS services, real servers and connections (ip_vs); empty unless IPVS mode ran. */
  readonly ipvs: IpvsState;
  /** IP sets (ip_set). */
  readonly ipsets: IpsetState;
  /** nfacct objects (nfnetlink_acct), by name: kube-proxy's counters (ensureKubeProxyCounters()). */
  readonly nfacct: Set<string>;
  /** The dummy interface kube-ipvs0 and its addresses, once the IPVS proxier created it. */
  kubeIpvs0?: { readonly addresses: string[] };
  /** The output of the last iptables-restore kube-proxy ran ('' when it succeeded). */
  lastRestoreError: string;
  /** net.* sysctls as the lab set them for this node. */
  readonly sysctls: Record<string, string>;
  /**
   * kube-proxy's nf_tables state and proxier once nftables mode ran (the state stays after a
   * switch to another mode, its `ip kube-proxy` table deleted by that mode's cleanup).
   */
  nftables?: NodeNftables;
  /** The mode the running kube-proxy was started with. */
  mode: ProxyMode;
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

/** The node's nf_tables state for `nft -f`: its table handles follow iptables-nft's tables. */
function netnsNftState(netfilter: NetfilterState): NftState {
  return netfilter.netns === undefined ? createNftState() : { ...createNftState(), netns: netfilter.netns }; // prettier-ignore
}

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
  const kernel: NodeKernel = {
    name: node.meta.name,
    netfilter,
    proxier: startProxier(node, cluster, sysctls),
    lastRestoreError: '',
    sysctls,
    ipvs: createIpvsState(),
    ipsets: createIpsetState(),
    nfacct: new Set(),
    ...(ops ? { ops } : {}),
    mode: cluster.kubeProxy.mode,
    ...(cluster.kubeProxy.mode === 'nftables'
      ? { nftables: bootNodeNftables(node, cluster, netnsNftState(netfilter)) }
      : {}),
  };
  if (cluster.kubeProxy.mode === 'ipvs') ipvsPrivilegedInit(kernel, cluster);
  ensureKubeProxyCounters(kernel);
  return kernel;
}

/**
 * kube-proxy's iptables mode creates its nfacct counters when it starts (pkg/proxy/iptables
 * NewProxier: nfacct.Ensure for each of metrics' counters), which its rules then name; they
 * stay in the kernel after a restart in another mode. IPVS and nftables modes make none.
 */
function ensureKubeProxyCounters(kernel: NodeKernel): void {
  if (kernel.mode !== 'iptables') return;
  for (const name of ['ct_state_invalid_dropped_pkts', 'localhost_nps_accepted_pkts'])
    kernel.nfacct.add(name);
}

/**
 * cmd/kube-proxy/app: the iptables-based proxier of the configured mode (nftables mode's proxier
 * lives in `kernel.nftables`; the iptables one is kept for its type only and never synced).
 */
function startProxier(
  node: ClusterNode,
  cluster: Cluster,
  sysctls: Record<string, string>,
): NodeProxier {
  switch (cluster.kubeProxy.mode) {
    case 'ipvs':
      return createIpvsProxier({
        nodeName: node.meta.name,
        nodeIP: node.internalIP,
        podCIDR: node.podCIDR,
        config: cluster.kubeProxy,
      });
    default:
      return createIptablesProxier({
        nodeName: node.meta.name,
        nodeIPs: [node.internalIP, ...(node.externalIP !== undefined ? [node.externalIP] : [])],
        podCIDR: node.podCIDR,
        config: cluster.kubeProxy,
        nfacct: true,
        tcpBeLiberal: sysctls['net.netfilter.nf_conntrack_tcp_be_liberal'] !== '0',
      });
  }
}

/**
 * The IPVS proxier's NewProxier(): the sysctls it ensures (vs/conntrack, expire_nodest_conn,
 * expire_quiescent_template, ip_forward; arp_ignore/arp_announce with strictARP; conn_reuse_mode
 * is left alone on kernels >= 5.9) and `ipvsadm --set` when a timeout is configured.
 */
function ipvsPrivilegedInit(kernel: NodeKernel, cluster: Cluster): void {
  const c = cluster.kubeProxy;
  Object.assign(kernel.sysctls, {
    'net.ipv4.vs.conntrack': '1',
    'net.ipv4.vs.expire_nodest_conn': '1',
    'net.ipv4.vs.expire_quiescent_template': '1',
    'net.ipv4.ip_forward': '1',
    ...(c.ipvsStrictARP
      ? { 'net.ipv4.conf.all.arp_ignore': '1', 'net.ipv4.conf.all.arp_announce': '2' }
      : {}),
  });
  if (c.ipvsTcpTimeout > 0) kernel.ipvs.timeouts.tcp = c.ipvsTcpTimeout;
  if (c.ipvsTcpFinTimeout > 0) kernel.ipvs.timeouts.tcpfin = c.ipvsTcpFinTimeout;
  if (c.ipvsUdpTimeout > 0) kernel.ipvs.timeouts.udp = c.ipvsUdpTimeout;
}

/**
 * kube-proxy restarts on the node with a new configuration: the kernel keeps everything
 * (conntrack, kubelet's rules, the previous mode's rules, IPVS, ipsets); the new process runs
 * `platformCleanup` (cmd/kube-proxy/app/server_linux.go) and starts its proxier. iptables and
 * IPVS modes are both "iptables based": switching between them cleans up nothing; only a switch
 * to nftables removes their leftovers, and a switch from nftables removes its table.
 */
export function restartKubeProxy(
  kernel: NodeKernel,
  node: ClusterNode,
  cluster: Cluster,
  nowMs: number,
): void {
  // Sysctls the scenario sets for the node are (re)applied, as an operator's sysctl.d would.
  Object.assign(kernel.sysctls, cluster.lab.sysctls[node.meta.name] ?? {});
  const mode = cluster.kubeProxy.mode;
  platformCleanup(kernel, mode, nowMs);
  kernel.mode = mode;
  kernel.proxier = startProxier(node, cluster, kernel.sysctls);
  delete kernel.lastSync;
  if (mode === 'nftables') {
    // A new process, a new proxier; the nf_tables state is the kernel's.
    const fresh = bootNodeNftables(node, cluster, netnsNftState(kernel.netfilter));
    kernel.nftables =
      kernel.nftables === undefined ? fresh : { ...fresh, state: kernel.nftables.state };
  } else if (kernel.nftables !== undefined) delete kernel.nftables.lastSync;
  if (mode === 'ipvs') ipvsPrivilegedInit(kernel, cluster);
  ensureKubeProxyCounters(kernel);
}

/**
 * platformCleanup(mode, cleanupAndExit=false): "only remove rules that are definitely not in
 * use by the currently-configured mode". iptables and IPVS leftovers go only when the new mode
 * is nftables; nftables leftovers go when it is iptables or IPVS.
 */
function platformCleanup(kernel: NodeKernel, mode: ProxyMode, nowMs: number): void {
  if (mode === 'nftables') {
    cleanupIptablesLeftovers(kernel);
    cleanupIpvsLeftovers(kernel);
  } else if (kernel.nftables !== undefined) cleanupNodeNftables(kernel.nftables.state, nowMs);
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
): SyncResult | IpvsSyncResult | undefined {
  if (kernel.mode === 'nftables' && kernel.nftables !== undefined) {
    syncNodeNftables(kernel.nftables, cluster, nowMs);
    return undefined;
  }
  const proxier = kernel.proxier;
  const result =
    proxier.mode === 'ipvs'
      ? proxier.sync(cluster, ipvsNodeOf(kernel, cluster), nowMs)
      : proxier.sync(cluster, { now: nowMs });
  const run = (argv: readonly string[]) => {
    kernel.ops?.push({ iptables: argv });
    return iptablesCommand(kernel.netfilter, argv);
  };
  if (result.jumpRulesEnsured) {
    for (const op of kernel.proxier.jumpRules()) {
      if (op.kind === 'chain') {
        // EnsureChain: `-N`, an existing chain is fine.
        run(jumpRuleArgv(op));
        continue;
      }
      if (run(jumpRuleArgv(op, '-C')).exitCode !== 0) run(jumpRuleArgv(op, '-I'));
    }
  }
  kernel.ops?.push({ restore: result.restoreInput, args: ['--noflush', '--counters'] });
  const input = 'restorePieces' in result ? result.restorePieces : result.restoreInput;
  const restored = iptablesRestore(kernel.netfilter, input, {
    noflush: true,
    counters: true,
  });
  kernel.lastRestoreError = restored.exitCode === 0 ? '' : restored.stderr;
  if (restored.exitCode !== 0) kernel.proxier.restoreFailed();
  kernel.lastSync = result;
  return result;
}
