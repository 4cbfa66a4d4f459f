/**
 * builtinChain looks at a table's first chains before the name index: for any table, with its
 * chains in any order (built-in ones first or not), it finds what chainByName finds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Chain, Table } from '../types';
import { builtinChain, chainByName } from './chain-index';

const NAMES = [
  'PREROUTING',
  'INPUT',
  'FORWARD',
  'OUTPUT',
  'POSTROUTING',
  'KUBE-SERVICES',
  'KUBE-FORWARD',
  'KUBE-POSTROUTING',
  'X',
];

const chain = (name: string): Chain => ({
  name,
  builtin: name.toUpperCase() === name && !name.includes('-') && name !== 'X',
  counters: { packets: 0, bytes: 0 },
  rules: [],
});

describe('builtinChain', () => {
  it('finds what chainByName finds', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: NAMES.length }),
        (names) => {
          const table: Table = { name: 'filter', chains: names.map(chain) };
          for (const name of NAMES)
            expect(builtinChain(table, name)).toBe(chainByName(table, name));
        },
      ),
      { numRuns: 500 },
    );
  });
});
