/**
 * builtinChain looks at a table's first chains before the name index: for any table, with its
 * chains in any order (built-in ones first or not), it finds what chainByName finds. jumpTarget
 * remembers per target object: through tables sharing targets, chains added, removed, replaced
 * or moved in place and arrays replaced, it finds what chainByName finds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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

describe('jumpTarget', () => {
  it('finds what chainByName finds, whatever changed since', () => {
    const targets = NAMES.map((name) => ({ kind: 'jump' as const, chain: name, goto: false }));
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('look' as const),
        t: fc.nat(5),
        target: fc.nat(NAMES.length - 1),
      }),
      fc.record({ kind: fc.constant('replace' as const), t: fc.nat(5), at: fc.nat(20) }),
      fc.record({ kind: fc.constant('remove' as const), t: fc.nat(5), at: fc.nat(20) }),
      fc.record({
        kind: fc.constant('add' as const),
        t: fc.nat(5),
        name: fc.constantFrom(...NAMES),
      }),
      fc.record({ kind: fc.constant('copy' as const), t: fc.nat(5) }),
      fc.record({ kind: fc.constant('reverse' as const), t: fc.nat(5) }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: NAMES.length }), {
          minLength: 6,
          maxLength: 6,
        }),
        fc.array(op, { maxLength: 60 }),
        (names, ops) => {
          const tables: Table[] = names.map((n) => ({ name: 'filter', chains: n.map(chain) }));
          for (const o of ops) {
            const table = tables[o.t]!;
            const chains = table.chains;
            if (o.kind === 'look') {
              const target = targets[o.target]!;
              expect(jumpTarget(table, target)).toBe(chainByName(table, target.chain));
            } else if (o.kind === 'replace' && chains.length > 0) {
              const i = o.at % chains.length;
              chains[i] = chain(chains[i]!.name);
            } else if (o.kind === 'remove' && chains.length > 0)
              chains.splice(o.at % chains.length, 1);
            else if (o.kind === 'add' && !chains.some((c) => c.name === o.name))
              chains.push(chain(o.name));
            else if (o.kind === 'copy') table.chains = [...chains];
            else if (o.kind === 'reverse') chains.reverse();
          }
          for (const table of tables)
            for (const target of targets)
              expect(jumpTarget(table, target)).toBe(chainByName(table, target.chain));
        },
      ),
      { numRuns: 500 },
    );
  });
});
