/**
 * hostKey keeps a pod ref's key per ref object: for any refs, asked once or again, it is the
 * key joined from the ref's fields.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HostRef } from '../routing';
import { hostKey } from './build';

const name = fc.constantFrom('web-1', 'client', 'node-1', 'a/b', '');
const ref: fc.Arbitrary<HostRef> = fc.oneof(
  fc.record({ kind: fc.constant('pod' as const), namespace: name, name }),
  fc.record({ kind: fc.constantFrom('node' as const, 'external' as const), name }),
);

describe('hostKey', () => {
  it('is the joined key, first time and again', () => {
    fc.assert(
      fc.property(fc.array(ref, { maxLength: 10 }), (refs) => {
        for (const r of [...refs, ...refs]) {
          expect(hostKey(r)).toBe(r.kind === 'pod' ? `pod/${r.namespace}/${r.name}` : r.name);
        }
      }),
      { numRuns: 500 },
    );
  });
});
