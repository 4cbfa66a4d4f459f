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
 *   engine (World option recordKernelOps) replayed as they were run, kube-proxy's conntrack
 *   cleanups included (./conntrack-cleanup-replay.ts);
 * - a pod: its own namespace, `eth0` (a veth whose host end carries the engine's name,
 *   `veth` + 8 hex digits, on cni0, hairpin on when kubelet's hairpinMode is hairpin-veth), a
 *   default route via cni0's address, and a server per containerPort (./pod-server.mjs);
 * - hostNetwork pods share their node's namespace;
 * - every interface gets the engine's name, ifindex and MAC, every host the engine's default
 *   route (the LAN's .1), so that `ip link|route|addr` and `bridge link` read the same.
 *
 * follow() keeps the namespaces in step with the engine while a script runs: kube-proxy's new
 * syncs are replayed, pods that appear get a namespace, pods that are killed lose theirs.
 * IPv6 is disabled in every namespace (no router solicitations or MLD reports in captures).
 * Every namespace is named `kpl-cl-<random>-…`; destroy() kills the servers and deletes them all.
 * Nothing here touches the root namespace's links, routes, rules or sysctls.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Cluster, Pod } from '../../src/engine/model/cluster';
import { cidrNth, cidrParse, cidrToString } from '../../src/engine/model/ip';
import { hostNetwork, hostVethName, type HostRef } from '../../src/engine/routing/topology';
import type { World } from '../../src/engine/sim/world';
import type { RunResult } from './netns';
import { readFileSync } from 'node:fs';
import { KUBE_PROXY_SYSCTLS, MODELLED_KERNEL, PER_NETNS_SYSCTL, sh } from './netns-env';

/** The IPv4 nameservers of this machine's /etc/resolv.conf (loopback ones need nothing). */
function hostNameservers(): string[] {
  let text: string;
  try {
    text = readFileSync('/etc/resolv.conf', 'utf8');
  } catch {
    return [];
  }
  return [...text.matchAll(/^nameserver\s+(\d+\.\d+\.\d+\.\d+)\s*$/gm)]
    .map((m) => m[1]!)
    .filter((ip) => !ip.startsWith('127.'));
}
import { serverSpec, startPodServer, stopPod } from './pod-servers';
import { runRepeatedCommand } from './run-many';
import { cleanStaleUdpEntries } from './conntrack-cleanup-replay';

export { clusterNetnsUnavailableReason, PER_NETNS_SYSCTL } from './netns-env';

export class ClusterNetns {
  readonly prefix = `kpl-cl-${randomBytes(3).toString('hex')}`;
  private readonly namespaces: string[] = [];
  private readonly servers: ChildProcess[] = [];
  private readonly hostNs = new Map<string, string>();
  /** The pods that have a namespace: key `pod/NS/NAME` → their address and server. */
  private readonly pods = new Map<
    string,
    { podIP: string; server?: ChildProcess; veth: string; nodeNs: string }
  >();
  /** How many of each node's recorded kernel operations ran here. */
  private readonly opsDone = new Map<string, number>();
  private podCount = 0;
  private cluster: Cluster;

  private constructor(world: World) {
    this.cluster = world.cluster;
  }

  /** Builds the namespaces of `world`'s cluster and replays its nodes' kernel operations. */
  static async build(world: World): Promise<ClusterNetns> {
    // Only iptables mode's operations are recorded as iptables/iptables-restore runs.
    if (world.cluster.kubeProxy.mode !== 'iptables')
      throw new Error(`kube-proxy mode ${world.cluster.kubeProxy.mode}: only iptables is replayed`);
    const lab = new ClusterNetns(world);
    try {
      lab.buildTopology(world);
      await lab.follow(world);
      await lab.startHostNetworkServers();
      return lab;
    } catch (e) {
      lab.destroy();
      throw e;
    }
  }

  /**
   * Follows what changed in the engine since the last call: the kernel operations kubelet and
   * kube-proxy ran since (a sync after `kubectl apply`, …) are replayed; pods that appeared get
   * their namespace and server; pods that are gone lose their server (SIGKILL: the kernel closes
   * their sockets) and their namespace (CNI DEL).
   */
  async follow(world: World): Promise<void> {
    this.cluster = world.cluster;
    this.replayKernelOps(world);
    const live = new Map<string, Pod>(
      this.cluster.pods
        .filter((p) => !p.hostNetwork && p.podIP !== '')
        .map((p) => [`pod/${p.meta.namespace}/${p.meta.name}`, p] as const),
    );
    for (const [key, had] of this.pods) {
      if (live.get(key)?.podIP === had.podIP) continue;
      await stopPod(had.server, had.nodeNs, had.veth);
      const ns = this.hostNs.get(key)!;
      sh(['ip', 'netns', 'del', ns]);
      this.namespaces.splice(this.namespaces.indexOf(ns), 1);
      this.hostNs.delete(key);
      this.pods.delete(key);
    }
    const script: string[] = [];
    const added = [...live].filter(([key]) => !this.pods.has(key)).map(([, p]) => p);
    for (const pod of added) this.addPod(pod, script);
    this.runScript(script);
    const waits: Promise<void>[] = [];
    for (const pod of added) waits.push(this.startServer(pod));
    await Promise.all(waits);
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

  /**
   * Runs the same simple command `n` times in a row in one shell (a run of identical curls:
   * one `ip netns exec` instead of n), each bounded by `timeout`; one result per run.
   */
  runMany(ns: string, command: string, n: number, timeoutSeconds = 40): RunResult[] {
    return runRepeatedCommand((line, ms) => this.run(ns, line, ms), command, n, timeoutSeconds);
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

  private runScript(script: readonly string[]): void {
    if (script.length === 0) return;
    const r = sh(['sh', '-e', '-x'], script.join('\n') + '\n', 60_000);
    if (r.exitCode !== 0)
      throw new Error(`building namespaces failed: ${r.stderr.split('\n').slice(-6).join('\n')}`);
  }

  /** Interfaces get the engine's ifindex and MAC, so that `ip link` and `bridge link` compare. */
  private like(host: HostRef, name: string): string {
    const i = hostNetwork(this.cluster, host)?.interfaces.find((f) => f.name === name);
    return i === undefined ? '' : `index ${i.ifindex} address ${i.mac}`;
  }

  private buildTopology(world: World): void {
    const c = this.cluster;
    const script: string[] = [];
    const lan = this.addNs('lan', 'lan', script);
    script.push(`ip -n ${lan} link add lan0 type bridge`, `ip -n ${lan} link set lan0 up`);
    // The LAN's router (.1, every host's default gateway) is outside the lab: what reaches it
    // for anywhere else goes on to a network that never answers (the lab's 'left-lab').
    const router = c.nodes[0]?.internalIP.replace(/\.\d+$/, '.1');
    if (router !== undefined)
      script.push(
        `ip -n ${lan} addr add ${router}/24 dev lan0`,
        `ip netns exec ${lan} sysctl -qw net.ipv4.ip_forward=1`,
        // A blackhole route drops silently (no ICMP); no iptables here, where the bridged
        // frames between the hosts would meet it through br_netfilter.
        `ip -n ${lan} route add blackhole default`,
      );
    const onLan = (ns: string, port: string, address: string, host: HostRef): void => {
      script.push(
        `ip -n ${ns} link add eth0 ${this.like(host, 'eth0')} type veth peer name ${port} netns ${lan}`,
        `ip -n ${lan} link set ${port} master lan0 up`,
        `ip -n ${ns} addr add ${address}/24 brd + dev eth0`,
        `ip -n ${ns} link set eth0 up`,
        // The LAN's gateway (.1) is the default route, as on the engine's hosts.
        `ip -n ${ns} route add default via ${address.replace(/\.\d+$/, '.1')} dev eth0`,
      );
    };
    c.nodes.forEach((node, i) => {
      const ns = this.addNs(`node/${node.meta.name}`, `n${i}`, script);
      onLan(ns, `n${i}`, node.internalIP, { kind: 'node', name: node.meta.name });
      // The machine's nameservers fail at once from here (tcpdump without -n asks them for
      // names: the lab's nodes have no reverse DNS for cluster addresses either).
      // (In a table of its own, so that `ip route` reads as the lab's.)
      for (const ip of hostNameservers())
        script.push(
          `ip -n ${ns} route add unreachable ${ip}/32 table 253`,
          `ip -n ${ns} rule add to ${ip}/32 lookup 253 pref 100`,
        );
      const sysctls = { ...world.kernel(node.meta.name)?.sysctls, ...KUBE_PROXY_SYSCTLS };
      const settable = Object.entries(sysctls).filter(([k]) => PER_NETNS_SYSCTL.test(k));
      script.push(
        `ip netns exec ${ns} sysctl -qw ${settable.map(([k, v]) => `${k}=${v}`).join(' ')}`,
      );
      // kube-proxy creates its nfacct counters at start (pkg/proxy/metrics, nfacct.Ensure).
      for (const name of ['ct_state_invalid_dropped_pkts', 'localhost_nps_accepted_pkts'])
        script.push(`ip netns exec ${ns} nfacct add ${name}`);
      const cidr = cidrParse(node.podCIDR, { allowHostBits: true });
      if (cidr === undefined) return;
      script.push(
        `ip -n ${ns} link add cni0 ${this.like({ kind: 'node', name: node.meta.name }, 'cni0')} type bridge`,
        `ip -n ${ns} addr add ${cidrNth(cidr, 1)}/${cidr.prefix} brd + dev cni0`,
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
    this.runScript(script);
  }

  /**
   * What the CNI bridge plugin does for a pod: a veth pair, the address (with its broadcast, as
   * the netlink library computes it: `brd +`), the default route.
   */
  private addPod(pod: Pod, script: string[]): void {
    const node = this.cluster.nodes.find((n) => n.meta.name === pod.nodeName);
    const cidr = node && cidrParse(node.podCIDR, { allowHostBits: true });
    const nodeNs = node && this.hostNs.get(`node/${node.meta.name}`);
    if (node === undefined || cidr === undefined || nodeNs === undefined) return;
    const key = `pod/${pod.meta.namespace}/${pod.meta.name}`;
    const ns = this.addNs(key, `p${this.podCount++}`, script);
    const veth = hostVethName(pod);
    this.pods.set(key, { podIP: pod.podIP, veth, nodeNs });
    const podRef: HostRef = { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name };
    const nodeRef: HostRef = { kind: 'node', name: node.meta.name };
    script.push(
      `ip -n ${ns} link add eth0 ${this.like(podRef, 'eth0')} type veth peer name ${veth} ${this.like(nodeRef, veth)} netns ${nodeNs}`,
      `ip -n ${nodeNs} link set ${veth} master cni0 up`,
      `ip -n ${ns} addr add ${pod.podIP}/${cidr.prefix} brd + dev eth0`,
      `ip -n ${ns} link set eth0 up`,
      `ip -n ${ns} route add default via ${cidrNth(cidr, 1)} dev eth0`,
    );
    if (this.cluster.kubelet.hairpinMode === 'hairpin-veth')
      script.push(`ip netns exec ${nodeNs} bridge link set dev ${veth} hairpin on`);
  }

  private replayKernelOps(world: World): void {
    for (const node of this.cluster.nodes) {
      const ns = this.hostNs.get(`node/${node.meta.name}`);
      const ops = world.kernel(node.meta.name)?.ops ?? [];
      if (ns === undefined) continue;
      for (const op of ops.slice(this.opsDone.get(node.meta.name) ?? 0)) {
        if ('conntrackCleanup' in op) {
          cleanStaleUdpEntries(ns, op.conntrackCleanup);
          continue;
        }
        const argv =
          'restore' in op
            ? ['iptables-restore', ...op.args]
            : 'iptables' in op
              ? ['iptables', ...op.iptables]
              : ['ipset', ...op.ipset];
        const r = sh(['ip', 'netns', 'exec', ns, ...argv], 'restore' in op ? op.restore : '');
        // `iptables -C` fails when the rule is missing (kube-proxy then inserts it) and `-N`
        // when the chain exists (EnsureChain): kube-proxy reads those failures as answers.
        if (r.exitCode !== 0 && 'restore' in op)
          throw new Error(`${node.meta.name}: ${argv.join(' ')} failed: ${r.stderr}`);
      }
      this.opsDone.set(node.meta.name, ops.length);
    }
  }

  /** hostNetwork pods listen in their node's namespace, on its address. */
  private async startHostNetworkServers(): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const pod of this.cluster.pods) {
      const node = this.cluster.nodes.find((n) => n.meta.name === pod.nodeName);
      const ns = node && this.hostNs.get(`node/${node.meta.name}`);
      if (!pod.hostNetwork || node === undefined || ns === undefined) continue;
      const spec = serverSpec(this.cluster, pod, node.internalIP);
      if (spec.ports.length === 0) continue;
      const server = startPodServer(ns, spec);
      this.servers.push(server.child);
      waits.push(server.ready);
    }
    await Promise.all(waits);
  }

  /** The pod's server (./pod-server.mjs), listening where the engine's pod apps listen. */
  private startServer(pod: Pod): Promise<void> {
    const key = `pod/${pod.meta.namespace}/${pod.meta.name}`;
    const ns = this.hostNs.get(key);
    const had = this.pods.get(key);
    if (ns === undefined || had === undefined) return Promise.resolve();
    const spec = serverSpec(this.cluster, pod, pod.podIP);
    if (spec.ports.length === 0) return Promise.resolve();
    const server = startPodServer(ns, spec);
    this.servers.push(server.child);
    had.server = server.child;
    return server.ready;
  }
}
