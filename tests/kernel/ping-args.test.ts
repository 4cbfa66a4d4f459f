/**
 * ping's command-line errors, compared with the real iputils ping (Debian iputils-ping
 * 20221126): each of these fails before a packet is sent, so it runs anywhere ping is installed.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parsePingArgs } from '../../src/engine/hosts/programs/ping-args';

const installed = spawnSync('sh', ['-c', 'command -v ping']).status === 0;
if (!installed) console.log('skipping the ping argument comparison: ping is not installed');

const LINES = [['-z', '10.0.0.1'], ['-c'], ['-c', '0', '10.0.0.1'], ['-c', 'abc', '10.0.0.1'], ['-c', '1'], ['-w', 'x', '10.0.0.1']]; // prettier-ignore

describe.skipIf(!installed)('ping command-line errors', () => {
  it.each(LINES)('ping %s', (...args: string[]) => {
    const real = spawnSync('ping', args, { encoding: 'utf8', timeout: 5000 });
    const mine = parsePingArgs(['ping', ...args]);
    expect(mine.ok).toBe(false);
    if (mine.ok) return;
    expect(mine.stderr).toBe(real.stderr);
    expect(mine.exitCode).toBe(real.status);
  });
});
