/**
 * `npm run bench`: the engine's speed and memory at scale, printed as figures and ratios
 * measured in one run (this machine is shared and noisy: compare ratios, not absolutes).
 *
 *  1. kube-proxy full sync of 10,000 Services × 10 endpoints (rules generated + restored into
 *     the simulated kernel), and an incremental sync after one endpoint change;
 *  2. the whole CLI run (`kube-proxy-lab run` on a scenario, script `node-1$ iptables-save`:
 *     parse + sync + save), for 1,000 and 10,000 Services, as a child process, with peak RSS;
 *  3. the real `iptables-restore` of the same rules for 1,000 Services in a throwaway
 *     network namespace, and the engine/kernel ratio;
 *  4. load distribution: 10,000 TCP connections (every packet through the kernels and socket
 *     layers) over 1,000 Services sharing 10 pods, the spread per pod, and the heap before,
 *     with the connections' entries live, and after they closed and expired.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { main } from '../src/cli/main';
import {
  flowControls,
  generateLoadScenario,
  generateScaleScenario,
  hostView,
  loadScenario,
  loadServiceIP,
  setTraceDetail,
  World,
  type Cluster,
  type EndpointSlice,
} from '../src/engine';

const CLI = join(process.cwd(), 'bin', 'kube-proxy-lab.mjs');

function ms(t: number): string {
  return `${t.toFixed(1)} ms`;
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(0)} MiB`;
}

/** Median of `runs` timings of fn (after one warm-up run). */
function median(runs: number, fn: () => void): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
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
  readonly parse: number;
  readonly firstFull: number;
  readonly full: number;
  readonly incremental: number;
  readonly heap: number;
}

function syncFigures(services: number): SyncFigures {
  const text = generateScaleScenario(services);
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let t = performance.now();
  const { cluster } = loadScenario(text);
  const parse = performance.now() - t;
  t = performance.now();
  // Boots every node (a node boots when first looked at): kubelet's rules, then kube-proxy's
  // first (full) sync, cold caches.
  const world = new World(cluster);
  const nodes = world.kernels.size;
  const firstFull = (performance.now() - t) / nodes;
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const full = median(3, () => {
    world.kernels.forEach((k) => k.proxier.forceFullSync());
    world.setCluster({ ...cluster });
  });
  let flip = false;
  const incremental = median(9, () => {
    flip = !flip;
    world.setCluster(withOneEndpointChange(cluster, flip));
  });
  return {
    parse,
    firstFull,
    full: full / world.kernels.size,
    incremental: incremental / world.kernels.size,
    heap,
  };
}

/**
 * The CLI as a user runs it (`bin/kube-proxy-lab.mjs run FILE`, script on stdin) for the wall
 * time; the same run in a child that reports its own peak RSS for the memory figure.
 */
function cliRun(scenarioFile: string): { wall: number; maxRss: number } {
  const options = {
    input: 'node-1$ iptables-save\n',
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  } as const;
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'run', scenarioFile], options);
  const wall = performance.now() - t;
  if (r.status !== 0) throw new Error(`CLI run failed: ${r.stderr.slice(0, 500)}`);
  const child = spawnSync(
    process.execPath,
    [process.argv[1]!, '--child-cli', scenarioFile],
    options,
  );
  const maxRss = Number(/maxRSS=(\d+)/.exec(child.stderr)?.[1] ?? 0) * 1024;
  return { wall, maxRss };
}

/** Inside the child: run the CLI in-process and report its peak RSS on stderr. */
async function childCli(scenarioFile: string): Promise<void> {
  let bytes = 0;
  const status = await main(['run', scenarioFile], {
    stdout: (t) => {
      bytes += t.length;
    },
    stderr: (t) => process.stderr.write(t),
    readFile: (p) => readFileSync(p, 'utf8'),
    readStdin: () => 'node-1$ iptables-save\n',
  });
  process.stderr.write(`saved=${bytes} maxRSS=${process.resourceUsage().maxRSS}\n`);
  process.exitCode = status;
}

interface LoadFigures {
  readonly ms: number;
  readonly perPod: readonly number[];
  readonly failed: number;
}

/**
 * Load distribution at scale: `count` TCP connections from the client pod, each to one of the
 * 1,000 Services in turn (open, one HTTP request, close), every packet through the nodes'
 * kernels (bridge, iptables, conntrack, NAT) and the pods' socket layers. The trace keeps no
 * per-rule steps (a bulk run: nobody animates 10,000 walks of KUBE-SERVICES).
 */
function loadBatch(world: World, services: number, count: number, start: number): LoadFigures {
  const client = flowControls(world, { kind: 'pod', namespace: 'default', name: 'client' });
  const perPod = new Map<string, number>();
  let failed = 0;
  const t = performance.now();
  for (let i = 0; i < count; i++) {
    const name = `c${start + i}`;
    const opened = client.open(name, 'tcp', loadServiceIP((start + i) % services), 80);
    const answer = opened.ok ? client.send(name, undefined, 1000) : opened;
    const pod = answer.ok ? /^(\S+) /.exec(answer.text)?.[1] : undefined;
    if (pod === undefined) failed++;
    else perPod.set(pod, (perPod.get(pod) ?? 0) + 1);
    if (opened.ok) client.close(name);
  }
  return { ms: performance.now() - t, perPod: [...perPod.values()], failed };
}

function heapNow(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}

function connectionFigures(services: number, count: number) {
  const { world } = World.fromScenario(generateLoadScenario(services, 10));
  const node = hostView(world, { kind: 'node', name: 'node-1' }, () => undefined);
  world.kernel('node-1');
  world.kernel('node-2');
  setTraceDetail(world, 'none');
  const heapStart = heapNow();
  const first = loadBatch(world, services, count, 0);
  const liveEntries = node.nodeKernel()?.conntrack.count ?? 0;
  const heapLive = heapNow();
  // TIME_WAIT: 60 s for the sockets, 120 s for conntrack; then everything has expired.
  node.advanceClock(180_000);
  const heapExpired = heapNow();
  const expiredEntries = node.nodeKernel()?.conntrack.count ?? 0;
  // A second, shorter run: what stays after it has expired must not have grown.
  const second = loadBatch(world, services, count / 5, count);
  node.advanceClock(180_000);
  const heapExpired2 = heapNow();
  return {
    first,
    second,
    liveEntries,
    expiredEntries,
    heapStart,
    heapLive,
    heapExpired,
    heapExpired2,
  };
}

/** Times the real iptables-restore of the node's restore input in a throwaway namespace. */
function realRestore(restoreInput: string): number | string {
  if (process.getuid?.() !== 0) return 'skipped: not root';
  const ns = `kpl-bench-${process.pid}`;
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

async function bench(): Promise<void> {
  console.log('kube-proxy-lab benchmark (iptables mode; figures per node; medians)\n');
  const s10k = syncFigures(10_000);
  console.log('kube-proxy sync, 10,000 Services × 10 endpoints (per node)');
  console.log(`  scenario parse (12 MB of YAML)            ${ms(s10k.parse)}`);
  console.log(`  first full sync, cold (rules + restore)   ${ms(s10k.firstFull)}`);
  console.log(`  full sync, warm (forced resync)           ${ms(s10k.full)}   target ≤ 1000 ms`);
  console.log(
    `  incremental, one endpoint changed         ${ms(s10k.incremental)}   target ≤ 10 ms`,
  );
  console.log(`  heap held by the cluster and both nodes   ${mib(s10k.heap)}\n`);

  const conns = 10_000;
  const c = connectionFigures(1_000, conns);
  const spread = (f: LoadFigures) => {
    const mean = f.perPod.reduce((a, b) => a + b, 0) / 10;
    const chi2 = f.perPod.reduce((a, n) => a + (n - mean) ** 2 / mean, 0);
    return `per pod ${Math.min(...f.perPod)}..${Math.max(...f.perPod)} (expected ${mean}), chi² ${chi2.toFixed(1)} (9 d.f.)`;
  };
  console.log('load distribution, 1,000 Services × the same 10 pods, TCP connections from one pod');
  console.log(`  10,000 connections (open, GET, close)    ${ms(c.first.ms)}   target ≤ 1000 ms`);
  console.log(`    ${spread(c.first)}, ${c.first.failed} failed`);
  console.log(`  2,000 more, after the first expired      ${ms(c.second.ms)}`);
  console.log(`    ${spread(c.second)}, ${c.second.failed} failed`);
  console.log(`  conntrack entries: after run 1 ${c.liveEntries}, 180 s later ${c.expiredEntries}`);
  console.log(
    `  heap: before ${mib(c.heapStart)}, after 10,000 ${mib(c.heapLive)}, expired ${mib(c.heapExpired)}; after 2,000 more, expired ${mib(c.heapExpired2)}\n`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'kpl-bench-'));
  try {
    console.log('whole CLI run: parse + sync + iptables-save (fresh process)');
    const cli: Record<number, number> = {};
    for (const n of [1_000, 10_000]) {
      const file = join(dir, `scale-${n}.yaml`);
      writeFileSync(file, generateScaleScenario(n));
      const { wall, maxRss } = cliRun(file);
      cli[n] = wall;
      const target = n === 10_000 ? '   target ≤ 5000 ms' : '';
      console.log(
        `  ${String(n).padStart(6)} Services   ${ms(wall)}   peak RSS ${mib(maxRss)}${target}`,
      );
    }
    const { world } = World.fromScenario(generateScaleScenario(1_000));
    const input = world.kernel('node-1')?.lastSync?.restoreInput ?? '';
    const real = realRestore(input);
    console.log(
      '\nreal iptables-restore of the same 1,000-Service rules (nf_tables, throwaway netns)',
    );
    if (typeof real === 'string') console.log(`  ${real}`);
    else {
      console.log(`  iptables-restore                   ${ms(real)}`);
      console.log(
        `  ratio engine whole run / kernel restore = ${(cli[1_000]! / real).toFixed(3)}   target ≤ 0.1`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const childIndex = process.argv.indexOf('--child-cli');
if (childIndex >= 0) await childCli(process.argv[childIndex + 1]!);
else await bench();
