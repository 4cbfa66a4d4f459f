/**
 * The lab's `clear` against the real one (ncurses 6.4, Debian 12's ncurses-bin) on this
 * machine, with TERM=xterm-256color as in the lab's terminal: the same bytes on stdout (the
 * escape sequences that clear the screen and the scrollback), the same messages and status for
 * each option, bad option and operand.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createStandardRegistry } from '../../src/engine/commands';
import { runCommandLine } from '../../src/engine/commands/shell-run';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { hostView } from '../../src/engine/sim/host-view';
import { World } from '../../src/engine/sim/world';

const CASES = [[], ['-x'], ['-V'], ['-xV'], ['-V', '-z'], ['-z'], ['foo'], ['-x', 'foo'], ['-T'], ['-T', 'xterm'], ['-Txterm-256color'], ['-T', 'vt100', '-x'], ['--'], ['--', 'a']]; // prettier-ignore

const missing = spawnSync('sh', ['-c', 'command -v clear']).status !== 0;

function lab(args: readonly string[]) {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const view = hostView(world, { kind: 'node', name: 'node-1' }, () => undefined);
  const line = ['clear', ...args.map((a) => `'${a}'`)].join(' ');
  const r = runCommandLine(createStandardRegistry(), { world: view }, line);
  return { stdout: r.stdout, stderr: r.stderr, status: r.exitCode };
}

function real(args: readonly string[]) {
  const r = spawnSync('clear', args, {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, TERM: 'xterm-256color' },
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe.skipIf(missing)('clear, lab vs ncurses 6.4 (TERM=xterm-256color)', () => {
  it.each(CASES.map((args) => [args.join(' ') || '(no arguments)', args] as const))(
    'clear %s',
    (_name, args) => {
      expect(lab(args)).toEqual(real(args));
    },
  );
});

describe('clear in the lab', () => {
  it('writes ESC[H ESC[2J ESC[3J: cursor home, screen erased, scrollback erased', () => {
    expect(lab([]).stdout).toBe('\x1b[H\x1b[2J\x1b[3J');
  });
});
