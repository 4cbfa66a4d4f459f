/**
 * The packet views and rewrites the datapath builds field by field give what the spreads they
 * replace gave, key order included (traces and captures are JSON).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PacketHeader } from '../../protocol/trace';
import { withAddresses, withField } from './packet';

type Rewrite = Parameters<typeof withAddresses>[1];

/** withAddresses as conditional spreads. */
function bySpread(h: PacketHeader, p: Rewrite): PacketHeader {
  return {
    ...h,
    src: p.src,
    dst: p.dst,
    ...(p.sport !== undefined && h.sport !== undefined ? { sport: p.sport } : {}),
    ...(p.dport !== undefined && h.dport !== undefined ? { dport: p.dport } : {}),
    ...(p.icmpId !== undefined && h.icmp !== undefined
      ? { icmp: { ...h.icmp, id: p.icmpId } }
      : {}),
  };
}

const ip = fc.constantFrom('10.244.0.5', '10.96.0.10', '192.168.1.10');
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
const header: fc.Arbitrary<PacketHeader> = fc
  .record(
    {
      src: ip,
      dst: ip,
      proto: fc.constantFrom('tcp' as const, 'udp' as const, 'icmp' as const),
      sport: fc.integer({ min: 1, max: 65535 }),
      dport: fc.integer({ min: 1, max: 65535 }),
      tcpFlags: fc.constantFrom('S', 'S.', '.', 'P.'),
      icmp: fc.record(
        { type: fc.nat(20), code: fc.nat(5), id: fc.nat(100) },
        { requiredKeys: ['type', 'code'] },
      ),
      length: fc.nat(1500),
      mark: fc.nat(),
      ttl: fc.nat(255),
      payload: fc.nat(1000),
    },
    { requiredKeys: ['src', 'dst', 'proto', 'length', 'mark'] },
  )
  .map((h) => h as PacketHeader);

describe('withAddresses', () => {
  it('is the spread with overrides, key order included', () => {
    fc.assert(
      fc.property(header, ip, ip, port, port, port, (h, src, dst, sport, dport, icmpId) => {
        const p: Rewrite = { src, dst, sport, dport, icmpId };
        expect(JSON.stringify(withAddresses(h, p))).toBe(JSON.stringify(bySpread(h, p)));
      }),
      { numRuns: 2000 },
    );
  });

  it('withField is the spread with one field set, key order included', () => {
    fc.assert(
      fc.property(header, fc.nat(255), ip, (h, n, addr) => {
        for (const key of ['ttl', 'mark'] as const)
          expect(JSON.stringify(withField(h, key, n))).toBe(JSON.stringify({ ...h, [key]: n }));
        expect(JSON.stringify(withField(h, 'src', addr))).toBe(JSON.stringify({ ...h, src: addr }));
      }),
      { numRuns: 1000 },
    );
  });
});
