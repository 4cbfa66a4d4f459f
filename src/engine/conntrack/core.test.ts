/**
 * Lifecycle (unconfirmed → confirmed → expired), UDP and ICMP tracking, ctstate. Expected
 * values cite nf_conntrack_core.c, nf_conntrack_proto_udp.c, nf_conntrack_proto_icmp.c or
 * lines printed on kernel 6.18 (`conntrack -L`/`-E` in a network namespace).
 */
import { describe, expect, it } from 'vitest';
import { rngFromSeed } from '../model/runtime';
import {
  conntrackCommand,
  createConntrackTable,
  ctConfirm,
  ctDrop,
  ctExpire,
  ctLookupOrCreate,
  ctMatchInfo,
  ctSetMark,
  IPS,
  remainingSeconds,
  type CtPacket,
  type CtTable,
} from './index';
import { walk } from './testing';

const rng = rngFromSeed(7);
const udp = (sport: number, dport: number, src = '10.0.0.1', dst = '10.0.0.2'): CtPacket => ({
  src,
  dst,
  proto: 'udp',
  sport,
  dport,
});
const back = (p: CtPacket): CtPacket => ({
  ...p,
  src: p.dst,
  dst: p.src,
  ...(p.sport !== undefined && p.dport !== undefined ? { sport: p.dport, dport: p.sport } : {}),
});
const list = (t: CtTable, now: number, ...args: string[]): string =>
  conntrackCommand(t, ['-L', ...args], now).stdout;
const ev = (t: CtTable): string[] => conntrackCommand(t, ['-E'], 0).stdout.trimEnd().split('\n');

describe('unconfirmed entries (init_conntrack / __nf_conntrack_confirm)', () => {
  it('a new entry is invisible until confirmed, then listed and announced [NEW]', () => {
    const t = createConntrackTable();
    const r = ctLookupOrCreate(t, udp(40001, 7000), 0);
    expect(r).toMatchObject({ kind: 'tracked', ctstate: 'NEW', created: true, dir: 'ORIGINAL' });
    expect(list(t, 0)).toBe('');
    expect(conntrackCommand(t, ['-L', 'unconfirmed'], 0).stdout).toContain('sport=40001');
    expect(t.events).toHaveLength(0);
    if (r.kind !== 'tracked') throw new Error('untracked');
    expect(ctConfirm(t, r.entry, 0)).toEqual({ ok: true, inserted: true });
    expect(r.entry.status & IPS.CONFIRMED).toBeTruthy();
    expect(ev(t)).toEqual([
      '    [NEW] udp      17 30 src=10.0.0.1 dst=10.0.0.2 sport=40001 dport=7000 [UNREPLIED] src=10.0.0.2 dst=10.0.0.1 sport=7000 dport=40001',
    ]);
  });

  it('a dropped packet frees its unconfirmed entry without events', () => {
    const t = createConntrackTable();
    const r = walk(t, 'local-out', udp(40001, 7000), 0, rng, {}, true);
    expect(r.dropped).toBe(true);
    expect(Object.keys(t.entries)).toHaveLength(0);
    expect(t.events).toHaveLength(0);
    if (r.ct.kind === 'tracked') expect(ctDrop(t, r.ct.entry)).toBe(false);
  });

  it('the timeout counts from confirmation; the views print floor(remaining seconds)', () => {
    const t = createConntrackTable();
    const r = ctLookupOrCreate(t, udp(40001, 7000), 0);
    if (r.kind !== 'tracked') throw new Error('untracked');
    ctConfirm(t, r.entry, 500);
    expect(remainingSeconds(r.entry, 500)).toBe(30);
    expect(remainingSeconds(r.entry, 501)).toBe(29);
    expect(remainingSeconds(r.entry, 30_499)).toBe(0);
  });

  it('expiry removes the entry at its deadline with a [DESTROY] without timeout (kernel line)', () => {
    const t = createConntrackTable();
    walk(t, 'local-out', udp(40060, 7001), 0, rng);
    expect(ctExpire(t, 29_999)).toEqual([]);
    expect(ctExpire(t, 30_000)).toEqual([1]);
    expect(ev(t)[1]).toBe(
      '[DESTROY] udp      17 src=10.0.0.1 dst=10.0.0.2 sport=40060 dport=7001 [UNREPLIED] src=10.0.0.2 dst=10.0.0.1 sport=7001 dport=40060',
    );
    expect(t.count).toBe(0);
  });

  it('a lookup hitting an expired entry collects it and starts a new one', () => {
    const t = createConntrackTable();
    walk(t, 'local-out', udp(40001, 7000), 0, rng);
    const r = walk(t, 'local-out', udp(40001, 7000), 31_000, rng);
    expect(r.ct).toMatchObject({ ctstate: 'NEW', created: true });
    expect(ev(t).map((l) => l.slice(0, 9))).toEqual(['    [NEW]', '[DESTROY]', '    [NEW]']);
  });
});

describe('UDP (nf_conntrack_udp_packet)', () => {
  it('request and response: 30 s, reply seen, not assured (kernel: `udp 17 25 …` after 5 s)', () => {
    const t = createConntrackTable();
    const q = udp(40001, 7000);
    walk(t, 'local-out', q, 0, rng);
    const r = walk(t, 'local-in', back(q), 10, rng);
    expect(r.ct.ctstate).toBe('ESTABLISHED');
    expect(list(t, 5010)).toBe(
      'udp      17 25 src=10.0.0.1 dst=10.0.0.2 sport=40001 dport=7000 src=10.0.0.2 dst=10.0.0.1 sport=7000 dport=40001 mark=0 use=1\n',
    );
    expect(ev(t)[1]).toBe(
      ' [UPDATE] udp      17 30 src=10.0.0.1 dst=10.0.0.2 sport=40001 dport=7000 src=10.0.0.2 dst=10.0.0.1 sport=7000 dport=40001',
    );
  });

  it.each([
    ['a packet 2.5 s after creation makes it a stream: 120 s and ASSURED', 2500, 120, true],
    ['at exactly 2 s it is not yet a stream (time_after is strict)', 2000, 30, false],
  ])('%s', (_n, at, timeout, assured) => {
    const t = createConntrackTable();
    const q = udp(40004, 7000);
    walk(t, 'local-out', q, 0, rng);
    walk(t, 'local-in', back(q), 1, rng);
    walk(t, 'local-out', q, at, rng);
    const e = t.entries[1];
    expect(e && remainingSeconds(e, at)).toBe(timeout);
    expect(Boolean(e && e.status & IPS.ASSURED)).toBe(assured);
  });

  it('one-way packets keep refreshing 30 s and stay [UNREPLIED]', () => {
    const t = createConntrackTable();
    walk(t, 'local-out', udp(40002, 7001), 0, rng);
    walk(t, 'local-out', udp(40002, 7001), 20_000, rng);
    expect(list(t, 25_000)).toContain('udp      17 25 src=10.0.0.1 dst=10.0.0.2 sport=40002');
    expect(list(t, 25_000)).toContain('[UNREPLIED]');
  });
});

describe('ICMP (nf_conntrack_proto_icmp.c)', () => {
  const echo: CtPacket = {
    src: '10.0.0.1',
    dst: '10.0.0.2',
    proto: 'icmp',
    icmpType: 8,
    icmpCode: 0,
    icmpId: 4242,
  };
  const reply: CtPacket = { ...echo, src: echo.dst, dst: echo.src, icmpType: 0 };

  it('echo and reply: 30 s, never assured (kernel line)', () => {
    const t = createConntrackTable();
    walk(t, 'local-out', echo, 0, rng);
    walk(t, 'local-in', reply, 0, rng);
    expect(list(t, 1000)).toBe(
      'icmp     1 29 src=10.0.0.1 dst=10.0.0.2 type=8 code=0 id=4242 src=10.0.0.2 dst=10.0.0.1 type=0 code=0 id=4242 mark=0 use=1\n',
    );
  });

  it('an echo reply without an entry cannot create one (valid_new[])', () => {
    const t = createConntrackTable();
    expect(walk(t, 'local-in', reply, 0, rng).ct.ctstate).toBe('INVALID');
    expect(Object.keys(t.entries)).toHaveLength(0);
  });

  it('an ICMP error about a tracked flow is RELATED (reply direction)', () => {
    const t = createConntrackTable();
    const q = udp(40002, 7001);
    walk(t, 'local-out', q, 0, rng);
    const err: CtPacket = {
      src: '10.0.0.2',
      dst: '10.0.0.1',
      proto: 'icmp',
      icmpType: 3,
      icmpCode: 3,
      icmpInner: { ...q },
    };
    expect(ctLookupOrCreate(t, err, 10)).toMatchObject({ ctstate: 'RELATED', dir: 'REPLY' });
    expect(ctLookupOrCreate(t, { ...err, icmpInner: { ...q, sport: 1 } }, 10).ctstate).toBe(
      'INVALID',
    );
  });
});

describe('ctstate for -m conntrack', () => {
  it('NEW until a reply was seen, ESTABLISHED after; UNTRACKED with notrack', () => {
    const t = createConntrackTable();
    const q = udp(40001, 7000);
    expect(walk(t, 'local-out', q, 0, rng).ct.ctstate).toBe('NEW');
    expect(walk(t, 'local-out', q, 1, rng).ct.ctstate).toBe('NEW');
    expect(walk(t, 'local-in', back(q), 2, rng).ct.ctstate).toBe('ESTABLISHED');
    const again = walk(t, 'local-out', q, 3, rng).ct;
    expect(ctMatchInfo(again)).toEqual({
      state: 'ESTABLISHED',
      dir: 'ORIGINAL',
      snat: false,
      dnat: false,
      mark: 0,
    });
    expect(ctLookupOrCreate(t, q, 4, { notrack: true }).ctstate).toBe('UNTRACKED');
  });

  it('CONNMARK changes are reported with the mark', () => {
    const t = createConntrackTable();
    const r = walk(t, 'local-out', udp(40001, 7000), 0, rng).ct;
    if (r.kind !== 'tracked') throw new Error('untracked');
    ctSetMark(t, r.entry, 0x4000, 0);
    expect(ev(t)[1]).toMatch(/^ \[UPDATE\] udp {6}17 30 .* mark=16384$/);
    expect(list(t, 0, '-m', '0x4000/0x4000')).toContain('mark=16384 use=1');
  });
});

describe('state is plain data', () => {
  it('a JSON round trip keeps working: snapshots can be sent and restored', () => {
    const t = createConntrackTable();
    const q = udp(40001, 7000);
    walk(t, 'local-out', q, 0, rng);
    const copy = JSON.parse(JSON.stringify(t)) as CtTable;
    expect(copy).toEqual(t);
    expect(walk(copy, 'local-in', back(q), 10, rng).ct.ctstate).toBe('ESTABLISHED');
    expect(conntrackCommand(copy, ['-E'], 10, { eventsSince: 1 }).stdout).toMatch(/^ \[UPDATE\]/);
    expect(
      conntrackCommand(copy, ['-E'], 10, { eventsSinceMs: 5 }).stdout.split('\n'),
    ).toHaveLength(2);
  });
});
