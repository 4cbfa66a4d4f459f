/**
 * The capture ring keeps what the array it replaced kept: records appended, trimmed back to the
 * last `limit` once it held a quarter more, the last `limit` read — for any sequence of
 * captures, reads (the same records, field for field and in field order) and clears.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PacketHeader } from '../../protocol/trace';
import { CaptureRing, type CaptureRecord } from './capture-ring';

/** The array the capture log was: push, splice when over limit * 1.25, slice when read. */
class Reference {
  private all: CaptureRecord[] = [];
  constructor(private readonly limit: number) {}
  push(rec: CaptureRecord): void {
    this.all.push(rec);
    if (this.all.length > this.limit + (this.limit >> 2))
      this.all.splice(0, this.all.length - this.limit);
  }
  records(): readonly CaptureRecord[] {
    const all = this.all;
    return all.length > this.limit ? all.slice(all.length - this.limit) : all;
  }
  clear(): void {
    this.all = [];
  }
}

type Op = { kind: 'push'; n: number } | { kind: 'read' } | { kind: 'clear' };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('push' as const), n: fc.nat(40) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('read' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
);

const header = (i: number): PacketHeader =>
  ({ src: '10.0.0.1', dst: `10.0.0.${i % 250}`, proto: 'tcp', length: 40 + i }) as PacketHeader;

describe('capture ring', () => {
  it('keeps and gives back what the trimmed array did', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(op, { maxLength: 40 }),
        (limit, ops) => {
          const ring = new CaptureRing(limit);
          const ref = new Reference(limit);
          let seq = 1;
          for (const o of ops) {
            if (o.kind === 'clear') {
              ring.clear();
              ref.clear();
            } else if (o.kind === 'push') {
              for (let i = 0; i < o.n; i++, seq++) {
                const rec: CaptureRecord = {
                  seq,
                  t: seq * 1.5,
                  host: seq % 3 === 0 ? 'node-1' : 'pod/default/client',
                  iface: `eth${seq % 2}`,
                  dir: seq % 5 === 0 ? 'in' : 'out',
                  packetId: seq >> 1,
                  packet: header(seq),
                };
                ring.push(rec.seq, rec.t, rec.host, rec.iface, rec.dir, rec.packetId, rec.packet);
                ref.push(rec);
              }
            }
            const want = ref.records();
            const got = ring.records();
            expect(got).toEqual(want);
            // Same field order (JSON of the log is what a snapshot carries).
            expect(JSON.stringify(got)).toBe(JSON.stringify(want));
            got.forEach((r, i) => expect(r.packet).toBe(want[i]!.packet));
            expect(ring.lastSeq()).toBe(want.at(-1)?.seq);
            expect(ring.length).toBe(want.length);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
