/**
 * The views written into kept objects — a replay's (walk-replay.ts), a conntrack lookup's
 * (ct-view.ts) — are the views that were built: the same fields and values as walkPacketOf,
 * walkConntrackOf and ctPacketOf, key order included, whatever packet came before (the kept
 * objects are refilled, never cleared).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PacketHeader } from '../../protocol/trace';
import { IPS, type CtEntry } from '../conntrack';
import { ctLookupView } from './ct-view';
import {
  ctPacketOf,
  newSkb,
  walkConntrackOf,
  walkPacketOf,
  type HookDevices,
  type Skb,
} from './packet';
import { replayConntrackOf, replayPacketOf } from './walk-replay';

const ip = fc.constantFrom('10.244.0.5', '10.96.0.10', '192.168.1.10');
const dev = fc.option(fc.constantFrom('eth0', 'cni0', 'veth1'), { nil: undefined });

const header: fc.Arbitrary<PacketHeader> = fc
  .record(
    {
      src: ip,
      dst: ip,
      proto: fc.constantFrom('tcp' as const, 'udp' as const, 'icmp' as const),
      sport: fc.integer({ min: 1, max: 65535 }),
      dport: fc.integer({ min: 1, max: 65535 }),
      tcpFlags: fc.constantFrom('S', 'S.', '.', 'P.', 'F.'),
      icmp: fc.record(
        { type: fc.nat(20), code: fc.nat(5), id: fc.nat(100) },
        { requiredKeys: ['type', 'code'] },
      ),
      length: fc.nat(1500),
      mark: fc.nat(),
      ttl: fc.nat(255),
      payload: fc.nat(1000),
      inner: fc.record(
        {
          src: ip,
          dst: ip,
          proto: fc.constantFrom('tcp' as const, 'icmp' as const),
          sport: fc.nat(65535),
          dport: fc.nat(65535),
          icmp: fc.record(
            { type: fc.nat(8), code: fc.nat(3), id: fc.nat(9) },
            { requiredKeys: ['type', 'code'] },
          ),
        },
        { requiredKeys: ['src', 'dst', 'proto'] },
      ),
    },
    { requiredKeys: ['src', 'dst', 'proto', 'length', 'mark'] },
  )
  .map((h) => h as PacketHeader);

const devices: fc.Arbitrary<HookDevices> = fc.record({
  inIface: dev,
  outIface: dev,
  physIn: dev,
  physOut: dev,
});

const skb: fc.Arbitrary<Skb> = fc
  .record({
    header,
    local: fc.boolean(),
    retransmission: fc.boolean(),
    ct: fc.option(
      fc.record({
        state: fc.constantFrom('NEW' as const, 'ESTABLISHED' as const, 'RELATED' as const),
        dir: fc.constantFrom('ORIGINAL' as const, 'REPLY' as const),
        status: fc.constantFrom(0, IPS.SRC_NAT, IPS.DST_NAT, IPS.SRC_NAT | IPS.DST_NAT),
        mark: fc.nat(7),
      }),
      { nil: undefined },
    ),
  })
  .map(({ header: h, local, retransmission, ct }) => {
    const s = newSkb(1, h, retransmission);
    if (local) s.localOrigin = true;
    if (ct !== undefined) {
      const entry = { status: ct.status, mark: ct.mark } as CtEntry;
      s.ct = { entry, dir: ct.dir, state: ct.state };
    }
    return s;
  });

describe('replay views', () => {
  it('are walkPacketOf, walkConntrackOf and ctPacketOf, after any earlier packet', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(skb, devices), { minLength: 1, maxLength: 4 }), (seq) => {
        for (const [s, d] of seq) {
          const p = replayPacketOf(s, d);
          expect(JSON.stringify(p)).toBe(JSON.stringify(walkPacketOf(s, d)));
          expect(p).toEqual(walkPacketOf(s, d));
          expect(replayConntrackOf(s)).toEqual(walkConntrackOf(s));
          const c = ctLookupView(s);
          expect(JSON.stringify(c)).toBe(JSON.stringify(ctPacketOf(s)));
          expect(c).toEqual(ctPacketOf(s));
        }
      }),
      { numRuns: 500 },
    );
  });
});
