/**
 * Skipping rules whose `-d` cannot match (rule-index.ts) when the trace keeps only matched
 * steps or none: the verdict, the NAT request, every counter, the matched steps and the random
 * draws of statistic rules must be what the full rule-by-rule walk gives.
 */
import { describe, expect, it } from 'vitest';
import { rngFromSeed } from '../../model/runtime';
import type { NetfilterState } from '../types';
import { traverseTable } from './traverse';
import type { TraverseOptions } from './types';
import { loadRules, packet, walkContext } from './walk-fixtures';

/** A KUBE-SERVICES like kube-proxy's: one `-d IP/32` rule per service, then the NodePort jump. */
function services(n: number): string {
  const lines = [
    '*nat',
    ':PREROUTING ACCEPT [0:0]',
    ':KUBE-SERVICES - [0:0]',
    ':KUBE-NODEPORTS - [0:0]',
  ];
  for (let i = 0; i < n; i++) lines.push(`:SVC-${i} - [0:0]`);
  lines.push('-A PREROUTING -j KUBE-SERVICES');
  for (let i = 0; i < n; i++) {
    lines.push(
      `-A KUBE-SERVICES -d 10.96.${i >> 8}.${i & 255}/32 -p tcp -m tcp --dport 80 -j SVC-${i}`,
    );
    lines.push(
      `-A SVC-${i} -m statistic --mode random --probability 0.5 -j DNAT --to-destination 10.244.0.${(i % 200) + 1}`,
    );
    lines.push(`-A SVC-${i} -j DNAT --to-destination 10.244.1.${(i % 200) + 1}`);
  }
  lines.push('-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS');
  lines.push('-A KUBE-NODEPORTS -p tcp -m tcp --dport 30080 -j SVC-0');
  return `${lines.join('\n')}\nCOMMIT\n`;
}

function run(
  state: NetfilterState,
  steps: NonNullable<TraverseOptions['steps']>,
  dsts: readonly string[],
) {
  const rng = rngFromSeed(7);
  return dsts.map((dst) => {
    const r = traverseTable(
      state,
      'nat',
      'PREROUTING',
      packet({ dst, dport: dst === '10.0.0.2' ? 30080 : 80 }),
      walkContext({ rng }),
      { steps },
    );
    return { verdict: r.verdict, nat: r.nat, matched: r.steps.filter((s) => s.matched) };
  });
}

const counters = (s: NetfilterState) =>
  s.tables.nat?.chains.map((c) => [
    c.name,
    c.counters.packets,
    c.rules.map((r) => r.counters.packets),
  ]);

describe('walk: rules whose destination cannot match are skipped only when not traced', () => {
  const dsts = ['10.96.0.5', '10.96.0.200', '10.96.1.3', '10.0.0.2', '10.96.9.9', '10.96.0.5'];

  it.each(['matched', 'none'] as const)(
    'trace detail %s: same outcome, counters, matched steps and draws',
    (steps) => {
      const full = loadRules(services(300));
      const fast = loadRules(services(300));
      const a = run(full, 'all', dsts);
      const b = run(fast, steps, dsts);
      expect(b.map((x) => [x.verdict, x.nat])).toEqual(a.map((x) => [x.verdict, x.nat]));
      if (steps === 'matched') expect(b.map((x) => x.matched)).toEqual(a.map((x) => x.matched));
      expect(counters(fast)).toEqual(counters(full));
      // The NodePort jump (last rule, any destination) and a miss both reach the end of the chain.
      expect(a[3]?.nat).toBeDefined();
      expect(a[4]?.verdict).toBe('ACCEPT');
      expect(a[4]?.nat).toBeUndefined();
    },
  );
});
