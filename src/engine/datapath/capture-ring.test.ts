/**
 * The capture ring keeps what the array it replaced kept: records appended, trimmed back to the
 * last `limit` once it held a quarter more, the last `limit` read — for any sequence of
 * captures, reads (the same records, field for field and in field order, headers rebuilt from
 * columns included) and clears.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PacketHeader } from '../../protocol/trace';
import { CaptureRing, type CaptureRecord } from './capture-ring';
import { sameDeep } from './capture-test-helpers';

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

/** Headers kept in columns (TCP with options), and as objects (ICMP). */
const header = (i: number): PacketHeader =>
  i % 7 === 0
    ? { src: '10.0.0.1', dst: '10.0.0.2', proto: 'icmp', icmp: { type: 8, code: 0 }, length: 84, mark: 0 } // prettier-ignore
    : ({
        src: '10.0.0.1',
        dst: `10.0.0.${i % 250}`,
        proto: 'tcp',
        sport: 40000 + i,
        dport: 80,
        tcpFlags: i % 2 === 0 ? '.' : 'P.',
        length: 40 + i,
        mark: i % 3 === 0 ? 0x4000 : 0,
        seq: 2 ** 32 - i,
        tcpOptions: { ts: { val: i, ecr: i - 1 } },
        ttl: 64 - (i % 3),
      } as PacketHeader);

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
          let previous: PacketHeader | undefined;
          for (const o of ops) {
            if (o.kind === 'clear') {
              ring.clear();
              ref.clear();
              previous = undefined;
            } else if (o.kind === 'push') {
              for (let i = 0; i < o.n; i++, seq++) {
                const rec: CaptureRecord = {
                  seq,
                  t: seq * 1.5,
                  host: seq % 3 === 0 ? 'node-1' : 'pod/default/client',
                  iface: `eth${seq % 2}`,
                  dir: seq % 5 === 0 ? 'in' : 'out',
                  packetId: seq >> 1,
                  // A packet is captured on several interfaces with the same header object.
                  packet: previous !== undefined && seq % 5 < 3 ? previous : header(seq),
                };
                previous = rec.packet;
                ring.push(rec.seq, rec.t, rec.host, rec.iface, rec.dir, rec.packetId, rec.packet);
                ref.push(rec);
              }
            }
            const want = ref.records();
            const got = ring.records();
            expect(got).toEqual(want);
            // Same field order (JSON of the log is what a snapshot carries).
            expect(JSON.stringify(got)).toBe(JSON.stringify(want));
            got.forEach((r, i) => {
              expect(sameDeep(r, want[i])).toBe('');
              // Records of one header object share one rebuilt header.
              if (i > 0 && want[i]!.packet === want[i - 1]!.packet)
                expect(r.packet).toBe(got[i - 1]!.packet);
            });
            expect(ring.lastSeq()).toBe(want.at(-1)?.seq);
            expect(ring.length).toBe(want.length);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
