/**
 * tcpdump's filter errors, compared with the real tcpdump (4.99, libpcap 1.10) in a throwaway
 * namespace: each fails while the filter is compiled, before any capture. What a filter
 * matches is compared on real captures in experiment 09 (tests/kernel/experiments-d.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseCaptureFilter } from '../../src/engine/hosts';
import { netnsUnavailableReason, withNetns } from './netns';
import { spawnSync } from 'node:child_process';

const reason =
  netnsUnavailableReason() ??
  (spawnSync('sh', ['-c', 'command -v tcpdump']).status === 0 ? undefined : 'no tcpdump');
if (reason !== undefined) console.log(`skipping the tcpdump filter comparison: ${reason}`);

const FILTERS = ['foo', 'host foo', 'port', 'port abc', 'tcp and', 'host 300.1.1.1', 'net 10.0.0.1/8', '( tcp', 'icmp port 80']; // prettier-ignore

describe.skipIf(reason !== undefined)('tcpdump filter errors', () => {
  it('read as the real tcpdump words them', () => {
    withNetns((run) => {
      run(['ip', 'link', 'set', 'lo', 'up']);
      for (const f of FILTERS) {
        const real = run(['timeout', '5', 'tcpdump', '-n', '-i', 'lo', '-c', '1', ...f.split(' ')]);
        const mine = parseCaptureFilter(f.split(' '));
        expect(typeof mine === 'function' ? '' : `tcpdump: ${mine.error}\n`, f).toBe(real.stderr);
        expect(real.exitCode, f).toBe(1);
      }
    });
  });
});
