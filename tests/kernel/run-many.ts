/**
 * A run of the same simple command, n times in a row in one shell (a run of identical curls:
 * one `ip netns exec` instead of n), each bounded by `timeout`; one result per run.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from './netns';

export function runRepeatedCommand(
  run: (line: string, timeoutMs: number) => RunResult,
  command: string,
  n: number,
  timeoutSeconds: number,
): RunResult[] {
  const dir = mkdtempSync(join(tmpdir(), 'kpl-run-'));
  try {
    const loop =
      `i=0; while [ $i -lt ${n} ]; do i=$((i+1)); ` +
      `timeout ${timeoutSeconds} ${command} >"${dir}/o$i" 2>"${dir}/e$i"; echo $? >"${dir}/r$i"; done`;
    const r = run(loop, Math.min(n * timeoutSeconds * 1000, 600_000));
    if (r.exitCode !== 0) throw new Error(`${n} x ${command}: ${r.stderr}`);
    return Array.from({ length: n }, (_, k) => ({
      stdout: readFileSync(join(dir, `o${k + 1}`), 'utf8'),
      stderr: readFileSync(join(dir, `e${k + 1}`), 'utf8'),
      exitCode: Number(readFileSync(join(dir, `r${k + 1}`), 'utf8')),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
