/**
 * Runs an experiment (scenarios/NN-name: scenario.yaml + script.txt) twice, line by line:
 * through the engine, as the CLI does, and on a cluster of real network namespaces
 * (./cluster-netns.ts) with real tools. After each line the namespaces follow what the line
 * changed in the engine's cluster (kube-proxy's syncs, pods that came or went). Both outputs
 * are then compared once normalised (./normalise.ts, ./kernel-agrees.ts).
 *
 * What runs on the kernel: every line whose tool exists there and behaves as on a node
 * (REAL_TOOLS: curl, dig, ping, conntrack, iptables, iptables-save, nft, sysctl, bridge, tcpdump (./captures.ts),
 * xtables-monitor (a listener from the script's start, as `conntrack -E`), and
 * `ip link`, `ip route`, `ip -4 addr`: the namespaces copy the engine's topology, interface
 * names, ifindexes and MACs included). What stays engine-only (reported by the tests): kubectl (no API server) and the other
 * `ip` views.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createLabRegistry } from '../../src/engine/commands';
import type { CommandResult } from '../../src/engine/commands/registry';
import { parseScript, resolveTarget, type ScriptLine } from '../../src/engine/commands/script';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';
import { ClusterNetns, PER_NETNS_SYSCTL } from './cluster-netns';
import type { RunResult } from './netns';
import {
  startCapture,
  startEventListener,
  stopCapture,
  stopEventListener,
  type Capture,
} from './captures';
import { KernelFlows } from './kernel-flows';
import { conntrackMarks, drawsSince, pinDraw } from './pin-draw';
import { mergeContexts, normaliseContext, type NormaliseContext } from './normalise';

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

const registry = createLabRegistry();

/** The engine's output of one script line, run on `world` as the CLI runs it. */
export function runEngineLine(world: World, line: ScriptLine): CommandResult {
  let result: CommandResult | undefined;
  runScript(world, `${line.targetText}$ ${line.command}\n`, {
    registry,
    readFile: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    },
    onOutput: (prompt, r) => {
      if (prompt === undefined) throw new Error(`line ${line.line}: ${r.stderr}`);
      result = r;
    },
  });
  if (result === undefined) throw new Error(`line ${line.line}: no output`);
  return result;
}

const REAL_TOOLS = new Set([
  'lab',
  'sleep',
  'curl',
  'dig',
  'ping',
  'conntrack',
  'iptables',
  'iptables-save',
  'nft',
  'sysctl',
  'bridge',
  'tcpdump',
  'ip',
  'xtables-monitor',
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
  // `lab flow` runs on real sockets (./kernel-flows.ts); the lab's other commands are its own.
  if (tool === 'lab')
    return words[1] === 'flow' ? undefined : 'lab: only `lab flow` is run on the kernel';
  if (!installed(tool)) return `${tool} is not installed here`;
  // IPv6 is off in the namespaces: addresses are compared for IPv4 only.
  if (tool === 'ip' && !/^ip (link|route|-4 addr)( \||$)/.test(command.trim()))
    return 'ip: only `ip link`, `ip route` and `ip -4 addr` are compared with the kernel';
  if (tool === 'sysctl') {
    for (const w of words.slice(1)) {
      if (w.startsWith('-')) continue;
      if (!PER_NETNS_SYSCTL.test(w.split('=')[0] ?? ''))
        throw new Error(`refusing to run "${command}": ${w} is not a per-namespace sysctl`);
    }
  }
  return undefined;
}

export interface RunOptions {
  /** Pin the kernel's load-balancing draws to the engine's (./pin-draw.ts). */
  readonly pinDraws?: boolean;
  /**
   * What `sleep N` does on the kernel (default: sleeps N seconds of real time). An experiment
   * may replace a long sleep by an honest shortcut, which its test documents.
   */
  readonly sleep?: (seconds: number, kernel: KernelSide) => Promise<RunResult>;
}

/** The kernel side of a run, for an experiment's own steps. */
export interface KernelSide {
  readonly lab: ClusterNetns;
  readonly flows: KernelFlows;
  readonly nsOf: (line: ScriptLine) => string;
  readonly line: ScriptLine;
  /** Brings what the engine changed so far (a sleep's pod kills…) to the namespaces now. */
  readonly follow: () => Promise<void>;
}

const realSleep = async (seconds: number): Promise<RunResult> => {
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return { stdout: '', stderr: '', exitCode: 0 };
};

/**
 * Runs the script on the engine and on the namespaces. A tcpdump line's capture starts before
 * the command that precedes it (./captures.ts); a `conntrack -E` line's listener before the
 * script's first line.
 */
export async function runBoth(
  e: Experiment,
  lab: ClusterNetns,
  world: World,
  opts: RunOptions = {},
): Promise<Step[]> {
  const lines = parseScript(e.script).lines;
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
  /** A run of ≥ 5 identical curls (no capture after it) goes to the kernel in one shell. */
  const runRepeated = (all: readonly ScriptLine[], i: number): RunResult[] => {
    const line = all[i]!;
    let n = 1;
    while (all[i + n]?.command === line.command && all[i + n]?.targetText === line.targetText) n++;
    if (n < 5 || !line.command.startsWith('curl ') || isCapture(all[i + n])) return [];
    return lab.runMany(nsOf(line), line.command, n);
  };
  const isEvents = (line: ScriptLine): boolean =>
    /^(conntrack (.* )?-E|xtables-monitor (.* )?(-t|--trace))( |$)/.test(line.command) &&
    engineOnlyReason(line.command) === undefined;
  let batched: RunResult[] = [];
  const steps: Step[] = [];
  let capture: Capture | undefined;
  const listeners = new Map<ScriptLine, Capture>();
  const flows = new KernelFlows();
  try {
    for (const line of lines.filter(isEvents))
      listeners.set(line, await startEventListener(nsOf(line), line.command));
    for (const [i, line] of lines.entries()) {
      const prompt = `${line.targetText}$ ${line.command}`;
      const marks = opts.pinDraws ? conntrackMarks(world) : undefined;
      const mine = runEngineLine(world, line);
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
      else {
        // A pinned line runs alone, not in a run of identical curls.
        const draws = batched.length === 0 && marks ? drawsSince(world, marks) : [];
        if (batched.length === 0 && draws.length === 0) batched = runRepeated(lines, i);
        const unpin = draws.map((d) => pinDraw(lab.nsOf({ kind: 'node', name: d.node })!, d));
        let real = batched.shift();
        try {
          const side: KernelSide = { lab, flows, nsOf, line, follow: () => lab.follow(world) };
          const listener = listeners.get(line);
          if (real !== undefined) {
            // One of a run of identical curls, run together.
          } else if (listener !== undefined) real = await stopEventListener(listener);
          else if (line.command.startsWith('lab flow '))
            real = await flows.run(nsOf(line), line.command);
          else if (line.command.startsWith('sleep '))
            real = await (opts.sleep ?? realSleep)(Number(line.command.split(/\s+/)[1]), side);
          // Every wait is bounded: curl without -m would wait for the kernel's 127 s of SYNs.
          else real = lab.run(nsOf(line), line.command, 40_000);
        } finally {
          for (const undo of unpin) undo();
        }
        steps.push({ line, prompt, engine: mine, real });
      }
      // What the command changed in the cluster (kubectl apply…) reaches the namespaces too.
      await lab.follow(world);
    }
  } finally {
    if (capture?.child.exitCode === null) capture.child.kill('SIGKILL');
    for (const l of listeners.values()) if (l.child.exitCode === null) l.child.kill('SIGKILL');
    flows.destroy();
  }
  return steps;
}

/**
 * Builds the experiment's cluster from namespaces, runs its script on both sides and removes
 * the namespaces again (also when something fails).
 */
export async function runExperiment(
  experiment: string | Experiment,
  opts: RunOptions = {},
): Promise<{ steps: Step[]; ctx: NormaliseContext }> {
  const e = typeof experiment === 'string' ? readExperiment(experiment) : experiment;
  const world = experimentWorld(e);
  const lab = await ClusterNetns.build(world);
  const before = normaliseContext(world.cluster);
  try {
    const steps = await runBoth(e, lab, world, opts);
    return { steps, ctx: mergeContexts(before, normaliseContext(world.cluster)) };
  } finally {
    lab.destroy();
  }
}
