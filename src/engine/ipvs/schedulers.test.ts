/**
 * One test per scheduler. Expected picks are worked out by hand from the kernel's C
 * (net/netfilter/ipvs/ip_vs_<name>.c, the function named in each test); hash buckets were
 * computed separately with a few lines of Python over the same formulas (values in comments).
 */
import { describe, expect, it } from 'vitest';
import { addDest, addService, deleteDest, editDest, editService } from './table';
import { schedule, type SchedPacket } from './schedulers';
import { createIpvsState, SVC_F_SCHED1, type Destination, type VirtualService } from './types';

function service(scheduler: string, dests: [string, number][], flags = 0): VirtualService {
  const ipvs = createIpvsState();
  const svc = addService(ipvs, {
    protocol: 'TCP',
    addr: '10.96.0.20',
    port: 80,
    scheduler,
    flags,
    timeout: 0,
  });
  if (svc === 'exists') throw new Error('unreachable');
  for (const [addr, weight] of dests) addDest(svc, { addr, port: 8080, weight, fwd: 'Masq' });
  return svc;
}

const pkt = (src = '10.244.1.5', sport = 40000): SchedPacket => ({
  src,
  dst: '10.96.0.20',
  sport,
  dport: 80,
});

const picks = (svc: VirtualService, n: number): string[] =>
  Array.from({ length: n }, () => schedule(svc, pkt())?.addr.split('.')[3] ?? '-');

const dest = (svc: VirtualService, last: string): Destination =>
  svc.destinations.find((d) => d.addr.endsWith(`.${last}`))!;

const ABC: [string, number][] = [
  ['10.244.1.1', 1],
  ['10.244.1.2', 1],
  ['10.244.1.3', 1],
];

describe('IPVS schedulers (kernel formulas)', () => {
  it('rr: list order from the head; weight 0 skipped; a removed current position steps back (ip_vs_rr_schedule, ip_vs_rr_del_dest)', () => {
    const svc = service('rr', ABC);
    expect(picks(svc, 4)).toEqual(['1', '2', '3', '1']);
    editDest(svc, dest(svc, '2'), 0);
    expect(picks(svc, 3)).toEqual(['3', '1', '3']);
    // last = .3; deleting it moves the position back to .2, so the next pick wraps to .1.
    deleteDest(svc, dest(svc, '3'));
    expect(picks(svc, 2)).toEqual(['1', '1']);
  });

  it('wrr: weights 4,3,2 interleave as A A B A B C A B C after init_service (ip_vs_wrr_init_svc, ip_vs_wrr_schedule)', () => {
    // All destinations present at init: di = gcd = 1, mw = 4, cw = 4, then down by di per pass.
    const svc = service('rr', [
      ['10.244.1.1', 4],
      ['10.244.1.2', 3],
      ['10.244.1.3', 2],
    ]);
    editService(svc, { ...svc, scheduler: 'wrr' });
    expect(picks(svc, 10)).toEqual(['1', '1', '2', '1', '2', '3', '1', '2', '3', '1']);
  });

  it('wrr: destinations added one by one keep cw at 1 until the first wrap (ip_vs_wrr_dest_changed)', () => {
    // Empty service: mw 0, cw 0. Add A(4): di 4, mw 1, cw 1. Add B(3), C(2): mw 4, cw stays 1.
    // So the first pass takes everyone with weight >= 1, then cw restarts at mw = 4.
    const svc = service('wrr', [
      ['10.244.1.1', 4],
      ['10.244.1.2', 3],
      ['10.244.1.3', 2],
    ]);
    expect(picks(svc, 10)).toEqual(['1', '2', '3', '1', '1', '2', '1', '2', '3', '1']);
    // gcd 2 (weights 4, 2): di 2, mw 3; cw (1 / 2) * 2 + 1 = 1: A B, then cw 3: A, cw 1: A B, A.
    const g = service('wrr', [
      ['10.244.1.1', 4],
      ['10.244.1.2', 2],
    ]);
    expect(picks(g, 6)).toEqual(['1', '2', '1', '1', '2', '1']);
  });

  it('lc: least ActiveConn*256+InActConn, first of equals (ip_vs_lc_schedule)', () => {
    const svc = service('lc', ABC);
    Object.assign(dest(svc, '1'), { activeConns: 1, inactConns: 0 }); // 256
    Object.assign(dest(svc, '2'), { activeConns: 0, inactConns: 5 }); // 5
    Object.assign(dest(svc, '3'), { activeConns: 0, inactConns: 5 }); // 5, later in the list
    expect(schedule(svc, pkt())?.addr).toBe('10.244.1.2');
  });

  it('wlc: loh*w_d > doh*w_least moves on (ip_vs_wlc_schedule)', () => {
    const svc = service('wlc', [
      ['10.244.1.1', 1],
      ['10.244.1.2', 3],
    ]);
    Object.assign(dest(svc, '1'), { activeConns: 1 }); // 256 * 3 = 768
    Object.assign(dest(svc, '2'), { activeConns: 2 }); // 512 * 1 = 512 → .2 wins
    expect(schedule(svc, pkt())?.addr).toBe('10.244.1.2');
    Object.assign(dest(svc, '2'), { activeConns: 3 }); // 768 * 1 = 768, not greater → .1 stays
    expect(schedule(svc, pkt())?.addr).toBe('10.244.1.1');
  });

  it('sed: (ActiveConn+1)/weight, inactive ignored (ip_vs_sed_schedule)', () => {
    const svc = service('sed', [
      ['10.244.1.1', 1],
      ['10.244.1.2', 3],
    ]);
    Object.assign(dest(svc, '1'), { activeConns: 0, inactConns: 50 }); // 1 * 3 = 3
    Object.assign(dest(svc, '2'), { activeConns: 1 }); // 2 * 1 = 2 → .2
    expect(schedule(svc, pkt())?.addr).toBe('10.244.1.2');
  });

  it('nq: an idle server at once, otherwise SED (ip_vs_nq_schedule)', () => {
    const svc = service('nq', [
      ['10.244.1.1', 1],
      ['10.244.1.2', 5],
      ['10.244.1.3', 1],
    ]);
    Object.assign(dest(svc, '1'), { activeConns: 1 });
    Object.assign(dest(svc, '2'), { activeConns: 2 });
    expect(schedule(svc, pkt())?.addr).toBe('10.244.1.3'); // idle
    Object.assign(dest(svc, '3'), { activeConns: 4 });
    // .1: 2, .2: 3 → 2*5 > 3*1 → .2; .3: 5 → 3*1 > 5*5 false.
    expect(schedule(svc, pkt())?.addr).toBe('10.244.1.2');
  });

  it('sh: hash_32(saddr, 8) selects one of 256 buckets filled weight by weight (ip_vs_sh_schedule)', () => {
    // hash_32(0x0AF40105 = 10.244.1.5, 8) = 115; buckets cycle A,B,C → 115 % 3 = 1 → B.
    // hash_32(0x0AF40209 = 10.244.2.9, 8) = 194 → 194 % 3 = 2 → C.
    const svc = service('sh', ABC);
    expect(schedule(svc, pkt('10.244.1.5'))?.addr).toBe('10.244.1.2');
    expect(schedule(svc, pkt('10.244.1.5', 50000))?.addr).toBe('10.244.1.2'); // port ignored
    expect(schedule(svc, pkt('10.244.2.9'))?.addr).toBe('10.244.1.3');
    editDest(svc, dest(svc, '2'), 0);
    // The table still maps bucket 115 to B, which is unavailable: no destination without sh-fallback.
    expect(schedule(svc, pkt('10.244.1.5'))).toBeUndefined();
    svc.flags |= SVC_F_SCHED1;
    expect(schedule(svc, pkt('10.244.1.5'))?.addr).toBeDefined();
  });

  it('dh: (daddr * 2654435761) & 255, one bucket per server (ip_vs_dh_schedule)', () => {
    // 10.96.0.20 → bucket 212; 212 % 3 = 2 → C.
    const svc = service('dh', ABC);
    expect(schedule(svc, pkt())?.addr).toBe('10.244.1.3');
  });

  it('mh: Maglev table of 4093 slots from hsiphash offsets/skips (ip_vs_mh_populate, ip_vs_mh_get)', () => {
    // Servers 10.244.1.10/2.7/2.8:8080 get (offset, skip) (1687,3112), (808,2829), (3734,3513);
    // client 10.244.1.5 hashes to slot 38, which population gives to the second server.
    const ipvs = createIpvsState();
    const svc = addService(ipvs, {
      protocol: 'TCP',
      addr: '10.96.0.20',
      port: 80,
      scheduler: 'mh',
      flags: 0,
      timeout: 0,
    }) as VirtualService;
    for (const addr of ['10.244.1.10', '10.244.2.7', '10.244.2.8'])
      addDest(svc, { addr, port: 8080, weight: 1, fwd: 'Masq' });
    expect(schedule(svc, pkt('10.244.1.5'))?.addr).toBe('10.244.2.7');
    const table = svc.sched.kind === 'table' ? svc.sched.buckets : [];
    const counts = ['10.244.1.10', '10.244.2.7', '10.244.2.8'].map(
      (a) => table.filter((d) => d?.addr === a).length,
    );
    expect(counts).toEqual([1365, 1364, 1364]);
  });
});
