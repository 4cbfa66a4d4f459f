/**
 * conntrack_mt() --ctstate tests the packet's state bits: its ctstate, plus SNAT and DNAT for a
 * tracked connection with those status bits. The match is written without building the set of
 * bits; for every state list, invert flag and packet conntrack it answers what the set answers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CT_STATES, type ConntrackMatch, type CtState } from '../types';
import { conntrackMatch } from './match-ext';
import type { ConntrackInfo } from './types';
import { matchContext } from './walk-fixtures';

/** The bits as a set, the states listed tested against it. */
function bySet(m: ConntrackMatch, ct: ConntrackInfo): boolean {
  const bits = new Set<CtState>([ct.state]);
  const tracked = ct.state !== 'INVALID' && ct.state !== 'UNTRACKED';
  if (tracked && ct.snat) bits.add('SNAT');
  if (tracked && ct.dnat) bits.add('DNAT');
  return m.states.some((s) => bits.has(s)) !== m.invert;
}

describe('--ctstate', () => {
  it('answers as the set of state bits', () => {
    const state = fc.constantFrom<ConntrackInfo['state']>(
      'NEW',
      'ESTABLISHED',
      'RELATED',
      'INVALID',
      'UNTRACKED',
    );
    fc.assert(
      fc.property(
        fc.subarray([...CT_STATES]),
        fc.boolean(),
        state,
        fc.option(fc.boolean(), { nil: undefined }),
        fc.option(fc.boolean(), { nil: undefined }),
        (states, invert, s, snat, dnat) => {
          const m: ConntrackMatch = { name: 'conntrack', states, invert };
          const ct: ConntrackInfo = {
            state: s,
            ...(snat !== undefined ? { snat } : {}),
            ...(dnat !== undefined ? { dnat } : {}),
          };
          expect(conntrackMatch(m, matchContext({ conntrack: ct }))).toBe(bySet(m, ct));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
