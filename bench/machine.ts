/**
 * What the machine gives, printed at the top of `npm run bench`: the same code measures very
 * differently on two machines of the same size (one session's 2-core machine ran every figure
 * 1.25–1.6× slower than the last one's), so the bench prints two reference figures beside the
 * CPU's name, and figures from different runs are compared through them:
 *
 * - a fixed JavaScript workload (integer arithmetic, small objects, Map lookups by string),
 *   which follows the CPU and V8;
 * - how fast fresh memory is written: a new 64 MiB buffer, first touch of every page. The large
 *   runs (10,000 Services, a 600 MiB heap) spend a fifth of their CPU time in the kernel,
 *   mostly in page faults, and a virtual machine can make those slow.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A fixed workload; the result is returned so that V8 cannot drop it. */
function referenceWork(): number {
  const names = new Map<string, number>();
  for (let i = 0; i < 20_000; i++) names.set(`KUBE-SEP-${i.toString(36).toUpperCase()}`, i);
  let sum = 0;
  for (let round = 0; round < 150; round++) {
    for (let i = 0; i < 20_000; i++) {
      const o = { a: i, b: round, c: (i * 2654435761) >>> 0 };
      sum = (sum + o.c + (names.get(`KUBE-SEP-${(i % 997).toString(36).toUpperCase()}`) ?? 0)) | 0;
    }
  }
  return sum;
}

function timeOf(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/**
 * How long Node itself takes to start and stop (`node -e 0`), median of five: every CLI run
 * pays it before the CLI's first line runs. When the environment sets NODE_EXTRA_CA_CERTS
 * (this kind of machine does, for a proxy's certificate authority), Node reads and parses
 * every certificate it names at start-up, though the CLI makes no network request; the
 * figure without it is printed beside, so that runs on machines with and without it compare.
 */
function nodeStartLine(): string {
  const startOf = (env: NodeJS.ProcessEnv): number =>
    median(
      [0, 1, 2, 3, 4].map(() => timeOf(() => spawnSync(process.execPath, ['-e', '0'], { env }))),
    );
  const start = startOf(process.env);
  const certs = process.env.NODE_EXTRA_CA_CERTS;
  if (certs === undefined || certs === '')
    return `Node's own start (\`node -e 0\`) ${start.toFixed(0)} ms`;
  const { NODE_EXTRA_CA_CERTS: _unused, ...without } = process.env;
  return (
    `Node's own start (\`node -e 0\`) ${start.toFixed(0)} ms, ${startOf(without).toFixed(0)} ms ` +
    'without the NODE_EXTRA_CA_CERTS this environment sets (every CLI run pays the first)'
  );
}

/** CPU, cores, Node, the two reference figures (medians of three), and Node's own start. */
export function machineLine(): string {
  const cores = cpus();
  const js = median([0, 1, 2].map(() => timeOf(referenceWork)));
  const mibPerS = median(
    [0, 1, 2].map(() => 64 / (timeOf(() => Buffer.alloc(64 << 20, 1)) / 1000)),
  );
  return (
    `machine: ${cores[0]?.model.trim() ?? 'unknown CPU'} × ${cores.length}, Node ${process.version}; ` +
    `reference JS workload ${js.toFixed(0)} ms, fresh memory written at ${mibPerS.toFixed(0)} MiB/s ` +
    '(compare runs on different machines through these)\n' +
    nodeStartLine()
  );
}
