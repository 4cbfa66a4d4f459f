/**
 * emptyWalk reads a table and its base chain by named property reads and fixed checks: for
 * every table name and every hook (and names that are not hooks), they answer as the keyed
 * read and isBuiltinChain do.
 */
import { describe, expect, it } from 'vitest';
import { isBuiltinChain, TABLE_ORDER } from '../tables';
import type { NetfilterState, Table, TableName } from '../types';
import { emptyWalk, emptyWalkInternals } from './traverse-empty';
import { createNetfilter, iptablesCommand, iptablesList } from '..';
import type { Hook } from './types';

const NAMES = ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING', 'KUBE-SERVICES', ''];

describe('emptyWalk internals', () => {
  it('hasBase is isBuiltinChain', () => {
    for (const table of TABLE_ORDER)
      for (const name of NAMES)
        expect(emptyWalkInternals.hasBase(table, name as Hook)).toBe(isBuiltinChain(table, name));
  });

  it('tableOf is the keyed read, whatever tables exist', () => {
    for (let bits = 0; bits < 1 << TABLE_ORDER.length; bits++) {
      const tables: { [K in TableName]?: Table } = {};
      TABLE_ORDER.forEach((name, i) => {
        if (bits & (1 << i)) tables[name] = { name, chains: [] };
      });
      const state: NetfilterState = { tables };
      for (const name of TABLE_ORDER)
        expect(emptyWalkInternals.tableOf(state, name)).toBe(state.tables[name]);
    }
  });
});

describe('emptyWalk counts the policy', () => {
  // As traverseRules does: only once the policy was set (iptables-nft gives the base chain
  // counters then; seen on the kernel, netfilter.test.ts).
  it('of a chain whose policy was set, and not of one made for a rule elsewhere', () => {
    const s = createNetfilter();
    expect(iptablesCommand(s, ['-A', 'OUTPUT', '-j', 'ACCEPT']).exitCode).toBe(0);
    const policyLine = () =>
      iptablesList(s, { chain: 'INPUT', numeric: true, verbose: true }).stdout.split('\n')[0];
    expect(emptyWalk(s, 'filter', 'INPUT', 84, 0)?.verdict).toBe('ACCEPT');
    expect(policyLine()).toBe('Chain INPUT (policy ACCEPT 0 packets, 0 bytes)');
    expect(iptablesCommand(s, ['-P', 'INPUT', 'ACCEPT']).exitCode).toBe(0);
    expect(emptyWalk(s, 'filter', 'INPUT', 84, 0)?.verdict).toBe('ACCEPT');
    expect(policyLine()).toBe('Chain INPUT (policy ACCEPT 1 packets, 84 bytes)');
  });
});
