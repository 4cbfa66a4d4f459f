/**
 * The normalisation of the experiments' differential tests: what differs by nature between
 * the engine and the kernel (ports a client or NAT chose, timers, curl's milliseconds, the order
 * conntrack lists entries in, dig's ids and timings, which endpoint a random draw picked) is
 * masked; everything else must be equal. ./normalise.test.ts shows what is kept.
 */
import { maskDates } from './differential';
import type { Cluster } from '../../src/engine/model/cluster';
import type { RunResult } from './netns';

/**
 * What a comparison may not hold against either side: the ports the cluster defines (every
 * other port is a client's or NAT's choice) and, per Service address, its endpoints when there
 * are several (which one a new connection gets is a random draw, in the kernel and the engine).
 */
export interface NormaliseContext {
  readonly knownPorts: ReadonlySet<number>;
  /** `ip:port` of a ClusterIP or NodePort → the addresses of its endpoints, when more than one. */
  readonly randomEndpoints: ReadonlyMap<string, { service: string; addresses: string[] }>;
}

export function normaliseContext(cluster: Cluster): NormaliseContext {
  const knownPorts = new Set<number>();
  const randomEndpoints = new Map<string, { service: string; addresses: string[] }>();
  for (const pod of cluster.pods)
    for (const c of pod.containers) for (const p of c.ports) knownPorts.add(p.containerPort);
  for (const svc of cluster.services) {
    const addresses = cluster.endpointSlices
      .filter((sl) => sl.serviceName === svc.meta.name && sl.meta.namespace === svc.meta.namespace)
      .flatMap((sl) => sl.endpoints.flatMap((ep) => ep.addresses));
    for (const sp of svc.ports) {
      knownPorts.add(sp.port);
      if (sp.nodePort) knownPorts.add(sp.nodePort);
      if (typeof sp.targetPort === 'number') knownPorts.add(sp.targetPort);
      if (addresses.length < 2) continue;
      const entry = { service: `${svc.meta.namespace}/${svc.meta.name}`, addresses };
      randomEndpoints.set(`${svc.clusterIP}:${sp.port}`, entry);
      if (sp.nodePort)
        for (const n of cluster.nodes) randomEndpoints.set(`${n.internalIP}:${sp.nodePort}`, entry);
    }
  }
  return { knownPorts, randomEndpoints };
}

/** What either context masks (the cluster may change while a script runs). */
export function mergeContexts(a: NormaliseContext, b: NormaliseContext): NormaliseContext {
  const randomEndpoints = new Map(a.randomEndpoints);
  for (const [vip, e] of b.randomEndpoints) {
    const had = randomEndpoints.get(vip);
    const addresses = [...new Set([...(had?.addresses ?? []), ...e.addresses])];
    randomEndpoints.set(vip, { service: e.service, addresses });
  }
  return { knownPorts: new Set([...a.knownPorts, ...b.knownPorts]), randomEndpoints };
}

/** A conntrack entry line with its timer, chosen ports and randomly drawn endpoint masked. */
export function normaliseConntrackLine(line: string, ctx: NormaliseContext): string {
  let out = line.replace(/^(\w+ +\d+ )\d+ /, '$1<timer> ');
  const m = /dst=(\S+) sport=\d+ dport=(\d+) .*?src=(\S+) dst=/.exec(out);
  const random = m && ctx.randomEndpoints.get(`${m[1]}:${m[2]}`);
  if (m && random && random.addresses.includes(m[3]!)) {
    const at = out.indexOf(`src=${m[3]} dst=`, out.indexOf(`dport=${m[2]}`));
    out = `${out.slice(0, at)}src=<endpoint of ${random.service}>${out.slice(at + 4 + m[3]!.length)}`;
  }
  return out
    .replace(/\b(sport|dport)=(\d+)\b/g, (all, k: string, p: string) =>
      ctx.knownPorts.has(Number(p)) ? all : `${k}=<port>`,
    )
    .replace(/\bid=\d+/g, 'id=<id>');
}

/** The timeouts conntrack arms (Linux 6.1's defaults for TCP, UDP and ICMP), in seconds. */
const ARMED = new Set([10, 30, 60, 120, 180, 300, 432000]);

/**
 * A `conntrack -E` line, in the order the events came: chosen ports masked, the time left of a
 * destroyed entry masked (the timeouts NEW and UPDATE events carry are the ones armed, and
 * kept), and the process that deleted an entry: its netlink port id and, when conntrack could
 * still read /proc/PORTID/cmdline as it printed the event, its name (kube-proxy, PID 1 of its
 * container, in the lab; on the kernel the test's short-lived `conntrack -D`).
 *
 * An armed timeout one second short is the armed one: ctnetlink_dump_timeout() divides the
 * jiffies left by HZ, rounding down, so when a jiffy passes between arming the timer and
 * building the event (a loaded machine), the kernel reports 119 for 120.
 */
export function normaliseConntrackEvent(line: string, ctx: NormaliseContext): string {
  return line
    .replace(/^( *\[(?:NEW|UPDATE)\] \w+ +\d+ )(\d+) /, (all, head: string, t: string) =>
      !ARMED.has(Number(t)) && ARMED.has(Number(t) + 1) ? `${head}${Number(t) + 1} ` : all,
    )
    .replace(/^(\[DESTROY\] \w+ +\d+ )\d+ /, '$1<timer> ')
    .replace(/\[USERSPACE\] portid=\d+( progname=\S+)?$/, '[USERSPACE] portid=<deleter>')
    .replace(/\b(sport|dport)=(\d+)\b/g, (all, k: string, p: string) =>
      ctx.knownPorts.has(Number(p)) ? all : `${k}=<port>`,
    );
}

export interface Normalised {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/**
 * `ip link` / `bridge link` views: a node's or client's eth0 is a NIC in the lab and a veth to
 * the LAN namespace here, so its entry is set aside; the peer namespace of a veth is printed by
 * name (`link-netns kpl-…`) or by id (`link-netnsid 0`, the node's unnamed root namespace).
 */
function normaliseLinks(text: string, onPod: boolean): string {
  const entries = text.split(/\n(?=\d+: )/);
  return entries
    .filter((e) => onPod || !/^2: eth0[:@]/.test(e))
    .join('\n')
    .replace(/link-netns(id)? \S+/g, 'link-netns <peer namespace>');
}

export function normalise(
  command: string,
  r: RunResult,
  ctx: NormaliseContext,
  onPod = false,
): Normalised {
  const tool = command.trim().split(/\s+/)[0];
  let { stdout, stderr } = r;
  if (tool === 'ip' || tool === 'bridge') stdout = normaliseLinks(stdout, onPod);
  const common = (t: string): string =>
    t
      .replace(/(you are \d+\.\d+\.\d+\.\d+):\d+/g, '$1:<port>')
      .replace(/after \d+ (milliseconds|ms)/g, 'after <ms> $1');
  stdout = common(stdout);
  stderr = common(stderr);
  // `lab flow open|list`: the port the client's socket was given.
  if (tool === 'lab')
    stdout = stdout.replace(/(\d+\.\d+\.\d+\.\d+):(\d+) -> /g, (all, a: string, p: string) =>
      ctx.knownPorts.has(Number(p)) ? all : `${a}:<port> -> `,
    );
  if (tool === 'conntrack' && / -E( |$)/.test(command)) {
    stdout = stdout
      .split('\n')
      .map((l) => normaliseConntrackEvent(l, ctx))
      .join('\n');
  } else if (tool === 'conntrack' && !command.includes('|')) {
    stdout = stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => normaliseConntrackLine(l, ctx))
      .sort()
      .map((l) => `${l}\n`)
      .join('');
  }
  // iptables-save's header and footer carry the time it ran (the lab's clock vs the machine's).
  if (tool === 'iptables-save') stdout = maskDates(stdout);
  if (tool === 'xtables-monitor') {
    stdout = normaliseTrace(stdout, ctx);
    // The lab's notes (what it does not model) are its own lines.
    stderr = stderr.replace(/^lab: .*\n/gm, '');
  }
  if (tool === 'ping') {
    // Round trips take real time on the kernel, none in the lab.
    stdout = stdout
      .replace(/time=\d+(\.\d+)? ms/g, 'time=<rtt> ms')
      .replace(/time \d+ms/g, 'time <ms>ms')
      .replace(/rtt min\/avg\/max\/mdev = \S+ ms/g, 'rtt min/avg/max/mdev = <rtt> ms');
  }
  if (tool === 'dig') {
    stdout = stdout
      .replace(/id: \d+/g, 'id: <id>')
      .replace(/Query time: \d+ msec/g, 'Query time: <ms> msec')
      .replace(/WHEN: .*/g, 'WHEN: <date>')
      .replace(/MSG SIZE {2}rcvd: \d+/g, 'MSG SIZE  rcvd: <n>')
      // The banner names the Debian package's revision, which is the mirror's point release
      // (deb12u1 and deb12u3 of 9.18.49 both seen on CI machines): the lab prints deb12u3's.
      .replace(/9\.18\.49-1~deb12u\d+-Debian/g, '9.18.49-1~deb12u<n>-Debian');
  }
  return { stdout, stderr, exitCode: r.exitCode };
}

/**
 * `xtables-monitor --trace` output. Set aside: the trace id (the kernel's is a siphash of the
 * skb's address, its flow hash and skb_iif under a key drawn at boot: recycled skbs repeat ids,
 * and a routed packet gets another id after PREROUTING); ephemeral ports; the IP ID and the DF
 * bit, which the lab does not model (its xtables-monitor says so). The MACs stay: the
 * namespaces have the engine's. A jump from a KUBE-SVC chain to a KUBE-SEP chain keeps only
 * its chains and verdict: on the kernel a rule of pin-draw.ts at the top of the chain makes
 * the engine's draw.
 */
export function normaliseTrace(text: string, ctx: NormaliseContext): string {
  return text
    .replace(/^( TRACE: 2 |PACKET: 2 )[0-9a-f]{8} /gm, '$1<id> ')
    .replace(
      /^( TRACE: 2 <id> nat:KUBE-SVC-\w+):rule:0x[0-9a-f]+:(JUMP:KUBE-SEP-\w+) .*$/gm,
      '$1:$2',
    )
    .replace(/ ID=\d+ (CE )?(DF )?(MF )?/g, ' ID=<id> ')
    .replace(/(SPORT|DPORT)=(\d+)/g, (all, k: string, p: string) =>
      ctx.knownPorts.has(Number(p)) ? all : `${k}=<port>`,
    );
}

/** The answering pod of a curl output (`web-1 (…)`), 'timeout', or the first line. */
export function curlOutcome(r: RunResult): string {
  const m = /^([\w.-]+) \((\d+\.\d+\.\d+\.\d+:\d+)\): you are (\d+\.\d+\.\d+\.\d+):\d+$/m.exec(
    r.stdout,
  );
  if (m !== null) return `${m[1]} at ${m[2]} saw ${m[3]}`;
  if (/^curl: \(28\) /m.test(r.stderr)) return 'timeout';
  return `exit ${r.exitCode}: ${(r.stderr.split('\n')[0] ?? '').trim()}`;
}
