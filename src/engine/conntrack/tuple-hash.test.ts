/**
 * The nested tuple hash and bysource records answer as flat records keyed by the joined fields
 * (tupleKey, and protocol + source + l4 source for bysource) did, for any sequence of inserts
 * and deletes — also across a JSON round trip — and are empty again once everything is gone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CtTuple } from './model';
import { l4Src, tupleKey } from './tuple';
import {
  bySourceAdd,
  bySourceGet,
  bySourceRemove,
  emptyBySource,
  emptyTupleHash,
  hashDeleteIfOwned,
  hashGet,
  hashSet,
  type BySource,
  type TupleHash,
} from './tuple-hash';

const ip = fc.constantFrom('10.0.0.1', '10.0.0.2', '10.96.0.10', '0.0.0.0');
// Extremes included: the packed keys reach 2^32 - 1.
const port = fc.constantFrom(0, 1, 80, 256, 65535);
const byte = fc.constantFrom(0, 1, 8, 255);
const tuple: fc.Arbitrary<CtTuple> = fc.oneof(
  fc.record({
    proto: fc.constantFrom('tcp' as const, 'udp' as const),
    src: ip,
    dst: ip,
    sport: port,
    dport: port,
  }),
  fc.record({
    proto: fc.constant('icmp' as const),
    src: ip,
    dst: ip,
    type: byte,
    code: byte,
    id: port,
  }),
);

type Op = { set: boolean; t: CtTuple; id: number; json: boolean };
const op: fc.Arbitrary<Op> = fc.record({
  set: fc.boolean(),
  t: tuple,
  id: fc.integer({ min: 1, max: 4 }),
  json: fc.boolean(),
});

const roundTrip = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const sourceKey = (t: CtTuple) => `${t.proto} ${t.src} ${l4Src(t)}`;

describe('tuple hash', () => {
  it('answers as the flat record keyed by tupleKey', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 60 }),
        fc.array(tuple, { maxLength: 20 }),
        (ops, probes) => {
          let hash: TupleHash = emptyTupleHash();
          const flat: { [k: string]: number } = {};
          for (const o of ops) {
            if (o.json) hash = roundTrip(hash);
            const key = tupleKey(o.t);
            if (o.set) {
              hashSet(hash, o.t, o.id * 2 + (o.id & 1));
              flat[key] = o.id * 2 + (o.id & 1);
            } else {
              hashDeleteIfOwned(hash, o.t, o.id);
              const ref = flat[key];
              if (ref !== undefined && Math.floor(ref / 2) === o.id) delete flat[key];
            }
            expect(hashGet(hash, o.t)).toBe(flat[key]);
          }
          for (const t of [...probes, ...ops.map((o) => o.t)])
            expect(hashGet(hash, t)).toBe(flat[tupleKey(t)]);
          for (const o of ops)
            hashDeleteIfOwned(hash, o.t, Math.floor((hashGet(hash, o.t) ?? 0) / 2));
          expect(hash).toEqual(emptyTupleHash());
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('bysource', () => {
  it('answers as the flat record keyed by protocol, source and source port', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        let by: BySource = emptyBySource();
        const flat: { [k: string]: number[] } = {};
        for (const o of ops) {
          if (o.json) by = roundTrip(by);
          const key = sourceKey(o.t);
          const held = bySourceGet(by, o.t);
          const copy = held === undefined ? undefined : [...held];
          if (o.set) {
            bySourceAdd(by, o.t, o.id);
            (flat[key] ??= []).push(o.id);
          } else {
            bySourceRemove(by, o.t, o.id);
            const rest = (flat[key] ?? []).filter((id) => id !== o.id);
            if (rest.length === 0) delete flat[key];
            else flat[key] = rest;
            // A list a caller holds is not changed under it.
            expect(held).toEqual(copy);
          }
          expect(bySourceGet(by, o.t)).toEqual(flat[key]);
        }
        for (const o of ops) for (const id of [1, 2, 3, 4]) bySourceRemove(by, o.t, id);
        expect(by).toEqual(emptyBySource());
      }),
      { numRuns: 2000 },
    );
  });
});
