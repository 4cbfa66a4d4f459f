/**
 * A lab cluster built from real network namespaces, for the experiments' differential tests.
 * The topology is the one the engine models (src/engine/routing/topology.ts):
 *
 * - a LAN: a bridge `lan0` in its own namespace; every node's and external client's `eth0` is a
 *   veth whose other end is a port of lan0, with the InternalIP (or client address) /24;
 * - a node: ip_forward=1, net.bridge.bridge-nf-call-iptables as the lab sets it (a per-namespace
 *   sysctl since Linux 5.3 when br_netfilter is loaded), kube-proxy's conntrack sysctls, a bridge
 *   `cni0` with the first address of the podCIDR, routes to the other nodes' podCIDRs via their
 *   InternalIPs (flannel host-gw), and the iptables operations kubelet and kube-proxy ran in the
 *   engine (World option recordKernelOps) replayed as they were run;
 * - a pod: its own namespace, `eth0` (a veth whose host end carries the engine's name,
 *   `veth` + 8 hex digits, on cni0, hairpin on when kubelet's hairpinMode is hairpin-veth), a
 *   default route via cni0's address, and a server per containerPort (./pod-server.mjs);
 * - hostNetwork pods share their node's namespace.
 *
 * IPv6 is disabled in every namespace (no router solicitations or MLD reports in captures).
 * Every namespace is named `kpl-cl-<random>-…`; destroy() kills the servers and deletes them all.
 * Nothing here touches the root namespace's links, routes, rules or sysctls.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Cluster } from '../../src/engine/model/cluster';
import { cidrNth, cidrParse, cidrToString } from '../../src/engine/model/ip';
import { hostNetwork, hostVethName, type HostRef } from '../../src/engine/routing/topology';
import type { World } from '../../src/engine/sim/world';
import type { RunResult } from './netns';
import { serverSpec, startPodServer } from './pod-servers';

function sh(argv: readonly string[], input = '', timeoutMs = 30_000): RunResult {
  const r = spawnSync(argv[0] ?? 'true', argv.slice(1), {
    input,
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  return { stdout: r.stdout ?? '', stderr: r.stderr ?? '', exitCode: r.status ?? -1 };
}

let unavailable: string | undefined | null = null;

/** undefined when the cluster can be built here; otherwise why not (the tests say so and skip). */
export function clusterNetnsUnavailableReason(): string | undefined {
  if (unavailable !== null) return unavailable;
  if (process.platform !== 'linux') return (unavailable = 'not Linux');
  if (process.getuid?.() !== 0) return (unavailable = 'not running as root');
  for (const tool of ['ip', 'bridge', 'iptables', 'iptables-restore', 'nfacct', 'conntrack']) {
    if (sh(['sh', '-c', `command -v ${tool}`]).exitCode !== 0)
      return (unavailable = `${tool} is not installed`);
  }
  for (const tool of ['curl', 'sysctl']) {
    if (sh(['sh', '-c', `command -v ${tool}`]).exitCode !== 0)
      return (unavailable = `${tool} is not installed`);
  }
  const version = sh(['iptables', '--version']).stdout.trim();
  if (version !== 'iptables v1.8.9 (nf_tables)')
    return (unavailable = `iptables is "${version}", not v1.8.9 (nf_tables)`);
  // br_netfilter gives every namespace its own net.bridge.* sysctls; load it if it is missing.
  if (!existsSync('/proc/sys/net/bridge/bridge-nf-call-iptables')) sh(['modprobe', 'br_netfilter']);
  const probe = `kpl-cl-${randomBytes(3).toString('hex')}-probe`;
  const add = sh(['ip', 'netns', 'add', probe]);
  if (add.exitCode !== 0)
    return (unavailable = `cannot create a network namespace: ${add.stderr.trim()}`);
  try {
    const r = sh([
      'ip',
      'netns',
      'exec',
      probe,
      'sysctl',
      '-w',
      'net.bridge.bridge-nf-call-iptables=0',
    ]);
    if (r.exitCode !== 0)
      return (unavailable = `br_netfilter has no per-namespace sysctls here: ${r.stderr.trim()}`);
  } finally {
    sh(['ip', 'netns', 'del', probe]);
  }
  return (unavailable = undefined);
}

/** Sysctls that live in a network namespace (writing them inside one never reaches the host). */
export const PER_NETNS_SYSCTL =
  /^net\.(bridge\.bridge-nf-call-|ipv4\.|netfilter\.nf_conntrack_(tcp|udp)_)/;

/**
 * The lab models Debian bookworm's kernel (6.1). Later kernels changed two TCP defaults that
 * show in captures (both seen in this test's first runs on a 6.18 kernel): tcp_rmem's maximum
 * went from 6 MiB to 32 MiB, so SYNs carry wscale 10 instead of 7; and since 6.5 (commit
 * ccce324dabfe, "tcp: make the first N SYN RTO backoffs linear") the first 4 SYN
 * retransmissions come 1 s apart (tcp_syn_linear_timeouts = 4) where 6.1 doubles the timeout
 * every time (1 s, 2 s, 4 s…). Both are per-namespace sysctls: the namespaces get 6.1's values
 * (`-e`: a kernel without the second knob already behaves as 6.1).
 */
const MODELLED_KERNEL =
  "-e net.ipv4.tcp_rmem='4096 131072 6291456' net.ipv4.tcp_syn_linear_timeouts=0";

/** kube-proxy (iptables mode) sets these at start (pkg/proxy/conntrack/sysctls). */
const KUBE_PROXY_SYSCTLS = {
  'net.netfilter.nf_conntrack_tcp_timeout_established': '86400',
  'net.netfilter.nf_conntrack_tcp_timeout_close_wait': '3600',
};

export class ClusterNetns {
  readonly prefix = `kpl-cl-${randomBytes(3).toString('hex')}`;
  private readonly namespaces: string[] = [];
  private readonly servers: ChildProcess[] = [];
  private readonly hostNs = new Map<string, string>();

  private constructor(private readonly cluster: Cluster) {}

  /** Builds the namespaces of `world`'s cluster and replays its nodes' kernel operations. */
  static async build(world: World): Promise<ClusterNetns> {
    const lab = new ClusterNetns(world.cluster);
    try {
      lab.buildTopology(world);
      lab.loadKernelOps(world);
      await lab.startServers();
      return lab;
    } catch (e) {
      lab.destroy();
      throw e;
    }
  }

  /** The namespace a script target runs in. */
  nsOf(host: HostRef): string | undefined {
    if (host.kind === 'pod') {
      const pod = this.cluster.pods.find(
        (p) => p.meta.namespace === host.namespace && p.meta.name === host.name,
      );
      if (pod?.hostNetwork) return this.hostNs.get(`node/${pod.nodeName}`);
      return this.hostNs.get(`pod/${host.namespace}/${host.name}`);
    }
    return this.hostNs.get(`${host.kind}/${host.name}`);
  }

  /** Runs a shell command line in a namespace, killed after `timeoutMs`. */
  run(ns: string, command: string, timeoutMs = 30_000): RunResult {
    return sh(['ip', 'netns', 'exec', ns, 'sh', '-c', command], '', timeoutMs);
  }

  destroy(): void {
    for (const s of this.servers) if (s.exitCode === null) s.kill('SIGKILL');
    for (const ns of [...this.namespaces].reverse()) sh(['ip', 'netns', 'del', ns]);
    this.namespaces.length = 0;
  }

  private addNs(key: string, suffix: string, script: string[]): string {
    const ns = `${this.prefix}-${suffix}`;
    this.hostNs.set(key, ns);
    this.namespaces.push(ns);
    script.push(
      `ip netns add ${ns}`,
      `ip netns exec ${ns} sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 ${MODELLED_KERNEL}`,
      `ip -n ${ns} link set lo up`,
    );
    return ns;
  }

  private buildTopology(world: World): void {
    const c = this.cluster;
    const script: string[] = [];
    // Interfaces get the engine's ifindex and MAC, so that `ip link` and `bridge link` compare.
    const like = (host: HostRef, name: string): string => {
      const i = hostNetwork(c, host)?.interfaces.find((f) => f.name === name);
      return i === undefined ? '' : `index ${i.ifindex} address ${i.mac}`;
    };
    const lan = this.addNs('lan', 'lan', script);
    script.push(`ip -n ${lan} link add lan0 type bridge`, `ip -n ${lan} link set lan0 up`);
    const onLan = (ns: string, port: string, address: string, host: HostRef): void => {
      script.push(
        `ip -n ${ns} link add eth0 ${like(host, 'eth0')} type veth peer name ${port} netns ${lan}`,
        `ip -n ${lan} link set ${port} master lan0 up`,
        `ip -n ${ns} addr add ${address}/24 dev eth0`,
        `ip -n ${ns} link set eth0 up`,
      );
    };
    c.nodes.forEach((node, i) => {
      const ns = this.addNs(`node/${node.meta.name}`, `n${i}`, script);
      onLan(ns, `n${i}`, node.internalIP, { kind: 'node', name: node.meta.name });
      const gw = node.internalIP.replace(/\.\d+$/, '.1');
      script.push(`ip -n ${ns} route add default via ${gw} dev eth0`);
      const sysctls = { ...world.kernel(node.meta.name)?.sysctls, ...KUBE_PROXY_SYSCTLS };
      const settable = Object.entries(sysctls).filter(([k]) => PER_NETNS_SYSCTL.test(k));
      script.push(
        `ip netns exec ${ns} sysctl -qw ${settable.map(([k, v]) => `${k}=${v}`).join(' ')}`,
      );
      const cidr = cidrParse(node.podCIDR, { allowHostBits: true });
      if (cidr === undefined) return;
      script.push(
        `ip -n ${ns} link add cni0 ${like({ kind: 'node', name: node.meta.name }, 'cni0')} type bridge`,
        `ip -n ${ns} addr add ${cidrNth(cidr, 1)}/${cidr.prefix} dev cni0`,
        `ip -n ${ns} link set cni0 up`,
      );
      if (c.kubelet.hairpinMode === 'promiscuous-bridge')
        script.push(`ip -n ${ns} link set cni0 promisc on`);
      for (const other of c.nodes) {
        const oc = cidrParse(other.podCIDR, { allowHostBits: true });
        if (other !== node && oc !== undefined)
          script.push(`ip -n ${ns} route add ${cidrToString(oc)} via ${other.internalIP}`);
      }
    });
    c.lab.externalClients.forEach((client, i) => {
      const ns = this.addNs(`external/${client.name}`, `x${i}`, script);
      onLan(ns, `x${i}`, client.address, { kind: 'external', name: client.name });
    });
    c.pods.forEach((pod, i) => {
      if (pod.hostNetwork || pod.podIP === '') return;
      const node = c.nodes.find((n) => n.meta.name === pod.nodeName);
      const cidr = node && cidrParse(node.podCIDR, { allowHostBits: true });
      const nodeNs = node && this.hostNs.get(`node/${node.meta.name}`);
      if (cidr === undefined || nodeNs === undefined) return;
      const ns = this.addNs(`pod/${pod.meta.namespace}/${pod.meta.name}`, `p${i}`, script);
      const veth = hostVethName(pod);
      const podRef: HostRef = { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name };
      const nodeRef: HostRef = { kind: 'node', name: node!.meta.name };
      script.push(
        `ip -n ${ns} link add eth0 ${like(podRef, 'eth0')} type veth peer name ${veth} ${like(nodeRef, veth)} netns ${nodeNs}`,
        `ip -n ${nodeNs} link set ${veth} master cni0 up`,
        `ip -n ${ns} addr add ${pod.podIP}/${cidr.prefix} dev eth0`,
        `ip -n ${ns} link set eth0 up`,
        `ip -n ${ns} route add default via ${cidrNth(cidr, 1)} dev eth0`,
      );
      if (c.kubelet.hairpinMode === 'hairpin-veth')
        script.push(`ip netns exec ${nodeNs} bridge link set dev ${veth} hairpin on`);
    });
    const r = sh(['sh', '-e', '-x'], script.join('\n') + '\n', 60_000);
    if (r.exitCode !== 0)
      throw new Error(
        `building the namespaces failed: ${r.stderr.split('\n').slice(-6).join('\n')}`,
      );
  }

  private loadKernelOps(world: World): void {
    for (const node of this.cluster.nodes) {
      const ns = this.hostNs.get(`node/${node.meta.name}`)!;
      // kube-proxy creates its nfacct counters at start (pkg/proxy/metrics, nfacct.Ensure).
      for (const name of ['ct_state_invalid_dropped_pkts', 'localhost_nps_accepted_pkts'])
        sh(['ip', 'netns', 'exec', ns, 'nfacct', 'add', name]);
      for (const op of world.kernel(node.meta.name)?.ops ?? []) {
        const argv =
          'restore' in op
            ? ['iptables-restore', ...op.args]
            : 'ipset' in op
              ? ['ipset', ...op.ipset]
              : ['iptables', ...op.iptables];
        const r = sh(['ip', 'netns', 'exec', ns, ...argv], 'restore' in op ? op.restore : '');
        // `iptables -C` fails when the rule is missing (kube-proxy then inserts it) and `-N`
        // when the chain exists (EnsureChain): kube-proxy reads those failures as answers.
        if (r.exitCode !== 0 && 'restore' in op)
          throw new Error(`${node.meta.name}: ${argv.join(' ')} failed: ${r.stderr}`);
      }
    }
  }

  private async startServers(): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const pod of this.cluster.pods) {
      const ns = this.nsOf({ kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name });
      const node = this.cluster.nodes.find((n) => n.meta.name === pod.nodeName);
      if (ns === undefined || node === undefined) continue;
      const spec = serverSpec(this.cluster, pod, pod.hostNetwork ? node.internalIP : pod.podIP);
      if (spec.ports.length === 0) continue;
      const server = startPodServer(ns, spec);
      this.servers.push(server.child);
      waits.push(server.ready);
    }
    await Promise.all(waits);
  }
}
