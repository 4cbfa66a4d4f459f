/**
 * `npm run bench`: the engine's speed and memory at scale, printed as figures and ratios
 * measured in one run (this machine is shared and noisy: compare ratios, not absolutes).
 *
 *  1. kube-proxy full sync of 10,000 Services × 10 endpoints (rules generated + restored into
 *     the simulated kernel), and an incremental sync after one endpoint change;
 *  2. the whole CLI run (`kube-proxy-lab run` on a scenario, script `node-1$ iptables-save`:
 *     parse + sync + save, output discarded), for 1,000 and 10,000 Services, as a child
 *     process, with peak RSS;
 *  3. the real `iptables-restore` of the same rules for 1,000 Services in a throwaway
 *     network namespace, and the engine/kernel ratio;
 *  4. nftables mode for 10 … 10,000 Services (bench/nftables.ts);
 *  5. IPVS mode for 10 … 10,000 Services (bench/ipvs.ts).
 *  6. load distribution: 10,000 TCP connections (every packet through the kernels and socket
 *     layers) over 1,000 Services sharing 10 pods, the spread per pod, and the heap before,
 *     with the connections' entries live, and after they closed and expired (in a process of
 *     its own: connectionsInOwnProcess()); then the same run where the web lab runs the engine,
 *     a Web Worker in headless Chromium (connectionsInChromium()).
 *
 * BENCH_ONLY=sync runs section 1 alone (its figures are the noisiest: repeat them).
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { main } from '../src/cli/main';
import { connectionsInChromium, connectionsInOwnProcess } from './connections-process';
import { ipvsBench } from './ipvs';
import { machineLine } from './machine';
import { nftablesBench } from './nftables';
import { scaleBench } from './scale';
import {
  generateScaleScenario,
  loadScenario,
  runScript,
  World,
  type Cluster,
  type EndpointSlice,
} from '../src/engine';

const CLI = join(process.cwd(), 'bin', 'kube-proxy-lab.cjs');

function ms(t: number): string {
  return `${t.toFixed(1)} ms`;
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(0)} MiB`;
}

/** Wall time and CPU time (user + system, all threads: GC and compiler threads count) in ms. */
interface Took {
  readonly wall: number;
  readonly cpu: number;
}

function timed(fn: () => void): Took {
  const c = process.cpuUsage();
  const t = performance.now();
  fn();
  const wall = performance.now() - t;
  const d = process.cpuUsage(c);
  return { wall, cpu: (d.user + d.system) / 1000 };
}

function medianOf(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median wall and CPU of `runs` timings of fn (after one warm-up run), and the wall range. */
function median(runs: number, fn: () => void): Took & { min: number; max: number } {
  fn();
  const all: Took[] = [];
  for (let i = 0; i < runs; i++) all.push(timed(fn));
  const walls = all.map((x) => x.wall);
  return {
    wall: medianOf(walls),
    cpu: medianOf(all.map((x) => x.cpu)),
    min: Math.min(...walls),
    max: Math.max(...walls),
  };
}

function per(t: Took, n: number): Took {
  return { wall: t.wall / n, cpu: t.cpu / n };
}

/** A copy of the cluster where one endpoint of the first Service is no longer ready. */
function withOneEndpointChange(cluster: Cluster, flip: boolean): Cluster {
  const [first, ...rest] = cluster.endpointSlices;
  if (first === undefined) return cluster;
  const [ep, ...others] = first.endpoints;
  if (ep === undefined) return cluster;
  const changed: EndpointSlice = {
    ...first,
    endpoints: [{ ...ep, conditions: { ...ep.conditions, ready: !flip } }, ...others],
  };
  return { ...cluster, endpointSlices: [changed, ...rest] };
}

interface SyncFigures {
  readonly parse: Took;
  readonly firstFull: Took;
  readonly full: Took & { min: number; max: number };
  readonly incremental: Took & { min: number; max: number };
  /** The same once 30 more incremental syncs have run (JIT warm, the full syncs' garbage gone). */
  readonly incrementalSteady: Took & { min: number; max: number };
  readonly heap: number;
}

function syncFigures(services: number): SyncFigures {
  const text = generateScaleScenario(services);
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let cluster: Cluster | undefined;
  const parse = timed(() => {
    cluster = loadScenario(text).cluster;
  });
  if (cluster === undefined) throw new Error('no cluster');
  const loaded = cluster;
  let world: World | undefined;
  // Boots every node (a node boots when first looked at): kubelet's rules, then kube-proxy's
  // first (full) sync, cold caches.
  const first = timed(() => {
    world = new World(loaded);
    for (const name of world.kernels.keys()) world.kernel(name);
  });
  const w = world!;
  const nodes = w.kernels.size;
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const full = median(3, () => {
    w.kernels.forEach((k) => k.proxier.forceFullSync());
    w.setCluster({ ...loaded });
  });
  let flip = false;
  const oneChange = () => {
    flip = !flip;
    w.setCluster(withOneEndpointChange(loaded, flip));
  };
  const incremental = median(9, oneChange);
  for (let i = 0; i < 30; i++) oneChange();
  const steady = median(21, oneChange);
  return {
    parse,
    firstFull: per(first, nodes),
    full: { ...per(full, nodes), min: full.min / nodes, max: full.max / nodes },
    incremental: {
      ...per(incremental, nodes),
      min: incremental.min / nodes,
      max: incremental.max / nodes,
    },
    incrementalSteady: {
      ...per(steady, nodes),
      min: steady.min / nodes,
      max: steady.max / nodes,
    },
    heap,
  };
}

const SCRIPT = 'node-1$ iptables-save\n';

interface CliFigures {
  /** Wall times of the runs of `bin/kube-proxy-lab.cjs`, stdout to /dev/null, sorted. */
  readonly walls: readonly number[];
  /** The same with stdout to a pipe this process reads (fewer runs), sorted. */
  readonly piped: readonly number[];
  /** From a child that runs the same CLI in-process and reports on itself. */
  readonly cpu: number;
  readonly maxRss: number;
  /** Minor page faults of that child: fresh memory touched, slow on some virtual machines. */
  readonly faults: number;
  readonly phases: string;
}

/**
 * The CLI as a user runs it (`bin/kube-proxy-lab.cjs run FILE`, script on stdin), `runs` times,
 * for the wall time, with its output discarded (`> /dev/null`, as hyperfine times commands by
 * default); one more run, untimed, writes it to a file, which must hold every byte the
 * in-process run printed. Through a pipe into this process, the time also held this process
 * reading and decoding the output (33 MB for 10,000 Services) after the command had ended, on
 * a machine with two cores: those times are printed as well (`pipedRuns` runs). Then the same
 * run in a child that reports its own CPU time and peak RSS, and one that times the phases
 * (parse, node boot with kube-proxy's first sync, iptables-save).
 */
function cliRun(
  scenarioFile: string,
  runs: number,
  pipedRuns: number,
  before?: () => void,
): CliFigures {
  const options = { input: SCRIPT, encoding: 'utf8', maxBuffer: 1 << 30 } as const;
  const self = process.argv[1]!;
  const child = spawnSync(process.execPath, [self, '--child-cli', scenarioFile], options);
  const maxRss = Number(/maxRSS=(\d+)/.exec(child.stderr)?.[1] ?? 0) * 1024;
  const cpu = Number(/cpu=([\d.]+)/.exec(child.stderr)?.[1] ?? NaN);
  const saved = Number(/saved=(\d+)/.exec(child.stderr)?.[1] ?? NaN);
  const faults = Number(/faults=(\d+)/.exec(child.stderr)?.[1] ?? NaN);
  const runTo = (path: string): number => {
    const fd = openSync(path, 'w');
    try {
      const t = performance.now();
      const r = spawnSync(process.execPath, [CLI, 'run', scenarioFile], {
        ...options,
        stdio: ['pipe', fd, 'pipe'],
      });
      const wall = performance.now() - t;
      if (r.status !== 0) throw new Error(`CLI run failed: ${r.stderr.slice(0, 500)}`);
      return wall;
    } finally {
      closeSync(fd);
    }
  };
  const out = `${scenarioFile}.saved`;
  runTo(out);
  const size = statSync(out).size;
  if (size !== saved) throw new Error(`CLI run wrote ${size} bytes, not ${saved}`);
  const walls: number[] = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    walls.push(runTo('/dev/null'));
  }
  const piped: number[] = [];
  for (let i = 0; i < pipedRuns; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, [CLI, 'run', scenarioFile], options);
    piped.push(performance.now() - t);
    if (r.stdout.length !== saved) throw new Error('CLI run through a pipe printed other bytes');
  }
  const phases = spawnSync(process.execPath, [self, '--child-phases', scenarioFile], options);
  return {
    walls: walls.sort((a, b) => a - b),
    piped: piped.sort((a, b) => a - b),
    cpu,
    maxRss,
    faults,
    phases: phases.stdout.trimEnd(),
  };
}

/** Inside the child: run the CLI in-process and report its CPU time and peak RSS on stderr. */
async function childCli(scenarioFile: string): Promise<void> {
  const c = process.cpuUsage();
  let bytes = 0;
  const status = await main(['run', scenarioFile], {
    stdout: (t) => {
      bytes += t.length;
    },
    stderr: (t) => process.stderr.write(t),
    readFile: (p) => readFileSync(p, 'utf8'),
    readStdin: () => SCRIPT,
  });
  const d = process.cpuUsage(c);
  const cpu = (d.user + d.system) / 1000;
  const usage = process.resourceUsage();
  process.stderr.write(
    `saved=${bytes} cpu=${cpu} maxRSS=${usage.maxRSS} faults=${usage.minorPageFault}\n`,
  );
  process.exitCode = status;
}

/** Inside the child: the CLI's phases one by one, wall and CPU time each. */
function childPhases(scenarioFile: string): void {
  const text = readFileSync(scenarioFile, 'utf8');
  let world: World | undefined;
  const parse = timed(() => {
    world = World.fromScenario(text).world;
  });
  const boot = timed(() => world?.kernel('node-1'));
  let saved = 0;
  const save = timed(() => {
    runScript(world!, SCRIPT, {
      readFile: () => undefined,
      onOutput: (_l, r) => {
        saved += r.stdout.length;
      },
    });
  });
  const f = (t: Took): string => `${t.wall.toFixed(0)} ms (cpu ${t.cpu.toFixed(0)})`;
  console.log(
    `      phases: parse ${f(parse)}, node-1 boot + first sync ${f(boot)}, iptables-save ${f(save)} (${saved} bytes)`,
  );
}

/**
 * The real iptables-restore of the node's restore input, one run at a time, each into a new
 * throwaway namespace (an empty ruleset, as at kube-proxy's first sync). The CLI's runs of
 * the same 1,000 Services alternate with these (cliRun's `before`): a neighbour that slows
 * the machine for a while slows both sides of the ratio, not one. The ratio divides the CLI's
 * median by these runs' median, so both sides of it are medians.
 */
class RealRestore {
  readonly walls: number[] = [];
  skipped: string | undefined;

  constructor(private readonly restoreInput: string) {
    if (process.getuid?.() !== 0) this.skipped = 'skipped: not root';
    else if (spawnSync('iptables-restore', ['--version']).status !== 0)
      this.skipped = 'skipped: iptables-restore is not installed (Debian package iptables; `npm test` installs it)'; // prettier-ignore
  }

  /** One more run, unless a run failed or the tool is missing. */
  runOnce(): void {
    if (this.skipped !== undefined) return;
    const took = restoreOnce(this.restoreInput, `kpl-bench-${process.pid}-${this.walls.length}`);
    if (typeof took === 'string') this.skipped = took;
    else this.walls.push(took);
  }

  /** The wall times, sorted, or why there are none. */
  result(): number[] | string {
    return this.skipped ?? [...this.walls].sort((a, b) => a - b);
  }
}

function restoreOnce(restoreInput: string, ns: string): number | string {
  if (spawnSync('ip', ['netns', 'add', ns]).status !== 0) return 'skipped: cannot create a netns';
  try {
    for (const name of ['ct_state_invalid_dropped_pkts', 'localhost_nps_accepted_pkts']) {
      spawnSync('ip', ['netns', 'exec', ns, 'nfacct', 'add', name]);
    }
    const t = performance.now();
    const r = spawnSync(
      'ip',
      ['netns', 'exec', ns, 'iptables-restore', '--noflush', '--counters'],
      {
        input: restoreInput,
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    const took = performance.now() - t;
    if (r.status !== 0) return `failed: ${r.stderr.slice(0, 200)}`;
    return took;
  } finally {
    spawnSync('ip', ['netns', 'del', ns]);
  }
}

function verdict(value: number, target: number, unit: string): string {
  const ok = value <= target;
  const by = ok ? '' : ` (over by ${(value - target).toFixed(unit === '' ? 3 : 1)}${unit})`;
  return `target ≤ ${target}${unit}   ${ok ? 'PASS' : 'MISS'}${by}`;
}

function row(label: string, t: Took, range?: { min: number; max: number }): string {
  const r = range === undefined ? '' : ` [${range.min.toFixed(1)}–${range.max.toFixed(1)}]`;
  return `  ${label.padEnd(42)}${ms(t.wall).padStart(10)}${r}  cpu ${ms(t.cpu)}`;
}

async function bench(): Promise<void> {
  const runs = Number(process.env.BENCH_CLI_RUNS ?? 5);
  console.log('kube-proxy-lab benchmark (iptables mode; figures per node; medians)');
  console.log('wall time (median [min–max]) and CPU time (user + system, every thread)');
  console.log(`${machineLine()}\n`);
  const s10k = syncFigures(10_000);
  console.log('kube-proxy sync, 10,000 Services × 10 endpoints (per node)');
  console.log(row('scenario parse (12 MB of YAML)', s10k.parse));
  console.log(row('first full sync, cold (rules + restore)', s10k.firstFull));
  console.log(row('full sync, warm (forced resync)', s10k.full, s10k.full));
  console.log(row('incremental, one endpoint changed', s10k.incremental, s10k.incremental));
  console.log(row('  the same, after 40 incremental syncs', s10k.incrementalSteady, s10k.incrementalSteady)); // prettier-ignore
  console.log(`  heap held by the cluster and both nodes   ${mib(s10k.heap)}\n`);

  // BENCH_ONLY=sync: only the figures above (to repeat the noisy sync figures on their own).
  if (process.env.BENCH_ONLY === 'sync') return;
  const load = connectionsInOwnProcess();
  const browserLoad = connectionsInChromium(load.perPod);

  const dir = mkdtempSync(join(tmpdir(), 'kpl-bench-'));
  const cli: Record<number, CliFigures> = {};
  let real: number[] | string | undefined;
  try {
    console.log(
      `whole CLI run: parse + sync + iptables-save (fresh process, ${runs} runs, output discarded)`,
    );
    console.log(
      '  (`node bin/kube-proxy-lab.cjs run FILE > /dev/null`, as `npx kube-proxy-lab` starts it; the command sets V8 --no-turbo-inlining itself and loads the bundle with the V8 code cache `npm ci` made; cpu, peak RSS and the phases come from in-process runs with V8 defaults)',
    );
    const { world } = World.fromScenario(generateScaleScenario(1_000));
    const restore = new RealRestore(world.kernel('node-1')?.lastSync?.restoreInput ?? '');
    for (const n of [1_000, 10_000]) {
      const file = join(dir, `scale-${n}.yaml`);
      writeFileSync(file, generateScaleScenario(n));
      const c = cliRun(file, runs, 3, n === 1_000 ? () => restore.runOnce() : undefined);
      cli[n] = c;
      const range = `[${c.walls[0]!.toFixed(0)}–${c.walls[c.walls.length - 1]!.toFixed(0)}]`;
      console.log(
        `  ${String(n).padStart(6)} Services   ${ms(medianOf(c.walls))} ${range}   cpu ${ms(c.cpu)}   peak RSS ${mib(c.maxRss)}, ${c.faults} page faults`,
      );
      console.log(c.phases);
      console.log(`      stdout to a pipe this process reads (and decodes) instead: ${c.piped.map((w) => w.toFixed(0)).join(', ')} ms`); // prettier-ignore
    }
    real = restore.result();
    console.log(
      `\nreal iptables-restore of the same 1,000-Service rules (nf_tables, a new throwaway netns each, ${runs} runs, each just before one of the CLI's 1,000-Service runs)`,
    );
    console.log(
      `  iptables-restore   ${typeof real === 'string' ? real : `${ms(medianOf(real))} [${real.map((w) => w.toFixed(0)).join(', ')}]`}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const cli10k = medianOf(cli[10_000]!.walls);
  console.log('\ntargets (issue 2 §7)');
  console.log(`  full sync 10k×10          ${ms(s10k.full.wall).padStart(10)}   ${verdict(s10k.full.wall, 1000, ' ms')}`); // prettier-ignore
  console.log(`  incremental sync          ${ms(s10k.incremental.wall).padStart(10)}   ${verdict(s10k.incremental.wall, 10, ' ms')}   (after 40 syncs: ${ms(s10k.incrementalSteady.wall)})`); // prettier-ignore
  console.log(`  whole CLI run, 10k        ${ms(cli10k).padStart(10)}   ${verdict(cli10k, 5000, ' ms')}`); // prettier-ignore
  if (Array.isArray(real)) {
    const ratio = medianOf(cli[1_000]!.walls) / medianOf(real);
    console.log(`  CLI 1k / iptables-restore ${ratio.toFixed(3).padStart(10)}   ${verdict(ratio, 0.1, '')}`); // prettier-ignore
  } else console.log(`  CLI 1k / iptables-restore   ${real ?? 'not run'}`);
  console.log('targets (issue 3)');
  console.log(`  10,000 connections        ${ms(load.ms).padStart(10)}   ${verdict(load.ms, 1000, ' ms')}   (Node ${process.version}: median of the fresh processes; cpu ${ms(load.cpu)})`); // prettier-ignore
  if ('median' in browserLoad)
    console.log(`    the same, web lab's host ${ms(browserLoad.median.ms).padStart(10)}   ${verdict(browserLoad.median.ms, 1000, ' ms')}   (a Web Worker in headless Chromium: median of new pages)`); // prettier-ignore
  else console.log(`    the same, web lab's host   ${browserLoad.skipped}`);
  console.log(`  heap after expiry − before ${mib(load.heapGrowth)} (trace, capture and event rings, bounded)`); // prettier-ignore

  nftablesBench();
  ipvsBench();
  scaleBench();
}

const childIndex = process.argv.indexOf('--child-cli');
const phasesIndex = process.argv.indexOf('--child-phases');
if (childIndex >= 0) await childCli(process.argv[childIndex + 1]!);
else if (phasesIndex >= 0) childPhases(process.argv[phasesIndex + 1]!);
else await bench();
