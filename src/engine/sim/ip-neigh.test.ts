// `ip neigh` reads the neighbour tables the datapath keeps (datapath/arp.ts, pod-arp.ts) as
// the lab's clock moves them: states after net/core/neighbour.c, MACs as `ip link` shows them.
// tests/kernel/ip-neigh.test.ts compares the same pings with the real kernel.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../scenario';
import { runScript } from './run-script';
import { World } from './world';

interface Out {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

function runAll(script: string): Out[] {
  const { world } = World.fromScenario(DEFAULT_SCENARIO);
  const out: Out[] = [];
  runScript(world, script, {
    readFile: () => undefined,
    onOutput: (_l, r) =>
      out.push({ stdout: r.stdout, stderr: r.stderr ?? '', exitCode: r.exitCode }),
  });
  return out;
}

const run = (script: string): string[] => runAll(script).map((r) => r.stdout);

/** The client pod (10.244.0.5, on node-1) and an address of node-1's pod subnet nobody has. */
const CLIENT = '10.244.0.5';
const NOBODY = '10.244.0.99';

describe('ip neigh on a node', () => {
  it('lists nothing before the node sent to a pod', () => {
    expect(runAll('node-1$ ip neigh')[0]).toMatchObject({ stdout: '', exitCode: 0 });
  });

  it("lists a pod it pinged as REACHABLE with the pod's eth0 MAC, a dead address as FAILED", () => {
    const [link, , , neigh] = run(
      [
        `pod/client$ ip -br link show eth0`,
        `node-1$ ping -c 1 ${CLIENT}`,
        `node-1$ ping -c 1 ${NOBODY}`,
        'node-1$ ip neigh',
      ].join('\n'),
    );
    const mac = /([0-9a-f]{2}(?::[0-9a-f]{2}){5})/.exec(link ?? '')?.[1];
    expect(mac).toBeDefined();
    expect(neigh).toBe(`${CLIENT} dev cni0 lladdr ${mac} REACHABLE \n${NOBODY} dev cni0 FAILED \n`);
  });

  it('ages REACHABLE to STALE after reachable_time, and a new packet makes it DELAY', () => {
    // reachable_time is drawn in [15 s, 45 s) (neigh_rand_reach_time); 60 s is past it, and
    // delay_first_probe_time (5 s) has not passed when `ip neigh` runs after the second ping.
    const [, , stale, , delay] = run(
      [
        `node-1$ ping -c 1 ${CLIENT}`,
        'node-1$ sleep 60',
        'node-1$ ip neigh show dev cni0',
        `node-1$ ping -c 1 ${CLIENT}`,
        'node-1$ ip neigh show dev cni0',
      ].join('\n'),
    );
    expect(stale).toMatch(new RegExp(`^${CLIENT} lladdr \\S+ STALE \\n$`));
    expect(delay).toMatch(new RegExp(`^${CLIENT} lladdr \\S+ DELAY \\n$`));
  });
});

describe('ip neigh on a pod and an external client', () => {
  it("lists a pod's unanswered address as FAILED", () => {
    const [, neigh] = run([`pod/client$ ping -c 1 ${NOBODY}`, 'pod/client$ ip neigh'].join('\n'));
    expect(neigh).toBe(`${NOBODY} dev eth0 FAILED \n`);
  });

  it('lists no LAN neighbours: the lab does not keep them, and its note says so', () => {
    const [, neigh] = runAll('laptop$ ping -c 1 192.168.1.10\nlaptop$ ip neigh');
    expect(neigh?.stdout).toBe('');
    expect(neigh?.stderr).toMatch(/^lab: `ip neigh` lists the ARP entries the lab keeps/);
    expect(neigh?.exitCode).toBe(0);
  });
});
