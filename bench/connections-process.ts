import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

interface LoadResult {
  readonly ms: number;
  readonly cpu: number;
  readonly heapGrowth: number;
}

/** One run of the section in a fresh process: its printed lines and its figures. */
function runOnce(): { printed: string; result: LoadResult } {
  const script = join(process.cwd(), 'dist-cli', 'bench-connections.mjs');
  const r = spawnSync(process.execPath, ['--expose-gc', script], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_RESULT: '1' },
    maxBuffer: 1 << 26,
  });
  const lines = r.stdout.split('\n');
  const result = lines.find((l) => l.startsWith('BENCH-RESULT '));
  if (r.status !== 0 || result === undefined)
    throw new Error(`load-distribution section failed: ${r.stderr.slice(0, 500)}`);
  return {
    printed: lines.filter((l) => l !== result).join('\n'),
    result: JSON.parse(result.slice('BENCH-RESULT '.length)) as LoadResult,
  };
}

/**
 * The load-distribution section (bench/connections.ts) in a process of its own, as
 * `node --expose-gc dist-cli/bench-connections.mjs` runs it: in this one, the 10,000-Service
 * section before it leaves the module-level parse caches full (~220 MiB that a process running
 * only the load experiment would never hold), and the old generation they make must be marked
 * by every full collection during the 10,000 connections.
 *
 * `runs` fresh processes (BENCH_LOAD_RUNS, default 3), as the CLI figures are taken: one run on
 * this shared machine moves by 10–30 % with its neighbours. The first run's section is printed
 * (every run prints the same spread, entries and heap figures; only the times differ), then the
 * times of all runs; the figures returned are the median run's (time, CPU) and the largest heap
 * growth.
 */
export function connectionsInOwnProcess(
  runs = Number(process.env.BENCH_LOAD_RUNS ?? 3),
): LoadResult {
  const done = Array.from({ length: Math.max(1, runs) }, runOnce);
  process.stdout.write(done[0]!.printed);
  const byTime = done.map((d) => d.result).sort((a, b) => a.ms - b.ms);
  const median = byTime[Math.floor(byTime.length / 2)]!;
  const times = done.map((d) => d.result.ms.toFixed(1)).join(', ');
  console.log(
    `  the same run in ${done.length} fresh processes (the first is the one above): ${times} ms; median ${median.ms.toFixed(1)} ms (cpu ${median.cpu.toFixed(1)} ms)\n`,
  );
  return { ...median, heapGrowth: Math.max(...byTime.map((r) => r.heapGrowth)) };
}
