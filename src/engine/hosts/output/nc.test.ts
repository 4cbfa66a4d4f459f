import { describe, expect, it } from 'vitest';
import { parseNcArgs } from '../programs/args';
import type { TranscriptEntry } from '../programs/types';
import { ncOutput } from './nc';

/** Golden texts: netcat-openbsd 1.219 (Debian bookworm) run in a network namespace. */
function out(cmd: string, tr: TranscriptEntry[], stdin = '') {
  const r = parseNcArgs(cmd.split(' '), stdin);
  if (!r.ok) throw new Error(r.stderr);
  return ncOutput(r.opts, tr);
}

const trying = (addr: string, port: number): TranscriptEntry => ({
  t: 0,
  kind: 'trying',
  addr,
  port,
});
const connected: TranscriptEntry = {
  t: 1,
  kind: 'connected',
  local: { addr: '10.99.0.1', port: 40000 },
};

describe('nc output (netcat-openbsd 1.219)', () => {
  it.each([
    [
      'nc -zv 10.99.0.2 8080',
      [trying('10.99.0.2', 8080), connected],
      'Connection to 10.99.0.2 8080 port [tcp/http-alt] succeeded!\n',
      0,
    ],
    [
      'nc -zv srv 8080',
      [trying('10.99.0.2', 8080), connected],
      'Connection to srv (10.99.0.2) 8080 port [tcp/http-alt] succeeded!\n',
      0,
    ],
    ['nc -z 10.99.0.2 8080', [trying('10.99.0.2', 8080), connected], '', 0],
    [
      'nc -zv 10.99.0.2 80',
      [trying('10.99.0.2', 80), { t: 1, kind: 'connect-failed', errno: 'ECONNREFUSED' }],
      'nc: connect to 10.99.0.2 port 80 (tcp) failed: Connection refused\n',
      1,
    ],
    [
      'nc -z 10.99.0.2 81',
      [trying('10.99.0.2', 81), { t: 1, kind: 'connect-failed', errno: 'ECONNREFUSED' }],
      '',
      1,
    ],
    [
      'nc -zv -w 2 10.99.1.5 80',
      [trying('10.99.1.5', 80), { t: 2000, kind: 'deadline' }],
      'nc: connect to 10.99.1.5 port 80 (tcp) timed out: Operation now in progress\n',
      1,
    ],
    [
      'nc -zv nope 80',
      [{ t: 9, kind: 'resolve-failed', reason: 'nxdomain' }],
      'nc: getaddrinfo for host "nope" port 80: Name or service not known\n',
      1,
    ],
    [
      'nc -z nope 80',
      [{ t: 9, kind: 'resolve-failed', reason: 'nxdomain' }],
      'nc: getaddrinfo for host "nope" port 80: Name or service not known\n',
      1,
    ],
    [
      'nc -zu -v -w 1 10.99.0.2 7',
      [trying('10.99.0.2', 7), connected],
      'Connection to 10.99.0.2 7 port [udp/echo] succeeded!\n',
      0,
    ],
    ['nc -zu -v -w 1 10.99.0.2 8', [trying('10.99.0.2', 8), { t: 1, kind: 'udp-refused' }], '', 1],
    ['nc -zu -w 1 10.99.0.2 8', [], '', 0],
  ] as const)('%s', (cmd, tr, stderr, code) => {
    expect(out(cmd, [...tr])).toMatchObject({ stdout: '', stderr, exitCode: code });
  });

  it('prints what comes back on stdout (`echo hello | nc -u -w 3 10.99.0.2 7` → hello)', () => {
    const tr: TranscriptEntry[] = [
      trying('10.99.0.2', 7),
      { t: 0, kind: 'sent', text: 'hello\n' },
      { t: 0, kind: 'received', text: 'hello\n' },
      { t: 3000, kind: 'deadline' },
    ];
    expect(out('nc -u -w 3 10.99.0.2 7', tr, 'hello\n')).toEqual({
      stdout: 'hello\n',
      stderr: '',
      exitCode: 0,
    });
  });
});
