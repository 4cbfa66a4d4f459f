/**
 * nf_nat_packet() builds the rewritten packet with Object.assign and a function, not a spread
 * and a closure: for any entry binding, direction, hook and packet it gives what the spread
 * version gave — the same packet (fields and their order) and the same changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IPS, type CtEntry, type CtTuple } from './model';
import { hookManip, natApplies, natPacket, type NatChange, type NatHook } from './nat';
import { mustInvert, type CtPacket } from './tuple';

/** natPacket as it was written before. */
function bySpread(entry: CtEntry, dir: 'ORIGINAL' | 'REPLY', hook: NatHook, packet: CtPacket) {
  const manip = hookManip(hook);
  if (manip === undefined || !natApplies(entry, dir, hook)) return { packet, changes: [] };
  const target = mustInvert(dir === 'ORIGINAL' ? entry.reply : entry.orig);
  const next: { -readonly [K in keyof CtPacket]: CtPacket[K] } = { ...packet };
  const changes: NatChange[] = [];
  const set = (field: NatChange['field'], to: string | number | undefined): void => {
    const from = next[field];
    if (to === undefined || from === undefined || from === to) return;
    changes.push({ field, from, to });
    (next as Record<string, unknown>)[field] = to;
  };
  if (manip === 'snat') set('src', target.src);
  else set('dst', target.dst);
  if (packet.icmpInner === undefined) {
    if (target.proto === 'icmp') set('icmpId', target.id);
    else if (manip === 'snat') set('sport', target.sport);
    else set('dport', target.dport);
  }
  return { packet: next, manip, changes };
}

const ip = fc.constantFrom('10.0.0.1', '10.0.0.2', '10.96.0.10');
const port = fc.constantFrom(80, 8080, 40000);
const portTuple = fc.record({
  proto: fc.constantFrom('tcp' as const, 'udp' as const),
  src: ip,
  dst: ip,
  sport: port,
  dport: port,
});
const icmpTuple = fc.record({
  proto: fc.constant('icmp' as const),
  src: ip,
  dst: ip,
  type: fc.constantFrom(8, 0),
  code: fc.constant(0),
  id: port,
});

const entry = fc
  .tuple(fc.oneof(portTuple, icmpTuple), fc.oneof(portTuple, icmpTuple), fc.nat(511))
  .map(([orig, reply, status]): CtEntry => ({
    id: 1,
    orig: orig as CtTuple,
    reply: reply as CtTuple,
    status: status & (IPS.SRC_NAT | IPS.DST_NAT | IPS.SEEN_REPLY),
    timeoutMs: 0,
    expiresAtMs: 0,
    createdMs: 0,
    mark: 0,
    zone: 0,
    counters: [
      { packets: 0, bytes: 0 },
      { packets: 0, bytes: 0 },
    ],
  }));

const packet: fc.Arbitrary<CtPacket> = fc.record(
  {
    src: ip,
    dst: ip,
    proto: fc.constantFrom('tcp' as const, 'udp' as const, 'icmp' as const),
    sport: port,
    dport: port,
    payloadBytes: fc.nat(100),
    icmpType: fc.constantFrom(8, 0, 3),
    icmpId: port,
    icmpInner: fc.record({ src: ip, dst: ip, proto: fc.constant('tcp' as const) }),
    lengthBytes: fc.nat(1500),
  },
  { requiredKeys: ['src', 'dst', 'proto'] },
);

describe('natPacket', () => {
  it('rewrites as the spread version did', () => {
    const hooks: NatHook[] = ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'];
    fc.assert(
      fc.property(
        entry,
        fc.constantFrom('ORIGINAL' as const, 'REPLY' as const),
        fc.constantFrom(...hooks),
        packet,
        (e, dir, hook, p) => {
          const got = natPacket(e, dir, hook, p);
          const want = bySpread(e, dir, hook, p);
          expect(got).toEqual(want);
          expect(JSON.stringify(got)).toBe(JSON.stringify(want));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
