/**
 * nf_ct_tuple_equal() compares the tuple's fields one by one; the hash is keyed by the same
 * fields joined (tupleKey). For any two tuples, of any protocols, the two agree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CtTuple } from './model';
import { tupleEqual, tupleKey } from './tuple';

const ip = fc.constantFrom('10.0.0.1', '10.0.0.2', '10.96.0.10', '192.168.1.10');
const small = fc.integer({ min: 0, max: 3 });
const tuple: fc.Arbitrary<CtTuple> = fc.oneof(
  fc.record({
    proto: fc.constantFrom('tcp' as const, 'udp' as const),
    src: ip,
    dst: ip,
    sport: small,
    dport: small,
  }),
  fc.record({
    proto: fc.constant('icmp' as const),
    src: ip,
    dst: ip,
    type: small,
    code: small,
    id: small,
  }),
);

describe('tupleEqual', () => {
  it('is equality of the hash keys', () => {
    fc.assert(
      fc.property(tuple, tuple, (a, b) => {
        expect(tupleEqual(a, b)).toBe(tupleKey(a) === tupleKey(b));
        expect(tupleEqual(a, a)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
