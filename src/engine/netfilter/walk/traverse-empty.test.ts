/**
 * emptyWalk reads a table and its base chain by named property reads and fixed checks: for
 * every table name and every hook (and names that are not hooks), they answer as the keyed
 * read and isBuiltinChain do.
 */
import { describe, expect, it } from 'vitest';
import { isBuiltinChain, TABLE_ORDER } from '../tables';
import type { NetfilterState, Table, TableName } from '../types';
import { emptyWalkInternals } from './traverse-empty';
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
