import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The load-distribution section (bench/connections.ts) in a process of its own, as
 * `node --expose-gc dist-cli/bench-connections.mjs` runs it: in this one, the 10,000-Service
 * section before it leaves the module-level parse caches full (~220 MiB that a process running
 * only the load experiment would never hold), and the old generation they make must be marked
 * by every full collection during the 10,000 connections.
 */
export function connectionsInOwnProcess(): { ms: number; cpu: number; heapGrowth: number } {
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
  process.stdout.write(lines.filter((l) => l !== result).join('\n'));
  return JSON.parse(result.slice('BENCH-RESULT '.length)) as {
    ms: number;
    cpu: number;
    heapGrowth: number;
  };
}
