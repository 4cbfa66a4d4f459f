/**
 * builtinChain looks at a table's first chains before the name index: for any table, with its
 * chains in any order (built-in ones first or not), it finds what chainByName finds. The walk's
 * lookups use the table's index (table-index.ts), which each commit hands over or patches:
 * through a random series of batches (chains created, flushed, renamed, deleted; whole tables
 * restored), every generation's lookups find the chain the table holds by that name.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNetfilter, iptablesCommand, iptablesRestore } from '../index';
import type { Chain, Table } from '../types';
import { builtinChain, chainByName, jumpTarget } from './chain-index';

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

const USER = ['KUBE-SERVICES', 'KUBE-SVC-A', 'KUBE-SEP-B', 'KUBE-POSTROUTING', 'X', 'Y'];

/** What a lookup must answer: the chain of that name the table holds. */
function held(table: Table, name: string): Chain | undefined {
  return table.chains.find((c) => c.name === name);
}

describe('chainByName and jumpTarget', () => {
  it('answer from any table, indexed or not', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: NAMES.length }),
        (names) => {
          const table: Table = { name: 'filter', chains: names.map(chain) };
          for (const name of NAMES) {
            expect(chainByName(table, name)).toBe(held(table, name));
            expect(jumpTarget(table, { chain: name })).toBe(held(table, name));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('find the chain each committed generation holds, through any series of batches', () => {
    const name = fc.constantFrom(...USER);
    const op = fc.oneof(
      name.map((n) => `-N ${n}`),
      name.map((n) => `-X ${n}`),
      name.map((n) => `-F ${n}`),
      fc.tuple(name, name).map(([a, b]) => `-E ${a} ${b}`),
      fc.tuple(name, name).map(([a, b]) => `-A ${a} -j ${b}`),
      fc.record({
        restore: fc.uniqueArray(name, { maxLength: USER.length }),
        noflush: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const state = createNetfilter();
        for (const o of ops) {
          // Failed commands (EBUSY, no such chain, exists) change nothing: as with iptables.
          if (typeof o === 'string') iptablesCommand(state, ['-t', 'nat', ...o.split(' ')]);
          else {
            const decl = o.restore.map((n) => `:${n} - [0:0]`).join('\n');
            iptablesRestore(state, `*nat\n${decl}\nCOMMIT\n`, { noflush: o.noflush });
          }
          const table = state.tables.nat;
          if (table === undefined) continue;
          for (const n of [...NAMES, ...USER]) {
            expect(chainByName(table, n)).toBe(held(table, n));
            expect(jumpTarget(table, { chain: n })).toBe(held(table, n));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
