/**
 * The lab's awk against the real mawk 1.3.4 20200120 (Debian 12's /usr/bin/awk), run on this
 * machine with the same program and input: same stdout, same stderr, same exit status. The
 * inputs are what a learner pipes into awk on a node: the lab's own `iptables-save -t nat`
 * and `conntrack -L` output, and a small table. The cases cover arrays and the order
 * `for (k in a)` visits them (mawk's hash table, split arrays, tables that double, deletes),
 * loops, user functions, the string functions, field and NF assignment, number formatting
 * (CONVFMT/OFMT), uninitialized values, mawk's regexes, getline from the input, output to
 * /dev/stderr, exit, and mawk's compile-time and run-time error messages.
 */
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createStandardRegistry } from '../../src/engine/commands';
import { runCommandLine } from '../../src/engine/commands/shell-run';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { hostView } from '../../src/engine/sim/host-view';
import { World } from '../../src/engine/sim/world';
import { runLine } from '../helpers/run-line';
import { awkCases } from './awk-mawk-cases';

const isMawk = spawnSync('awk', ['-W', 'version'], { encoding: 'utf8' }).stdout?.startsWith('mawk 1.3.4 20200120') === true; // prettier-ignore

/** The lab's answer to `line` on node-1 with `input` on its standard input. */
function lab(line: string, input: string) {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const view = hostView(world, { kind: 'node', name: 'node-1' }, (p) =>
    p === 'input.txt' ? input : undefined,
  );
  return runCommandLine(createStandardRegistry(), { world: view }, `${line} < input.txt`);
}

function compare(line: string, input: string) {
  // sh (dash): a plain bash -c may read ~/.bashrc when it guesses it runs under sshd.
  const real = spawnSync('sh', ['-c', line], {
    encoding: 'utf8',
    input,
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
    cwd: tmpdir(),
    timeout: 5000,
  });
  const mine = lab(line, input);
  expect({ stdout: mine.stdout, stderr: mine.stderr, status: mine.exitCode }).toEqual({
    stdout: real.stdout,
    stderr: real.stderr,
    status: real.status,
  });
}

const SAVE = runLine('node-1', 'iptables-save -t nat').stdout;
const CT = runLine(
  'node-1',
  'curl -s http://10.96.1.1/ >/dev/null; curl -s http://10.96.1.2/ >/dev/null; conntrack -L',
).stdout;
const TABLE = 'NAME READY AGE\nweb-1 1/1 10\nweb-2 0/1 9\ndns 1/1 100\n';

const CASES = awkCases(SAVE, CT, TABLE);

describe.skipIf(!isMawk)('awk, as mawk 1.3.4', () => {
  it('has real input to read', () => {
    expect(SAVE.split('\n').filter((l) => l.startsWith('-A KUBE-SEP-')).length).toBeGreaterThan(10); // prettier-ignore
    expect(CT.split('\n').filter((l) => l.startsWith('tcp ')).length).toBe(2);
  });
  it.each(CASES)('%s', (line, input) => compare(line, input ?? ''));
});
