/**
 * natRewrite() (nat.ts) is what the datapath did before it: conntrack's natPacket() of the
 * packet's conntrack view, then withAddresses() of the rewritten view when it changed
 * anything — the same header, key order included, and the same "nothing changed".
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PacketHeader } from '../../protocol/trace';
import { IPS, natApplies, natPacket, type CtEntry, type CtTuple } from '../conntrack';
import { natRewrite } from './nat';
import { withAddresses } from './header-copy';
import { ctPacketOf, newSkb } from './packet';

const ip = fc.constantFrom('10.244.0.5', '10.96.0.10', '192.168.1.10', '10.244.1.7');
const port = fc.constantFrom(80, 8080, 40000, 53);

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
    type: fc.constantFrom(8, 0),
    code: fc.constant(0),
    id: fc.constantFrom(1, 7),
  }),
);

const header: fc.Arbitrary<PacketHeader> = fc
  .record(
    {
      src: ip,
      dst: ip,
      proto: fc.constantFrom('tcp' as const, 'udp' as const, 'icmp' as const),
      sport: port,
      dport: port,
      tcpFlags: fc.constantFrom('S', '.'),
      icmp: fc.record(
        { type: fc.constantFrom(0, 3, 8), code: fc.nat(3), id: fc.constantFrom(1, 7) },
        { requiredKeys: ['type', 'code'] },
      ),
      length: fc.nat(1500),
      mark: fc.nat(),
      ttl: fc.nat(255),
      inner: fc.record(
        { src: ip, dst: ip, proto: fc.constantFrom('tcp' as const, 'icmp' as const), sport: port },
        { requiredKeys: ['src', 'dst', 'proto'] },
      ),
    },
    { requiredKeys: ['src', 'dst', 'proto', 'length', 'mark'] },
  )
  .map((h) => h as PacketHeader);

describe('natRewrite', () => {
  it('is natPacket of the conntrack view, then withAddresses', () => {
    fc.assert(
      fc.property(
        tuple,
        tuple,
        fc.constantFrom('ORIGINAL' as const, 'REPLY' as const),
        fc.constantFrom(
          'PREROUTING' as const,
          'OUTPUT' as const,
          'POSTROUTING' as const,
          'INPUT' as const,
        ),
        header,
        (orig, reply, dir, hook, h) => {
          const entry = {
            id: 1,
            orig,
            reply,
            status: IPS.SRC_NAT | IPS.DST_NAT,
            mark: 0,
          } as unknown as CtEntry;
          fc.pre(natApplies(entry, dir, hook));
          const manip = hook === 'PREROUTING' || hook === 'OUTPUT' ? 'dnat' : 'snat';
          const res = natPacket(entry, dir, hook, ctPacketOf(newSkb(1, h)));
          const expected = res.changes.length === 0 ? undefined : withAddresses(h, res.packet);
          const got = natRewrite(entry, dir, manip, h);
          expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
