/**
 * curl's, dig's and nc's command-line errors, compared with the real tools (Debian bookworm:
 * curl 7.88.1, BIND 9.18 dig, netcat-openbsd 1.219): each of these lines fails while the tool
 * reads its arguments, before it resolves a name or opens a socket, so it runs wherever the tool
 * is installed. Same stdout, same stderr, same exit status.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseCurlArgs, parseDigArgs, parseNcArgs } from '../../src/engine/hosts/programs/args';

function installed(tool: string): boolean {
  const ok = spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
  if (!ok) console.log(`skipping the ${tool} argument comparison: ${tool} is not installed`);
  return ok;
}

const URL = 'http://10.0.0.1/';

// prettier-ignore
const CURL = [
  ['-m', 'abc', URL], ['-m', '-1', URL], ['-m', '0.5x', URL], ['-m', '', URL], ['-m', 'inf', URL],
  ['-m', '-inf', URL], ['-m', '1e400', URL], ['-m', '-1e400', URL], ['-m', '1e-400', URL],
  ['-m', '4e-320', URL], ['-m', '1e', URL], ['-m', '0x', URL], ['-m'], ['--max-time', 'abc', URL],
  ['--max-time'], ['--connect-timeout', 'abc', URL], ['--connect-timeout', '-2', URL],
  ['-mabc', URL], ['-m5x', URL], ['-sSmabc', URL], ['-sSm', 'abc', URL], ['-sSm'],
  ['-W', URL], ['-sW', URL], ['-5', URL], ['--bogus', URL], ['--max-time=5', URL],
  ['-o'], ['-so'], ['--output'], ['-w'], ['-sSw'], ['--write-out'], ['-o', '/dev/null', '-m'],
  ['http://10.0.0.1:99999/'], ['-sS', 'http://10.0.0.1:65536/'], ['-s', '10.0.0.1:99999'],
];

// prettier-ignore
const DIG = [
  ['-p', 'abc', 'x'], ['-p', '70000', 'x'], ['-p', '0x35', 'x'], ['-p', '+53', 'x'], ['-p', ' 53', 'x'],
  ['-p', '-1', 'x'], ['-p', '', 'x'], ['-p53x', 'x'], ['x', '-p'], ['-Q', 'x'],
  ['+tries=abc', 'x'], ['+tries=-1', 'x'], ['+tries=1x', 'x'], ['+tries=99999999999', 'x'],
  ['+tri=abc', 'x'], ['+retry=abc', 'x'], ['+ret=abc', 'x'], ['+timeout=abc', 'x'],
  ['+timeout=70000', 'x'], ['+time=abc', 'x'], ['+ti=abc', 'x'],
  // Unknown +options and dash options, and ones missing their value (dig.c plus_option(),
  // dash_option()): `Invalid option: …`, usage, exit 1. -h prints the help on stdout, exit 0.
  ['+bogus', 'x'], ['x', '+bogus'], ['+nobogus', 'x'], ['+a', 'x'], ['+allx', 'x'], ['+no', 'x'],
  ['+nodomain=x', 'x'], ['+ndots', 'x'], ['+nondots=2', 'x'], ['+timeout', 'x'], ['+timeout=', 'x'],
  ['+ndots=abc', 'x'], ['-z', 'x'], ['-4z', 'x'], ['-t'], ['x', '-q'], ['-h'], ['-4h'],
];

// prettier-ignore
const NC = [
  ['-w', 'abc', '10.0.0.1', '80'], ['-w', '-1', '10.0.0.1', '80'], ['-w', '1.5', '10.0.0.1', '80'],
  ['-w', '99999999', '10.0.0.1', '80'], ['-zw', 'abc', '10.0.0.1', '80'], ['-zwabc', '10.0.0.1', '80'],
  ['-z', '10.0.0.1', '80', '-w'], ['-Y', '10.0.0.1', '80'], [], ['-z'], ['10.0.0.1'],
  ['10.0.0.1', 'abc'], ['10.0.0.1', '70000'], ['10.0.0.1', '0'], ['10.0.0.1', '8O'],
];

/** Each line with its arguments as a shell would show them, for the test's name. */
function labelled(lines: string[][]): [string, string[]][] {
  return lines.map((args) => [
    args.map((a) => (/^[\w.+@=:/-]+$/.test(a) ? a : `'${a}'`)).join(' ') || '(no arguments)',
    args,
  ]);
}

function compare(
  tool: string,
  args: string[],
  parse: (
    argv: string[],
  ) =>
    | ReturnType<typeof parseCurlArgs>
    | ReturnType<typeof parseDigArgs>
    | ReturnType<typeof parseNcArgs>,
) {
  const real = spawnSync(tool, args, { encoding: 'utf8', timeout: 5000, input: '' });
  const mine = parse([tool, ...args]);
  expect(mine.ok).toBe(false);
  if (mine.ok) return;
  expect({ stdout: mine.stdout ?? '', stderr: mine.stderr, status: mine.exitCode }).toEqual({
    stdout: real.stdout,
    stderr: real.stderr,
    status: real.status,
  });
}

describe.skipIf(!installed('curl'))('curl command-line errors', () => {
  it.each(labelled(CURL))('curl %s', (_, args) => compare('curl', args, parseCurlArgs));
});

describe.skipIf(!installed('dig'))('dig command-line errors', () => {
  it.each(labelled(DIG))('dig %s', (_, args) => compare('dig', args, parseDigArgs));
});

describe.skipIf(!installed('nc'))('nc command-line errors', () => {
  it.each(labelled(NC))('nc %s', (_, args) => compare('nc', args, (a) => parseNcArgs(a)));
});
