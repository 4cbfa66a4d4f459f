/**
 * TCP tracking, table-driven. Expected values cite nf_conntrack_proto_tcp.c (tcp_conntracks[]
 * and nf_conntrack_tcp_packet()) or a run on kernel 6.18 in a network namespace (the event
 * lines quoted were printed by `conntrack -E` there, ports kept).
 */
import { describe, expect, it } from 'vitest';
import { rngFromSeed } from '../model/runtime';
import {
  conntrackCommand,
  createConntrackTable,
  IPS,
  kernelDefaultConfig,
  kubeProxyConfig,
  remainingSeconds,
  type CtConfig,
  type CtTable,
  type TcpFlags,
} from './index';
import { walk, type WalkResult } from './testing';

const C = '10.0.0.1';
const S = '10.0.0.2';
/**
 * A packet script: `c:S s:SA c:A/100@3000` — who sends (client or server), the flags, an
 * optional payload length and an optional virtual time in ms (kept for later packets).
 */
type Script = string;

function flagsOf(text: string): TcpFlags {
  return {
    syn: text.includes('S'),
    ack: text.includes('A'),
    fin: text.includes('F'),
    rst: text.includes('R'),
    urg: text.includes('U'),
  };
}

/** Client C:sport ⇄ server S:8080, seen on the client's node (OUTPUT / INPUT). */
function run(script: Script, table: CtTable = createConntrackTable(), sport = 40010) {
  const rng = rngFromSeed(1);
  const results: WalkResult[] = [];
  let now = 0;
  for (const step of script.split(' ').filter((w) => w !== '')) {
    const m = /^([cs]):([SAFRU]*)(?:\/(\d+))?(?:@(\d+))?$/.exec(step);
    if (!m) throw new Error(`bad step ${step}`);
    const [, who, flags = '', payload, at] = m;
    now = at !== undefined ? Number(at) : now;
    const p =
      who === 'c'
        ? { src: C, dst: S, sport, dport: 8080 }
        : { src: S, dst: C, sport: 8080, dport: sport };
    const packet = {
      ...p,
      proto: 'tcp' as const,
      tcpFlags: flagsOf(flags),
      ...(payload ? { payloadBytes: Number(payload) } : {}),
    };
    results.push(walk(table, who === 'c' ? 'local-out' : 'local-in', packet, now, rng));
  }
  const entry = Object.values(table.entries).at(-1);
  return { table, results, entry, now };
}

function events(table: CtTable): string[] {
  return conntrackCommand(table, ['-E'], 0).stdout.trimEnd().split('\n');
}

describe('TCP transitions (tcp_conntracks[][][])', () => {
  const cases: [string, Script, string, string, number][] = [
    // name, packets, final state, ctstate of the last packet, timeout (s)
    ['SYN opens SYN_SENT', 'c:S', 'SYN_SENT', 'NEW', 120],
    ['SYN-ACK reply → SYN_RECV', 'c:S s:SA', 'SYN_RECV', 'ESTABLISHED', 60],
    ['handshake ACK → ESTABLISHED', 'c:S s:SA c:A', 'ESTABLISHED', 'ESTABLISHED', 432000],
    ['reply SYN → SYN_SENT2 (simultaneous open)', 'c:S s:S', 'SYN_SENT2', 'ESTABLISHED', 120],
    ['simultaneous open completes', 'c:S s:S c:SA s:A', 'ESTABLISHED', 'ESTABLISHED', 432000],
    ['client FIN → FIN_WAIT', 'c:S s:SA c:A c:FA', 'FIN_WAIT', 'ESTABLISHED', 120],
    ['ACK of the FIN → CLOSE_WAIT', 'c:S s:SA c:A c:FA s:A', 'CLOSE_WAIT', 'ESTABLISHED', 60],
    ['second FIN → LAST_ACK', 'c:S s:SA c:A c:FA s:FA', 'LAST_ACK', 'ESTABLISHED', 30],
    ['last ACK → TIME_WAIT', 'c:S s:SA c:A c:FA s:FA c:A', 'TIME_WAIT', 'ESTABLISHED', 120],
    ['RST → CLOSE with the close timeout', 'c:S s:SA c:A c:RA', 'CLOSE', 'ESTABLISHED', 10],
    ['bare ACK without entry: tcp_loose pickup, capped at 300 s', 'c:A', 'ESTABLISHED', 'NEW', 300],
    [
      'data not yet ACKed caps ESTABLISHED at unacknowledged',
      'c:S s:SA c:A c:A/100',
      'ESTABLISHED',
      'ESTABLISHED',
      300,
    ],
    [
      'the peer ACK lifts the cap',
      'c:S s:SA c:A c:A/100 s:A',
      'ESTABLISHED',
      'ESTABLISHED',
      432000,
    ],
    [
      'SYN in ESTABLISHED is ignored (sIG)',
      'c:S s:SA c:A c:S',
      'ESTABLISHED',
      'ESTABLISHED',
      432000,
    ],
    ['retransmitted SYN-ACK is ignored', 'c:S s:SA s:SA', 'SYN_RECV', 'ESTABLISHED', 60],
  ];
  it.each(cases)('%s', (_name, steps, state, ctstate, timeout) => {
    const { results, entry, now } = run(steps);
    const last = results.at(-1)?.ct;
    expect(entry?.tcp?.state).toBe(state);
    expect(last?.ctstate).toBe(ctstate);
    expect(entry && remainingSeconds(entry, now)).toBe(timeout);
  });

  it('packets the table marks sIV get ctstate INVALID and leave the entry as it was', () => {
    const { results, entry } = run('c:S c:A'); // ACK before SYN-ACK
    expect(results[1]?.ct).toMatchObject({ kind: 'invalid', ctstate: 'INVALID' });
    expect(entry?.tcp?.state).toBe('SYN_SENT');
  });

  it.each([['SA'], ['FA'], ['R'], ['RA'], ['F'], ['SF'], ['']])(
    '%s without an entry is INVALID and creates none (tcp_new / tcp_error)',
    (flags) => {
      const { table, results } = run(`c:${flags}`);
      expect(results[0]?.ct.ctstate).toBe('INVALID');
      expect(Object.keys(table.entries)).toHaveLength(0);
    },
  );

  it('with nf_conntrack_tcp_loose=0 a bare ACK cannot start an entry', () => {
    const config: CtConfig = { ...kernelDefaultConfig(), tcpLoose: false };
    const { results } = run('c:A', createConntrackTable(config));
    expect(results[0]?.ct.ctstate).toBe('INVALID');
  });
});

describe('nf_conntrack_tcp_packet() special cases', () => {
  it('handshake events as `conntrack -E` printed them on the kernel', () => {
    const { table } = run('c:S s:SA c:A c:FA s:FA c:A', undefined, 40011);
    const tuple = 'src=10.0.0.1 dst=10.0.0.2 sport=40011 dport=8080';
    const rtuple = 'src=10.0.0.2 dst=10.0.0.1 sport=8080 dport=40011';
    expect(events(table)).toEqual([
      `    [NEW] tcp      6 120 SYN_SENT ${tuple} [UNREPLIED] ${rtuple}`,
      ` [UPDATE] tcp      6 60 SYN_RECV ${tuple} ${rtuple}`,
      ` [UPDATE] tcp      6 432000 ESTABLISHED ${tuple} ${rtuple} [ASSURED]`,
      ` [UPDATE] tcp      6 120 FIN_WAIT ${tuple} ${rtuple} [ASSURED]`,
      ` [UPDATE] tcp      6 30 LAST_ACK ${tuple} ${rtuple} [ASSURED]`,
      ` [UPDATE] tcp      6 120 TIME_WAIT ${tuple} ${rtuple} [ASSURED]`,
    ]);
  });

  it('retransmitted SYNs are NEW and do not renew the timeout', () => {
    const { results, entry, now } = run('c:S c:S@3000');
    expect(results[1]?.ct.ctstate).toBe('NEW');
    expect(entry && remainingSeconds(entry, now)).toBe(117);
  });

  it('an RST as the only reply deletes the entry at once (kernel: DESTROY keeps 120 and shows CLOSE)', () => {
    const { table, results } = run('c:S s:RA', undefined, 40012);
    expect(results[1]?.ct).toMatchObject({ kind: 'tracked', killed: true, ctstate: 'ESTABLISHED' });
    expect(table.count).toBe(0);
    expect(events(table)[1]).toBe(
      '[DESTROY] tcp      6 120 CLOSE src=10.0.0.1 dst=10.0.0.2 sport=40012 dport=8080 [UNREPLIED] src=10.0.0.2 dst=10.0.0.1 sport=8080 dport=40012',
    );
  });

  it('a SYN on TIME_WAIT kills the entry and opens a new one (kernel-observed events)', () => {
    const close: Script = 'c:S s:SA c:A s:FA c:A c:FA s:A';
    const { table, results } = run(`${close} c:S@1000`, undefined, 40070);
    const last = results.at(-1)?.ct;
    expect(last).toMatchObject({ kind: 'tracked', ctstate: 'NEW', created: true, replacedId: 1 });
    const ev = events(table);
    expect(ev.slice(3, 7).map((l) => l.split(' src=')[0])).toEqual([
      ' [UPDATE] tcp      6 120 FIN_WAIT',
      ' [UPDATE] tcp      6 60 CLOSE_WAIT',
      ' [UPDATE] tcp      6 30 LAST_ACK',
      ' [UPDATE] tcp      6 120 TIME_WAIT',
    ]);
    expect(ev.slice(7).map((l) => l.split(' src=')[0])).toEqual([
      '[DESTROY] tcp      6 119 TIME_WAIT',
      '    [NEW] tcp      6 120 SYN_SENT',
    ]);
  });

  it('a SYN after the peer reset is ignored unless this side sent the RST', () => {
    const est: Script = 'c:S s:SA c:A';
    const peer = run(`${est} s:R c:S`);
    expect(peer.results.at(-1)?.ct).toMatchObject({ ctstate: 'ESTABLISHED' });
    expect(peer.results.at(-1)?.ct.kind === 'tracked' && peer.results.at(-1)?.ct).toHaveProperty(
      'ignored',
    );
    // The SYN-ACK answering the ignored SYN resynchronises: SYN_RECV.
    const resync = run(`${est} s:R c:S s:SA`);
    expect(resync.entry?.tcp?.state).toBe('SYN_RECV');
    const own = run(`${est} c:R c:S`);
    expect(own.results.at(-1)?.ct).toMatchObject({ ctstate: 'NEW', replacedId: 1 });
  });

  it('a picked-up connection is ASSURED on the packet after the first reply', () => {
    const { entry, results } = run('c:A s:A c:A');
    expect(results[1]?.ct.ctstate).toBe('ESTABLISHED');
    expect(entry && entry.status & IPS.ASSURED).toBeTruthy();
    const early = run('c:A s:A');
    expect(early.entry && early.entry.status & IPS.ASSURED).toBe(0);
  });

  it('kernel-observed pickup: server ACK, server FIN, client ACK → CLOSE_WAIT, not assured', () => {
    const table = createConntrackTable();
    const rng = rngFromSeed(1);
    const pkt = (src: string, dst: string, sport: number, dport: number, f: string) => ({
      src,
      dst,
      sport,
      dport,
      proto: 'tcp' as const,
      tcpFlags: flagsOf(f),
    });
    walk(table, 'local-in', pkt(S, C, 8080, 40020, 'A'), 0, rng);
    walk(table, 'local-in', pkt(S, C, 8080, 40020, 'FA'), 0, rng);
    walk(table, 'local-out', pkt(C, S, 40020, 8080, 'A'), 0, rng);
    expect(conntrackCommand(table, ['-L'], 9000).stdout).toBe(
      'tcp      6 51 CLOSE_WAIT src=10.0.0.2 dst=10.0.0.1 sport=8080 dport=40020 src=10.0.0.1 dst=10.0.0.2 sport=40020 dport=8080 mark=0 use=1\n',
    );
  });

  it('max_retrans retransmissions cap the timeout at timeout_max_retrans', () => {
    const table = createConntrackTable();
    const base: Script = 'c:S s:SA c:A';
    const { entry } = run(base, table);
    const rng = rngFromSeed(2);
    const p = { src: C, dst: S, sport: 40010, dport: 8080, proto: 'tcp' as const };
    for (let i = 0; i < 4; i++) {
      walk(table, 'local-out', { ...p, tcpFlags: { ack: true }, retransmission: true }, 0, rng);
    }
    expect(entry && remainingSeconds(entry, 0)).toBe(300);
  });

  it("kube-proxy's preset: ESTABLISHED 86400 s, CLOSE_WAIT 3600 s", () => {
    const est = run('c:S s:SA c:A', createConntrackTable(kubeProxyConfig()));
    expect(est.entry && remainingSeconds(est.entry, 0)).toBe(86400);
    const cw = run('c:S s:SA c:A s:FA c:A', createConntrackTable(kubeProxyConfig()));
    expect(cw.entry?.tcp?.state).toBe('CLOSE_WAIT');
    expect(cw.entry && remainingSeconds(cw.entry, 0)).toBe(3600);
  });
});
