/**
 * `ping` to an address of the pod's own subnet that nobody answers: after three unanswered ARP
 * probes the neighbour entry fails and the sender's own kernel reports ICMP host unreachable for
 * each queued echo request (arp_error_report → icmp_send; echo requests are no ICMP errors, so
 * they get one). Compared with iputils ping 20221126 on a veth in a throwaway namespace that
 * holds the client pod's address; round-trip times and the total time are set aside.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';
import { netnsUnavailableReason, withNetns } from './netns';

const skip = netnsUnavailableReason();
if (skip !== undefined) console.log(`skipping the ping host-unreachable comparison: ${skip}`);

/** The client pod's address (default scenario) and a free one of its subnet. */
const CLIENT = '10.244.0.5';
const NOBODY = '10.244.0.99';

const timeless = (text: string) => text.replace(/, time \d+ms/, ', time <ms>');

describe.skipIf(skip !== undefined)('ping to a dead address on the same subnet', () => {
  it('prints "From SELF icmp_seq=N Destination Host Unreachable" and "+N errors", exit 1', () => {
    const real = withNetns((run) => {
      run(['ip', 'link', 'set', 'lo', 'up']);
      run(['ip', 'link', 'add', 'eth0', 'type', 'veth', 'peer', 'name', 'peer0']);
      run(['ip', 'addr', 'add', `${CLIENT}/24`, 'dev', 'eth0']);
      run(['ip', 'link', 'set', 'eth0', 'up']);
      run(['ip', 'link', 'set', 'peer0', 'up']);
      return run(['ping', '-c', '2', NOBODY]);
    });
    const { world } = World.fromScenario(DEFAULT_SCENARIO);
    let mine = { stdout: '', exitCode: -1 };
    runScript(world, `pod/client$ ping -c 2 ${NOBODY}`, {
      readFile: () => undefined,
      onOutput: (_l, r) => (mine = r),
    });
    expect(real.stdout).toContain(`From ${CLIENT} icmp_seq=1 Destination Host Unreachable`);
    expect(timeless(mine.stdout)).toBe(timeless(real.stdout));
    expect(mine.exitCode).toBe(real.exitCode);
  });
});
