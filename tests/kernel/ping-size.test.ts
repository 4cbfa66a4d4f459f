/**
 * `ping -s SIZE` at the top of the IPv4 size range, compared with iputils ping 20221126 as root
 * in a throwaway namespace (a raw ICMP socket, as a pod's root user has): 65507 data bytes
 * make a 65535-byte datagram and are answered; 65508–65527 are refused by ip_append_data(),
 * whose ip_local_error() queues EMSGSIZE (mtu 65535) for ping to print and count as an error;
 * from 65528 the ICMP message itself exceeds 0xFFFF and raw_sendmsg() refuses it before
 * queueing anything, which ping counts as sent and does not report; with -q a queued local
 * error is skipped uncounted. Times are set aside.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';
import { netnsUnavailableReason, withNetns } from './netns';

const skip = netnsUnavailableReason();
if (skip !== undefined) console.log(`skipping the ping size comparison: ${skip}`);

/** The client pod's address in the default scenario: it pings itself. */
const CLIENT = '10.244.0.5';

const timeless = (text: string) =>
  text
    .replace(/, time \d+ms/, ', time <ms>')
    .replace(/time=[\d.]+ ms/g, 'time=<ms>')
    .replace(/rtt min\/avg\/max\/mdev = \S+ ms/, 'rtt <ms>');

const CASES = [
  ['-c', '1', '-s', '65507'],
  ['-c', '2', '-s', '65508'],
  ['-c', '1', '-s', '65527'],
  ['-c', '1', '-W', '1', '-s', '65528'],
  ['-c', '1', '-W', '1', '-s', '100000'],
  ['-q', '-c', '1', '-W', '1', '-s', '65508'],
];

describe.skipIf(skip !== undefined)('ping -s at the IPv4 size limit', () => {
  it('answers, reports a local error, or says nothing, as iputils does', () => {
    const real = withNetns((run) => {
      run(['ip', 'link', 'set', 'lo', 'up']);
      run(['ip', 'link', 'add', 'eth0', 'type', 'veth', 'peer', 'name', 'peer0']);
      run(['ip', 'addr', 'add', `${CLIENT}/24`, 'dev', 'eth0']);
      run(['ip', 'link', 'set', 'eth0', 'up']);
      run(['ip', 'link', 'set', 'peer0', 'up']);
      return CASES.map((args) => run(['ping', ...args, CLIENT]));
    });
    const { world } = World.fromScenario(DEFAULT_SCENARIO);
    const mine = CASES.map((args) => {
      let r = { stdout: '', stderr: '', exitCode: -1 };
      runScript(world, `pod/client$ ping ${args.join(' ')} ${CLIENT}`, {
        readFile: () => undefined,
        onOutput: (_l, out) => (r = out),
      });
      return r;
    });
    // What the kernel said, so a changed kernel shows here first.
    expect(real[1]!.stderr).toBe('ping: local error: message too long, mtu=65535\n'.repeat(2));
    expect(real[1]!.stdout).toContain('2 packets transmitted, 0 received, +2 errors');
    CASES.forEach((args, i) => {
      const where = `ping ${args.join(' ')}`;
      expect(timeless(mine[i]!.stdout), where).toBe(timeless(real[i]!.stdout));
      expect(mine[i]!.stderr, where).toBe(real[i]!.stderr);
      expect(mine[i]!.exitCode, where).toBe(real[i]!.exitCode);
    });
  });
});
