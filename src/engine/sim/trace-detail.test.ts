/**
 * The trace's detail changes what is written down, never what happens: the same connections
 * with every step recorded, with no rule step and with the trace off leave the same answers,
 * rule counters, conntrack entries, capture log (tcpdump) and random draws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captureLog, type TraceDetail } from '../datapath';
import { generateLoadScenario, loadServiceIP } from '../testing/load-scenario';
import { flowControls } from './flows';
import { runScript } from './run-script';
import { setTraceDetail, traceSince } from './network';
import { World } from './world';

const SERVICES = 4;

/**
 * Edits of a node's rules between connections: walks remembered before (netfilter/walk/memo.ts,
 * trace off or without rule steps) must not answer for the new rules.
 */
const EDITS = [
  '',
  'node-1$ iptables -I KUBE-FORWARD 1 -p tcp -j ACCEPT',
  'node-1$ iptables -I FORWARD 1 -m conntrack --ctstate ESTABLISHED -m mark --mark 0x1 -j DROP',
  'node-2$ iptables -I FORWARD 1 -p tcp --sport 80 -j ACCEPT',
  'node-1$ iptables -Z',
  'node-1$ iptables -D KUBE-FORWARD 1',
  'node-2$ iptables -t nat -I POSTROUTING 1 -p tcp -j RETURN',
];

function script(world: World, text: string): string {
  let out = '';
  runScript(world, text, {
    readFile: () => undefined,
    onOutput: (line, r) => {
      out += `${line ?? ''}\n${r.stdout}${r.stderr}${r.exitCode}\n`;
    },
  });
  return out;
}

/**
 * Opens, uses and closes (or leaves open) connections to the given services, a rule edit
 * before each; what shows.
 */
function run(detail: TraceDetail, plan: readonly { svc: number; close: boolean; edit: number }[]) {
  const { world } = World.fromScenario(generateLoadScenario(SERVICES, 3));
  setTraceDetail(world, detail);
  const client = flowControls(world, { kind: 'pod', namespace: 'default', name: 'client' });
  const answers: string[] = [];
  plan.forEach(({ svc, close, edit }, i) => {
    if (EDITS[edit] !== '') answers.push(script(world, `${EDITS[edit]}\n`));
    const opened = client.open(`c${i}`, 'tcp', loadServiceIP(svc), 80);
    answers.push(opened.text);
    if (!opened.ok) return;
    answers.push(client.send(`c${i}`, undefined, 1000).text);
    if (close) answers.push(client.close(`c${i}`).text);
  });
  const tools = script(
    world,
    'node-1$ iptables-save -c\nnode-2$ iptables-save -c\nnode-1$ conntrack -L\nnode-2$ conntrack -L\n',
  );
  return {
    answers,
    tools,
    captures: captureLog(world),
    draws: [world.rng.nextU32(), world.rng.nextU32()],
    steps: traceSince(world, 0),
  };
}

describe('trace detail', () => {
  it('off, none and all: the same connections, counters, conntrack, captures and draws, across rule edits', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            svc: fc.nat(SERVICES - 1),
            close: fc.boolean(),
            edit: fc.oneof(
              { weight: 3, arbitrary: fc.constant(0) },
              { weight: 2, arbitrary: fc.nat(EDITS.length - 1) },
            ),
          }),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        (plan) => {
          const all = run('all', plan);
          const none = run('none', plan);
          const off = run('off', plan);
          const { steps: allSteps, ...allSeen } = all;
          const { steps: noneSteps, ...noneSeen } = none;
          const { steps: offSteps, ...offSeen } = off;
          expect(offSeen).toEqual(allSeen);
          expect(noneSeen).toEqual(allSeen);
          expect(offSteps).toEqual([]);
          expect(allSteps.some((s) => s.kind === 'rule')).toBe(true);
          expect(noneSteps.some((s) => s.kind === 'rule')).toBe(false);
          // Without rule steps, every other step is the same (renumbered).
          const strip = (s: readonly (typeof allSteps)[number][]) =>
            s.filter((x) => x.kind !== 'rule' && x.kind !== 'policy').map(({ seq: _, ...x }) => x);
          expect(strip(noneSteps)).toEqual(strip(allSteps));
        },
      ),
      { numRuns: 12 },
    );
  });
});
