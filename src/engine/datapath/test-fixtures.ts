/**
 * Test-only builders for the datapath's tests: the default scenario with small edits, hosts
 * by name, TCP segments, and views of the trace.
 */
import type { PacketHeader, TraceStep } from '../../protocol/trace';
import { iptablesCommand } from '../netfilter';
import type { HostRef } from '../routing';
import { DEFAULT_SCENARIO } from '../scenario';
import { World } from '../sim/world';

export interface Variant {
  /** Run the `web` Deployment with one replica pinned to this node. */
  readonly webOn?: 'node-1' | 'node-2';
  /** net.bridge.bridge-nf-call-iptables per node (default 1). */
  readonly bridgeNf?: '0' | '1';
  readonly hairpinMode?: 'hairpin-veth' | 'promiscuous-bridge' | 'none';
  /** Documents appended to the scenario. */
  readonly extra?: string;
  /** KubeProxyConfiguration mode (default iptables). */
  readonly proxyMode?: 'iptables' | 'nftables';
}

const IDLE_POD = `apiVersion: v1
kind: Pod
metadata:
  name: idle
  namespace: default
spec:
  nodeName: node-1
  containers:
  - name: idle
    image: registry.k8s.io/pause:3.10
`;

function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`scenario text not found: ${from}`);
  return text.replace(from, to);
}

/** The default scenario's text with the variant's edits. */
export function scenarioText(v: Variant = {}): string {
  let t = DEFAULT_SCENARIO;
  if (v.webOn !== undefined) {
    t = edit(t, 'replicas: 3\n', 'replicas: 1\n');
    t = edit(
      t,
      '    spec:\n      containers:\n      - name: web\n',
      `    spec:\n      nodeName: ${v.webOn}\n      containers:\n      - name: web\n`,
    );
    // Keep the client at 10.244.0.5 (the textbook's address): a pod takes web's 10.244.0.4.
    if (v.webOn === 'node-2')
      t = edit(t, '# A pod to experiment from', `${IDLE_POD}---\n# A pod to experiment from`);
  }
  if (v.bridgeNf !== undefined) {
    const nodes = ['node-1', 'node-2']
      .map(
        (n) => `  ${n}:\n    sysctls:\n      net.bridge.bridge-nf-call-iptables: "${v.bridgeNf}"\n`,
      )
      .join('');
    t = edit(t, 'externalClients:', `nodes:\n${nodes}externalClients:`);
  }
  if (v.hairpinMode !== undefined)
    t = edit(t, 'hairpinMode: hairpin-veth', `hairpinMode: ${v.hairpinMode}`);
  if (v.proxyMode !== undefined) t = edit(t, 'mode: iptables ', `mode: ${v.proxyMode} `);
  if (v.extra !== undefined) t = `${t}---\n${v.extra}`;
  return t;
}

/** A World of the variant; throws on any scenario diagnostic. */
export function labWorld(v: Variant = {}): World {
  const { world, diagnostics } = World.fromScenario(scenarioText(v));
  if (diagnostics.length > 0) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return world;
}

/** A pod by name, or by the name prefix of a Deployment's pods (the only match). */
export function podRef(world: World, prefix: string): HostRef & { readonly ip: string } {
  const pods = world.cluster.pods.filter(
    (p) => p.meta.name === prefix || p.meta.name.startsWith(`${prefix}-`),
  );
  const pod = pods[0];
  if (pods.length !== 1 || pod === undefined)
    throw new Error(`${pods.length} pods named ${prefix}`);
  return { kind: 'pod', namespace: pod.meta.namespace, name: pod.meta.name, ip: pod.podIP };
}

export function clusterIP(world: World, service: string): string {
  const s = world.cluster.services.find((x) => x.meta.name === service);
  if (s === undefined) throw new Error(`no service ${service}`);
  return s.clusterIP;
}

/** A TCP segment (60 bytes: a SYN with options; tcpdump length 0). */
export function tcp(
  src: string,
  sport: number,
  dst: string,
  dport: number,
  flags: string,
  more: Partial<PacketHeader> = {},
): PacketHeader {
  return { src, dst, proto: 'tcp', sport, dport, tcpFlags: flags, length: 60, mark: 0, ...more };
}

/** The answer a socket would send to `p` (ends and ports swapped). */
export function answer(p: PacketHeader, flags: string): PacketHeader {
  return tcp(p.dst, p.dport ?? 0, p.src, p.sport ?? 0, flags);
}

/** `host table:chain:rule` of every matched nat-table rule step. */
export function natRuleSteps(steps: readonly TraceStep[]): string[] {
  return steps.flatMap((s) =>
    s.kind === 'rule' && s.table === 'nat' && s.matched
      ? [`${s.at.host} ${s.chain}:${s.ruleNum}`]
      : [],
  );
}

/** The nat steps: `host hook manip src:sport>dst:dport → src:sport>dst:dport`. */
export function natSteps(steps: readonly TraceStep[]): string[] {
  const ends = (p: PacketHeader): string => `${p.src}:${p.sport ?? ''}>${p.dst}:${p.dport ?? ''}`;
  return steps.flatMap((s) =>
    s.kind === 'nat'
      ? [`${s.at.host} ${s.hook} ${s.manip} ${ends(s.before)} → ${ends(s.after)}`]
      : [],
  );
}

/** The hooks run, as `host HOOK`. */
export function hookSteps(steps: readonly TraceStep[]): string[] {
  return steps.flatMap((s) => (s.kind === 'hook' ? [`${s.at.host} ${s.hook}`] : []));
}

/** Deletes the rule `-s IP/32 … --comment "default/web" -j KUBE-MARK-MASQ` of web's KUBE-SEP chain. */
export function deleteSepMasquerade(world: World, node: string, endpointIP: string): void {
  const nf = world.kernel(node)?.netfilter;
  if (nf === undefined) throw new Error(`no node ${node}`);
  const rules = iptablesCommand(nf, ['-t', 'nat', '-S']).stdout.split('\n');
  const rule = rules.find(
    (r) =>
      r.startsWith('-A KUBE-SEP-') &&
      r.includes(`-s ${endpointIP}/32 `) &&
      r.includes('"default/web"') &&
      r.endsWith('-j KUBE-MARK-MASQ'),
  );
  if (rule === undefined) throw new Error(`no masquerade rule for ${endpointIP}`);
  const argv = rule.replace(/"/g, '').split(' ').slice(1);
  const r = iptablesCommand(nf, ['-t', 'nat', '-D', ...argv]);
  if (r.exitCode !== 0) throw new Error(r.stderr);
}
