/**
 * The header rewrites the datapath builds by copyHeader (header-copy.ts) give what the spreads
 * they replace gave, key order included (traces and captures are JSON), for headers written in
 * HEADER_ORDER — the order every sender writes them in (header-copy.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PacketHeader } from '../../protocol/trace';
import { withAddresses, withField } from './header-copy';

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
const u32 = fc.integer({ min: 0, max: 2 ** 32 - 1 });
/** Any header, fields in HEADER_ORDER (fc.record keeps its keys' order). */
const anyHeader: fc.Arbitrary<PacketHeader> = fc
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
      seq: u32,
      ack: u32,
      win: fc.nat(65535),
      tcpOptions: fc.constant({ ts: { val: 1, ecr: 2 } }),
      payload: fc.nat(1000),
      data: fc.constant({ kind: 'text', text: 'GET / HTTP/1.1' }),
      inner: fc.record({ src: ip, dst: ip, proto: fc.constant('udp' as const) }),
      ttl: fc.nat(255),
    },
    { requiredKeys: ['src', 'dst', 'proto', 'length', 'mark'] },
  )
  .map((h) => h as PacketHeader);
/** A connected socket's segment (tcp-segment.ts), with and without data: copyHeader's literals. */
const segment: fc.Arbitrary<PacketHeader> = fc
  .tuple(ip, ip, port, fc.boolean(), u32, u32, fc.nat(255))
  .map(([src, dst, sport, withData, seq, ack, ttl]) => {
    const head = { src, dst, proto: 'tcp', sport: sport ?? 1, dport: 80, tcpFlags: 'P.' };
    const tcp = { length: 52, mark: 0, seq, ack, win: 502, tcpOptions: { ts: { val: 1, ecr: 2 } } };
    const data = withData ? { payload: 5, data: { kind: 'text', text: 'hello' } } : {};
    return { ...head, ...tcp, ...data, ttl } as PacketHeader;
  });
const header = fc.oneof(anyHeader, segment);

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
