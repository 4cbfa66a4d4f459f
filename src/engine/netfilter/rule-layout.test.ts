/**
 * Every rule in a table has every field of Rule, absent ones undefined, in one order — whichever
 * way it came in (kube-proxy's prebuilt parses, the restore's fast and general parsers, the
 * iptables command, -R/-E copies) — so the walk reads one object layout; and the JSON of a rule
 * shows only the fields it has, as before.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../scenario';
import { runScript } from '../sim/run-script';
import { World } from '../sim/world';
import type { Rule } from './types';

const LAYOUT = [
  'src',
  'dst',
  'inIface',
  'outIface',
  'protocol',
  'fragment',
  'matches',
  'target',
  'counters',
  'nftHandle',
];

const EDITS = `node-1$ iptables -A FORWARD -s 10.1.0.0/16 -i eth0 -o cni0 -p tcp -f -j ACCEPT
node-1$ iptables -t nat -I PREROUTING 1 ! -d 10.96.0.1/32 -p udp --dport 53 -j RETURN
node-1$ iptables -N LAB-TEST
node-1$ iptables -A LAB-TEST -m comment --comment "hand made" -j LOG --log-prefix "lab: "
node-1$ iptables -R LAB-TEST 1 -m mark --mark 0x4000/0x4000 -j MARK --set-xmark 0x0/0x4000
node-1$ iptables -E LAB-TEST LAB-RENAMED
node-1$ iptables -A INPUT -j LAB-RENAMED
`;

function rulesOf(world: World): Rule[] {
  const rules: Rule[] = [];
  for (const node of world.kernels.keys()) {
    const nf = world.kernel(node)?.netfilter;
    for (const table of Object.values(nf?.tables ?? {}))
      for (const chain of table?.chains ?? []) rules.push(...chain.rules);
  }
  return rules;
}

describe('rule layout', () => {
  it('gives every rule every field, in one order, however it was made', () => {
    const { world } = World.fromScenario(DEFAULT_SCENARIO);
    for (const node of world.kernels.keys()) world.kernel(node);
    let status = 0;
    runScript(world, EDITS, {
      readFile: () => undefined,
      onOutput: (_line, r) => {
        status |= r.exitCode;
      },
    });
    expect(status).toBe(0);
    const rules = rulesOf(world);
    expect(rules.length).toBeGreaterThan(50);
    for (const r of rules) expect(Object.keys(r)).toEqual(LAYOUT);
    // The hand-made rules are there, with the fields they were given and no others in JSON.
    const forward = rules.find((r) => r.src?.addr === '10.1.0.0' && r.fragment !== undefined);
    expect(JSON.stringify(forward)).toBe(
      '{"src":{"addr":"10.1.0.0","prefix":16,"invert":false},"inIface":{"name":"eth0","invert":false},' +
        '"outIface":{"name":"cni0","invert":false},"protocol":{"num":6,"invert":false},' +
        '"fragment":{"invert":false},"matches":[],"target":{"kind":"ACCEPT"},' +
        `"counters":{"packets":0,"bytes":0},"nftHandle":${forward?.nftHandle}}`,
    );
  });
});
