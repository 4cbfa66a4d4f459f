/**
 * A rule line the parse cache did not take (a line seen for the first time) goes into the
 * table as parsed, with counters of its own: packets counted on it count nowhere else, and
 * the table is what a cached parse's copy (ownRule()) makes.
 */
import { describe, expect, it } from 'vitest';
import { createNetfilter, iptablesRestore, iptablesSave, type NetfilterState } from './index';

function rules(s: NetfilterState, chain: string) {
  return s.tables.nat?.chains.find((c) => c.name === chain)?.rules ?? [];
}

describe('a rule from a line seen once', () => {
  it('has counters of its own', () => {
    const lines = Array.from({ length: 8 }, (_, i) => `-A KUBE-OWN -d 10.9.0.${i}/32 -j RETURN\n`);
    const s = createNetfilter();
    const input = `*nat\n:KUBE-OWN - [0:0]\n${lines.join('')}COMMIT\n`;
    expect(iptablesRestore(s, input, {}).exitCode).toBe(0);
    const [first, ...others] = rules(s, 'KUBE-OWN');
    first!.counters.packets += 3;
    for (const r of others) expect(r.counters).toEqual({ packets: 0, bytes: 0 });
    // Another table's first sight of other lines starts at 0:0 too.
    const t = createNetfilter();
    const again = input.replaceAll('10.9.0.', '10.8.0.');
    expect(iptablesRestore(t, again, {}).exitCode).toBe(0);
    for (const r of rules(t, 'KUBE-OWN')) expect(r.counters).toEqual({ packets: 0, bytes: 0 });
    // Seen twice, the lines are cached: the same table, rule for rule (a copy of the parse).
    const u = createNetfilter();
    expect(iptablesRestore(u, input, {}).exitCode).toBe(0);
    first!.counters.packets -= 3;
    const keys = (x: NetfilterState) => rules(x, 'KUBE-OWN').map((r) => Object.keys(r));
    expect(keys(u)).toEqual(keys(s));
    expect(rules(u, 'KUBE-OWN')).toEqual(rules(s, 'KUBE-OWN'));
    expect(iptablesSave(u, { nowEpochSeconds: 0, counters: true }).stdout).toBe(
      iptablesSave(s, { nowEpochSeconds: 0, counters: true }).stdout,
    );
  });
});
