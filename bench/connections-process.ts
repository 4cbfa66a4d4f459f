import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

interface LoadResult {
  readonly ms: number;
  readonly cpu: number;
  readonly heapGrowth: number;
  /** Answers per pod, in the order the pods first answered. */
  readonly perPod: readonly number[];
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

interface BrowserRun {
  readonly ms: number;
  readonly firstThousandMs: number;
  readonly perPod: readonly number[];
  readonly failed: number;
}

/** The median run in the web lab's engine host, or why there is none. */
export type BrowserLoad = { readonly median: BrowserRun } | { readonly skipped: string };

/**
 * The same 10,000 connections in a Web Worker of headless Chromium, where the web lab runs the
 * engine (scripts/bench-load-browser.mjs: a new page, so a new isolate and a cold JIT, per run).
 * Prints the runs and whether they gave the Node run's spread per pod (`nodePerPod`): the same
 * engine and seed must, or the two runs did not do the same work.
 */
export function connectionsInChromium(
  nodePerPod: readonly number[],
  runs = Number(process.env.BENCH_LOAD_RUNS ?? 3),
): BrowserLoad {
  const script = join(process.cwd(), 'scripts', 'bench-load-browser.mjs');
  const r = spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    env: { ...process.env, RUNS: String(Math.max(1, runs)) },
    timeout: 300_000,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('BENCH-BROWSER '));
  if (r.status !== 0 || line === undefined)
    return { skipped: `the browser run failed: ${(r.stderr || r.stdout).slice(0, 300)}` };
  const result = JSON.parse(line.slice('BENCH-BROWSER '.length)) as
    { browser: string; runs: BrowserRun[] } | { skipped: string };
  if ('skipped' in result) return result;
  const sorted = [...result.runs].sort((a, b) => a.ms - b.ms);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const same = result.runs.every(
    (run) => run.failed === 0 && JSON.stringify(run.perPod) === JSON.stringify(nodePerPod),
  );
  console.log(
    `the same 10,000 connections where the web lab runs the engine: a Web Worker in headless ${result.browser} (a new page, so a cold JIT, each run)`,
  );
  console.log(
    `  ${result.runs.map((run) => run.ms.toFixed(1)).join(', ')} ms; median ${median.ms.toFixed(1)} ms, its first 1,000 ${median.firstThousandMs.toFixed(1)} ms`,
  );
  console.log(
    `  per pod ${same ? 'the same as in Node (same engine, same seed)' : `NOT the same as in Node: ${JSON.stringify(result.runs.map((run) => run.perPod))} against ${JSON.stringify(nodePerPod)}`}\n`,
  );
  if (!same) throw new Error("the browser run did not give the Node run's spread per pod");
  return { median };
}
