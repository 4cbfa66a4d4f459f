/**
 * Runs an experiment (scenarios/NN-name: scenario.yaml + script.txt) twice: through the engine,
 * as the CLI does, and on a cluster of real network namespaces (./cluster-netns.ts) with real
 * tools (curl, dig, conntrack, iptables, sysctl, bridge), then normalises both outputs for a
 * line-by-line comparison.
 *
 * What runs on the kernel: every line whose tool exists there and behaves as on a node
 * (REAL_TOOLS; `ip` only for `ip link`, whose interfaces the namespaces copy from the engine's
 * topology: names, ifindexes, MACs). What stays engine-only (reported by the tests): kubectl (no
 * API server) and the other `ip` views. tcpdump is compared by ./captures.ts.
 *
 * Normalised, because they differ by nature: ephemeral ports (the client's and NAT's choice),
 * conntrack timers, curl's elapsed milliseconds, the order conntrack lists entries in (hash
 * order), dig's query id and timings. Everything else must be equal.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Cluster } from '../../src/engine/model/cluster';
import type { CommandResult } from '../../src/engine/commands/registry';
import { parseScript, resolveTarget, type ScriptLine } from '../../src/engine/commands/script';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';
import { ClusterNetns, PER_NETNS_SYSCTL } from './cluster-netns';
import type { RunResult } from './netns';
import { startCapture, stopCapture, type Capture } from './captures';

export interface Step {
  readonly line: ScriptLine;
  /** `TARGET$ COMMAND`, as the transcript shows it. */
  readonly prompt: string;
  readonly engine: RunResult;
  /** undefined: engine-only (the reason says why). */
  readonly real?: RunResult;
  readonly engineOnly?: string;
}

export interface Experiment {
  readonly name: string;
  readonly scenario: string;
  readonly script: string;
}

export function readExperiment(name: string): Experiment {
  const at = (f: string): string =>
    readFileSync(new URL(`../../scenarios/${name}/${f}`, import.meta.url), 'utf8');
  return { name, scenario: at('scenario.yaml'), script: at('script.txt') };
}

/** A World of the experiment's scenario that records its nodes' iptables operations. */
export function experimentWorld(e: Experiment): World {
  const { world, diagnostics } = World.fromScenario(e.scenario, { recordKernelOps: true });
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`${e.name}: ${errors[0]!.message}`);
  // Boot every node now, so that their recorded operations are those of the scenario alone.
  void world.kernels;
  return world;
}

/** The engine's outputs, one per script line, as the CLI prints them. */
export function runEngine(e: Experiment): { prompt: string; result: CommandResult }[] {
  const { world } = World.fromScenario(e.scenario);
  const out: { prompt: string; result: CommandResult }[] = [];
  runScript(world, e.script, {
    readFile: () => undefined,
    onOutput: (prompt, result) => {
      if (prompt === undefined) throw new Error(`${e.name}: ${result.stderr}`);
      out.push({ prompt, result });
    },
  });
  return out;
}

const REAL_TOOLS = new Set([
  'curl',
  'dig',
  'conntrack',
  'iptables',
  'sysctl',
  'bridge',
  'tcpdump',
  'ip',
]);

const found = new Map<string, boolean>();
function installed(tool: string): boolean {
  let yes = found.get(tool);
  if (yes === undefined) {
    yes = spawnSync('sh', ['-c', `command -v ${tool}`], { timeout: 5_000 }).status === 0;
    found.set(tool, yes);
  }
  return yes;
}

/** Why a command line stays engine-only, or undefined when the kernel runs it too. */
export function engineOnlyReason(command: string): string | undefined {
  const words = command.trim().split(/\s+/);
  const tool = words[0] ?? '';
  if (!REAL_TOOLS.has(tool)) return `${tool}: not compared with the kernel`;
  if (!installed(tool)) return `${tool} is not installed here`;
  if (tool === 'ip' && !/^ip link( \||$)/.test(command.trim()))
    return 'ip: only `ip link` is compared with the kernel';
  if (tool === 'sysctl') {
    for (const w of words.slice(1)) {
      if (w.startsWith('-')) continue;
      if (!PER_NETNS_SYSCTL.test(w.split('=')[0] ?? ''))
        throw new Error(`refusing to run "${command}": ${w} is not a per-namespace sysctl`);
    }
  }
  return undefined;
}

/**
 * Runs the script on the engine and on the namespaces. A tcpdump line's capture starts before
 * the command that precedes it (./captures.ts).
 */
export async function runBoth(e: Experiment, lab: ClusterNetns, world: World): Promise<Step[]> {
  const engine = runEngine(e);
  const lines = parseScript(e.script).lines;
  if (engine.length !== lines.length) throw new Error(`${e.name}: script lines and outputs differ`);
  const nsOf = (line: ScriptLine): string => {
    const host = resolveTarget(world.cluster, line.target);
    const ns = typeof host === 'string' ? undefined : lab.nsOf(host);
    if (ns === undefined) throw new Error(`${line.targetText}: no namespace for the target`);
    return ns;
  };
  const isCapture = (line: ScriptLine | undefined): boolean =>
    line !== undefined &&
    line.command.startsWith('tcpdump ') &&
    engineOnlyReason(line.command) === undefined;
  const steps: Step[] = [];
  let capture: Capture | undefined;
  try {
    for (const [i, line] of lines.entries()) {
      const { prompt, result: mine } = engine[i]!;
      const reason = engineOnlyReason(line.command);
      let real: RunResult | undefined;
      if (isCapture(line)) {
        real = capture ? await stopCapture(capture) : undefined;
        capture = undefined;
      }
      const next = lines[i + 1];
      if (isCapture(next)) capture = await startCapture(nsOf(next!), next!.command);
      if (reason !== undefined) steps.push({ line, prompt, engine: mine, engineOnly: reason });
      else if (line.command.startsWith('tcpdump '))
        steps.push({
          line,
          prompt,
          engine: mine,
          ...(real ? { real } : { engineOnly: 'no previous command' }),
        });
      // Every wait is bounded: curl without -m would wait for the kernel's 127 s of SYNs.
      else
        steps.push({ line, prompt, engine: mine, real: lab.run(nsOf(line), line.command, 40_000) });
    }
  } finally {
    if (capture?.child.exitCode === null) capture.child.kill('SIGKILL');
  }
  return steps;
}

/**
 * Builds the experiment's cluster from namespaces, runs its script on both sides and removes
 * the namespaces again (also when something fails).
 */
export async function runExperiment(
  name: string,
): Promise<{ steps: Step[]; ctx: NormaliseContext }> {
  const e = readExperiment(name);
  const world = experimentWorld(e);
  const lab = await ClusterNetns.build(world);
  try {
    return { steps: await runBoth(e, lab, world), ctx: normaliseContext(world.cluster) };
  } finally {
    lab.destroy();
  }
}

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

/** A conntrack entry line with its timer, chosen ports and randomly drawn endpoint masked. */
export function normaliseConntrackLine(line: string, ctx: NormaliseContext): string {
  let out = line.replace(/^(\w+ +\d+ )\d+ /, '$1<timer> ');
  const m = /dst=(\S+) sport=\d+ dport=(\d+) .*?src=(\S+) dst=/.exec(out);
  const random = m && ctx.randomEndpoints.get(`${m[1]}:${m[2]}`);
  if (m && random && random.addresses.includes(m[3]!)) {
    const at = out.indexOf(`src=${m[3]} dst=`, out.indexOf(`dport=${m[2]}`));
    out = `${out.slice(0, at)}src=<endpoint of ${random.service}>${out.slice(at + 4 + m[3]!.length)}`;
  }
  return out.replace(/\b(sport|dport)=(\d+)\b/g, (all, k: string, p: string) =>
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
  if (tool === 'conntrack' && !command.includes('|')) {
    stdout = stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => normaliseConntrackLine(l, ctx))
      .sort()
      .map((l) => `${l}\n`)
      .join('');
  }
  if (tool === 'dig') {
    stdout = stdout
      .replace(/id: \d+/g, 'id: <id>')
      .replace(/Query time: \d+ msec/g, 'Query time: <ms> msec')
      .replace(/WHEN: .*/g, 'WHEN: <date>')
      .replace(/MSG SIZE {2}rcvd: \d+/g, 'MSG SIZE  rcvd: <n>');
  }
  return { stdout, stderr, exitCode: r.exitCode };
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
