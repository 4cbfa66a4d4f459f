/**
 * NAT bindings (nf_nat_core.c): reply-tuple rewrite, status bits, null bindings, port
 * selection (get_unique_tuple, nf_nat_l4proto_unique_tuple, find_appropriate_src) and
 * nf_nat_packet() per hook and direction. Kernel-observed shapes are quoted from `conntrack -L`
 * on 6.18 (DNAT in OUTPUT, SNAT with and without a port clash, MASQUERADE --random-fully).
 */
import { describe, expect, it } from 'vitest';
import {
  conntrackCommand,
  createConntrackTable,
  ctLookupOrCreate,
  ctMatchInfo,
  IPS,
  natNeeded,
  natPacket,
  natSetup,
  type CtPacket,
  type CtTable,
} from './index';
import { fixedRng, walk, type NatRules } from './testing';

const tcp = (src: string, sport: number, dst = '10.0.0.2', dport = 8080): CtPacket => ({
  src,
  dst,
  sport,
  dport,
  proto: 'tcp',
  tcpFlags: { syn: true },
});
const snatTo1: NatRules = {
  POSTROUTING: (p) => (p.src === '10.0.0.3' ? { addr: '10.0.0.1' } : undefined),
};
const list = (t: CtTable): string[] => conntrackCommand(t, ['-L'], 0).stdout.trimEnd().split('\n');

describe('nf_nat_setup_info()', () => {
  it('DNAT in OUTPUT rewrites the reply source; the null SNAT binding changes nothing', () => {
    const t = createConntrackTable();
    const rules: NatRules = {
      OUTPUT: (p) => (p.dst === '10.96.0.10' ? { addr: '10.0.0.2', port: 5353 } : undefined),
    };
    const q: CtPacket = {
      src: '10.0.0.1',
      dst: '10.96.0.10',
      proto: 'udp',
      sport: 40003,
      dport: 53,
    };
    const r = walk(t, 'local-out', q, 0, fixedRng([]), rules);
    expect(r.packet).toMatchObject({ dst: '10.0.0.2', dport: 5353, src: '10.0.0.1', sport: 40003 });
    expect(list(t)).toEqual([
      'udp      17 30 src=10.0.0.1 dst=10.96.0.10 sport=40003 dport=53 [UNREPLIED] src=10.0.0.2 dst=10.0.0.1 sport=5353 dport=40003 mark=0 use=1',
    ]);
    const e = t.entries[1];
    expect(e && e.status & (IPS.DST_NAT | IPS.DST_NAT_DONE | IPS.SRC_NAT_DONE)).toBe(
      IPS.DST_NAT | IPS.DST_NAT_DONE | IPS.SRC_NAT_DONE,
    );
    expect(e && e.status & IPS.SRC_NAT).toBe(0);
    expect(ctMatchInfo(r.ct)).toMatchObject({ state: 'NEW', dnat: true, snat: false });
    // The reply gets its source restored at INPUT (un-DNAT), not at PREROUTING.
    const reply: CtPacket = {
      src: '10.0.0.2',
      dst: '10.0.0.1',
      proto: 'udp',
      sport: 5353,
      dport: 40003,
    };
    const ct = ctLookupOrCreate(t, reply, 1);
    if (ct.kind !== 'tracked' || e === undefined) throw new Error('not tracked');
    expect(natPacket(e, ct.dir, 'PREROUTING', reply).changes).toEqual([]);
    expect(natPacket(e, ct.dir, 'INPUT', reply).changes).toEqual([
      { field: 'src', from: '10.0.0.2', to: '10.96.0.10' },
      { field: 'sport', from: 5353, to: 53 },
    ]);
  });

  it('SNAT keeps the source port when the tuple is unique (kernel: sport 40013 kept)', () => {
    const t = createConntrackTable();
    const r = walk(t, 'local-out', tcp('10.0.0.3', 40013), 0, fixedRng([]), snatTo1);
    expect(r.packet).toMatchObject({ src: '10.0.0.1', sport: 40013 });
    expect(list(t)[0]).toContain(
      'src=10.0.0.3 dst=10.0.0.2 sport=40013 dport=8080 [UNREPLIED] src=10.0.0.2 dst=10.0.0.1 sport=8080 dport=40013',
    );
    expect(ctMatchInfo(r.ct)).toMatchObject({ snat: true });
  });

  it.each([
    // original port, rng value, expected port: min + (value & 0xffff) % size
    ['1024-65535 class', 40020, 21252, 1024 + 21252],
    ['1-511 class', 100, 58, 1 + 58],
    ['600-1023 class', 700, 5, 605],
  ])('a clashing SNAT searches the %s from a random offset', (_c, port, rand, expected) => {
    const t = createConntrackTable();
    walk(t, 'local-out', tcp('10.0.0.1', port), 0, fixedRng([]));
    const r = walk(t, 'local-out', tcp('10.0.0.3', port), 0, fixedRng([rand]), snatTo1);
    expect(r.packet).toMatchObject({ src: '10.0.0.1', sport: expected });
  });

  it('--random-fully takes a random port even when the original one is free', () => {
    const t = createConntrackTable();
    const rules: NatRules = { POSTROUTING: () => ({ addr: '10.0.0.1', randomFully: true }) };
    const q: CtPacket = {
      src: '10.0.0.3',
      dst: '10.0.0.2',
      proto: 'udp',
      sport: 40031,
      dport: 7000,
    };
    const r = walk(t, 'local-out', q, 0, fixedRng([11580]), rules);
    expect(r.packet.sport).toBe(1024 + 11580); // kernel picked 12604 with its own random draw
  });

  it('a used candidate port is skipped (off++)', () => {
    const t = createConntrackTable();
    walk(t, 'local-out', tcp('10.0.0.1', 40020), 0, fixedRng([]));
    walk(t, 'local-out', tcp('10.0.0.1', 1024 + 7), 0, fixedRng([]));
    const r = walk(t, 'local-out', tcp('10.0.0.3', 40020), 0, fixedRng([7]), snatTo1);
    expect(r.packet.sport).toBe(1024 + 8);
  });

  it('find_appropriate_src: a second flow from the same source reuses its mapping', () => {
    const t = createConntrackTable();
    walk(t, 'local-out', tcp('10.0.0.1', 40020), 0, fixedRng([]));
    const a = walk(t, 'local-out', tcp('10.0.0.3', 40020), 0, fixedRng([100]), snatTo1);
    const b = walk(t, 'local-out', tcp('10.0.0.3', 40020, '10.0.0.9'), 0, fixedRng([]), snatTo1);
    expect(a.packet.sport).toBe(1124);
    expect(b.packet.sport).toBe(1124);
  });

  it('a DNAT clash is resolved by the null SNAT binding changing the source port', () => {
    // get_unique_tuple() for the null binding finds the tuple used and falls back to
    // nf_nat_l4proto_unique_tuple(): the connection is SNATed to a new port (IPS_SRC_NAT).
    const t = createConntrackTable();
    walk(t, 'local-out', tcp('10.0.0.1', 40000, '10.0.0.2', 8080), 0, fixedRng([]));
    const rules: NatRules = { OUTPUT: () => ({ addr: '10.0.0.2', port: 8080 }) };
    const syn = tcp('10.0.0.1', 40000, '10.96.0.20', 80);
    const r = walk(t, 'local-out', syn, 0, fixedRng([9, 5]), rules);
    expect(r.dropped).toBe(false);
    expect(r.packet).toMatchObject({ dst: '10.0.0.2', dport: 8080, sport: 1024 + 5 });
    expect(ctMatchInfo(r.ct)).toMatchObject({ snat: true, dnat: true });
    expect(t.count).toBe(2);
  });

  it('the nat table is consulted once per manip; confirmed entries cannot be re-bound', () => {
    const t = createConntrackTable();
    const r = walk(t, 'local-out', tcp('10.0.0.1', 40001), 0, fixedRng([]));
    if (r.ct.kind !== 'tracked') throw new Error('untracked');
    const e = r.ct.entry;
    expect(natNeeded(e, 'snat')).toBe(false);
    expect(natNeeded(e, 'dnat')).toBe(false);
    expect(natSetup(t, e, 'dnat', { addr: '1.2.3.4' }, fixedRng([]), 0)).toEqual({
      kind: 'confirmed',
    });
    const fresh = ctLookupOrCreate(t, tcp('10.0.0.1', 40002), 0);
    if (fresh.kind !== 'tracked') throw new Error('untracked');
    natSetup(t, fresh.entry, 'dnat', null, fixedRng([]), 0);
    expect(natSetup(t, fresh.entry, 'dnat', null, fixedRng([]), 0).kind).toBe('drop');
  });

  it('retransmitted SYNs do not walk the nat chain again and keep the backend', () => {
    const t = createConntrackTable();
    let calls = 0;
    const rules: NatRules = {
      OUTPUT: () => {
        calls++;
        return { addr: `10.244.0.${calls}`, port: 8080 };
      },
    };
    const syn = tcp('10.0.0.1', 40100, '10.96.0.20', 80);
    const a = walk(t, 'local-out', syn, 0, fixedRng([]), rules);
    const b = walk(t, 'local-out', syn, 1000, fixedRng([]), rules);
    expect(calls).toBe(1);
    expect(b.ct.ctstate).toBe('NEW');
    expect(b.packet.dst).toBe(a.packet.dst);
  });

  it('masqueraded replies get their destination restored at PREROUTING', () => {
    const t = createConntrackTable();
    const out = walk(t, 'forward', tcp('10.244.0.5', 43812, '10.0.0.2', 80), 0, fixedRng([]), {
      POSTROUTING: () => ({ addr: '192.168.1.10' }),
    });
    expect(out.packet).toMatchObject({ src: '192.168.1.10', sport: 43812 });
    const reply: CtPacket = {
      ...tcp('10.0.0.2', 80, '192.168.1.10', 43812),
      tcpFlags: { syn: true, ack: true },
    };
    const r = walk(t, 'forward', reply, 1, fixedRng([]));
    expect(r.packet).toMatchObject({ dst: '10.244.0.5', dport: 43812, src: '10.0.0.2' });
  });

  it('ICMP echo ids are mapped like ports (SNAT keeps a free id)', () => {
    const t = createConntrackTable();
    const echo: CtPacket = {
      src: '10.0.0.3',
      dst: '10.0.0.2',
      proto: 'icmp',
      icmpType: 8,
      icmpCode: 0,
      icmpId: 77,
    };
    const r = walk(t, 'local-out', echo, 0, fixedRng([]), snatTo1);
    expect(r.packet).toMatchObject({ src: '10.0.0.1', icmpId: 77 });
  });
});
