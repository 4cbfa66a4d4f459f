/**
 * `ip neigh` after the same pings in the lab and on a real kernel: node-1 pings the client pod
 * (its entry on cni0 is REACHABLE, with the pod's MAC) and an address of its pod subnet nobody
 * has (three unanswered probes: FAILED, no lladdr); the pod then pings another unanswered
 * address (FAILED on its eth0). The real side is two throwaway namespaces: a "node" with a
 * bridge cni0 at 10.244.0.1/24 and a "pod" whose eth0 (the veth's peer, the lab pod's MAC)
 * holds 10.244.0.5, with iproute2 6.1.0.
 *
 * Compared as sets of lines: the kernel dumps a table in its hash order, which a random
 * hash_rnd per namespace decides (the lab lists entries in the order they were made and its
 * note says so). On the pod only FAILED entries are compared: the real pod also learned the
 * node's 10.244.0.1 from its ARP request (arp_process), an answered neighbour the lab does not
 * keep (the note says that too).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { World } from '../../src/engine/sim/world';
import { netnsUnavailableReason, withNetns, type NsRun } from './netns';

const skip = netnsUnavailableReason();
if (skip !== undefined) console.log(`skipping the ip neigh comparison: ${skip}`);

/** The client pod (default scenario, on node-1), node-1's cni0, and two free addresses. */
const CLIENT = '10.244.0.5';
const CNI0 = '10.244.0.1';
const NOBODY = '10.244.0.99';
const NOBODY_FROM_POD = '10.244.0.98';

const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .sort();

interface Tables {
  readonly node: string;
  readonly nodeOnCni0: string;
  readonly podFailed: string;
}

function lab(): Tables & { readonly clientMac: string } {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const out: string[] = [];
  const script = [
    'pod/client$ ip -br link show eth0',
    `node-1$ ping -c 1 ${CLIENT}`,
    `node-1$ ping -c 1 ${NOBODY}`,
    'node-1$ ip neigh',
    'node-1$ ip neigh show dev cni0',
    `pod/client$ ping -c 1 ${NOBODY_FROM_POD}`,
    'pod/client$ ip neigh show nud failed',
  ].join('\n');
  runScript(world, script, { readFile: () => undefined, onOutput: (_l, r) => out.push(r.stdout) });
  const clientMac = /\s([0-9a-f]{2}(?::[0-9a-f]{2}){5})\s/.exec(out[0] ?? '')?.[1] ?? '';
  return { clientMac, node: out[3]!, nodeOnCni0: out[4]!, podFailed: out[6]! };
}

function mustRun(run: NsRun, argv: readonly string[]): void {
  const r = run(argv);
  if (r.exitCode !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr}`);
}

function real(clientMac: string): Tables {
  return withNetns((node) =>
    withNetns((pod, podNs) => {
      mustRun(node, ['ip', 'link', 'set', 'lo', 'up']);
      mustRun(node, ['ip', 'link', 'add', 'cni0', 'type', 'bridge']);
      mustRun(node, ['ip', 'addr', 'add', `${CNI0}/24`, 'dev', 'cni0']);
      mustRun(node, ['ip', 'link', 'set', 'cni0', 'up']);
      mustRun(node, ['ip', 'link', 'add', 'veth0', 'type', 'veth', 'peer', 'name', 'eth0', 'netns', podNs]); // prettier-ignore
      mustRun(node, ['ip', 'link', 'set', 'veth0', 'master', 'cni0', 'up']);
      mustRun(pod, ['ip', 'link', 'set', 'lo', 'up']);
      mustRun(pod, ['ip', 'link', 'set', 'eth0', 'address', clientMac]);
      mustRun(pod, ['ip', 'addr', 'add', `${CLIENT}/24`, 'dev', 'eth0']);
      mustRun(pod, ['ip', 'link', 'set', 'eth0', 'up']);
      mustRun(pod, ['ip', 'route', 'add', 'default', 'via', CNI0]);
      // The veth's carrier comes up asynchronously: the first ping may need a second try.
      let answered = false;
      for (let i = 0; i < 5 && !answered; i++)
        answered = node(['ping', '-c', '1', '-W', '1', CLIENT]).exitCode === 0;
      if (!answered) throw new Error(`the real pod at ${CLIENT} never answered`);
      // Both sides wait for the error: three probes a second apart, then FAILED (about 3 s).
      node(['ping', '-c', '1', NOBODY]);
      const table = node(['ip', 'neigh']).stdout;
      const onCni0 = node(['ip', 'neigh', 'show', 'dev', 'cni0']).stdout;
      pod(['ping', '-c', '1', NOBODY_FROM_POD]);
      return { node: table, nodeOnCni0: onCni0, podFailed: pod(['ip', 'neigh', 'show', 'nud', 'failed']).stdout }; // prettier-ignore
    }),
  );
}

describe.skipIf(skip !== undefined)('ip neigh after the same pings as on Linux', () => {
  it('lists the pod REACHABLE with its MAC and the dead addresses FAILED', () => {
    const mine = lab();
    expect(mine.clientMac).toMatch(/^[0-9a-f:]{17}$/);
    const theirs = real(mine.clientMac);
    expect(theirs.node).toContain(`${CLIENT} dev cni0 lladdr ${mine.clientMac} REACHABLE \n`);
    expect(theirs.node).toContain(`${NOBODY} dev cni0 FAILED \n`);
    expect(lines(mine.node)).toEqual(lines(theirs.node));
    expect(lines(mine.nodeOnCni0)).toEqual(lines(theirs.nodeOnCni0));
    expect(mine.podFailed).toBe(theirs.podFailed);
    expect(theirs.podFailed).toBe(`${NOBODY_FROM_POD} dev eth0 FAILED \n`);
  });
});
