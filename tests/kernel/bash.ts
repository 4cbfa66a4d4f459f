/**
 * Runs a command line through the lab shell (node-1's terminal on the built-in scenario) and
 * through the real bash 5.2 of this machine, for tests that compare the two. bash runs as a
 * terminal's shell does — interactive (`-i`: an expansion error drops the rest of the line with
 * status 1, and messages carry no `line 1:`), without rc files or job control — in the C.UTF-8
 * locale the lab's tools claim (text-tools.ts) and a clean environment, so no variable of the
 * test run leaks in. bash needs no namespace.
 */
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { createStandardRegistry } from '../../src/engine/commands';
import { runCommandLine } from '../../src/engine/commands/shell-run';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { hostView } from '../../src/engine/sim/host-view';
import { World } from '../../src/engine/sim/world';

const ENV = {
  LC_ALL: 'C.UTF-8',
  HOME: '/root',
  USER: 'root',
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HISTFILE: '/dev/null',
};

/** What an interactive bash without a terminal says first, before running anything. */
const NO_TERMINAL =
  /^bash: cannot set terminal process group \(\d+\): Inappropriate ioctl for device\nbash: no job control in this shell\n/;

export const bashInstalled = spawnSync('bash', ['-c', 'true']).status === 0;

/** The line run by the lab shell on node-1 of a fresh built-in cluster. */
export function labShell(text: string) {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const view = hostView(world, { kind: 'node', name: 'node-1' }, () => undefined);
  return runCommandLine(createStandardRegistry(), { world: view }, text);
}

/** Expects the same stdout, stderr and exit status from the lab shell as from bash. */
export function expectSameAsBash(text: string): void {
  const real = spawnSync('bash', ['--norc', '--noprofile', '+m', '-i', '-c', text], {
    encoding: 'utf8',
    env: ENV,
    timeout: 5000,
  });
  const mine = labShell(text);
  expect({ stdout: mine.stdout, stderr: mine.stderr, status: mine.exitCode }).toEqual({
    stdout: real.stdout,
    stderr: real.stderr.replace(NO_TERMINAL, ''),
    status: real.status,
  });
}
