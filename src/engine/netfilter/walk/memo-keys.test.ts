/**
 * The walk memo's keys and generations (memo.ts), case by case: each stateless condition keys
 * on what it reads, a walk of an established flow is replayed for another flow, an edit of the
 * table forgets every walk, and skipping rules by destination keys on the destination.
 */
import { describe, expect, it } from 'vitest';
import { rngFromSeed } from '../../model/runtime';
import { iptablesCommand } from '../command';
import { createNetfilter } from '../state';
import type { NetfilterState } from '../types';
import { replayWalk } from './memo';
import { createWalkStore } from './store';
import { traverseTable } from './traverse';
import type { ConntrackInfo, Packet, WalkContext } from './types';
import { loadRules, packet, type PacketPatch } from './walk-fixtures';

interface Node {
  readonly state: NetfilterState;
  readonly ctx: Omit<WalkContext, 'conntrack'>;
}

function node(state: NetfilterState): Node {
  return {
    state,
    ctx: { isLocalAddress: () => false, rng: rngFromSeed(7), now: 0, store: createWalkStore() },
  };
}

function commands(list: readonly (readonly string[])[]): NetfilterState {
  const state = createNetfilter();
  for (const argv of list) iptablesCommand(state, argv);
  return state;
}

describe('walk memo keys', () => {
  // Each stateless condition, and two packets that differ only in a field it reads.
  const READS: [string, PacketPatch, PacketPatch, ConntrackInfo?, ConntrackInfo?][] = [
    ['-s 10.0.0.1', { src: '10.0.0.1' }, { src: '10.0.0.3' }],
    ['-d 10.0.0.2', { dst: '10.0.0.2' }, { dst: '10.0.0.4' }],
    ['-i eth0', { inIface: 'eth0' }, { inIface: 'cni0' }],
    ['-o eth1', { outIface: 'eth1' }, { outIface: 'cni0' }],
    ['-p tcp', { protocol: 'tcp' }, { protocol: 'udp' }],
    ['-f', { fragOffset: 8 }, { fragOffset: 0 }],
    ['-p tcp --sport 40000', { sport: 40000 }, { sport: 40001 }],
    ['-p tcp --dport 80', { dport: 80 }, { dport: 53 }],
    ['-p tcp -m multiport --dports 80,443', { dport: 443 }, { dport: 53 }],
    ['-m mark --mark 0x1', { mark: 1 }, { mark: 0 }],
    ['-m physdev --physdev-in veth1', { physIn: 'veth1' }, { physIn: 'veth2' }],
    ['-m physdev --physdev-is-bridged', { physOut: 'veth1' }, { physOut: undefined }],
    ['-m conntrack --ctstate NEW', {}, {}, { state: 'NEW' }, { state: 'ESTABLISHED' }],
    ['-m conntrack --ctstate DNAT', {}, {}, { state: 'NEW', dnat: true }, { state: 'NEW' }],
    ['-m conntrack --ctstate SNAT', {}, {}, { state: 'NEW', snat: true }, { state: 'NEW' }],
  ];
  const NEW: ConntrackInfo = { state: 'NEW' };
  for (const [cond, a, b, ctA = NEW, ctB = ctA] of READS) {
    it(`keys on what ${cond} reads`, () => {
      const n = node(commands([['-A', 'FORWARD', ...cond.split(' '), '-j', 'DROP']]));
      const walk = (p: Packet, ct: ConntrackInfo) =>
        replayWalk(n.state, 'filter', 'FORWARD', p, ct)?.verdict ??
        traverseTable(
          n.state,
          'filter',
          'FORWARD',
          p,
          { ...n.ctx, conntrack: ct },
          {
            steps: 'none',
            memo: true,
          },
        ).verdict;
      expect(walk(packet(a), ctA)).toBe('DROP');
      expect(walk(packet(b), ctB)).toBe('ACCEPT');
      expect(walk(packet(a), ctA)).toBe('DROP');
    });
  }

  it('replays the walks of established flows (kube-proxy FORWARD), bumping the counters', () => {
    const text =
      '*filter\n:KUBE-FORWARD - [0:0]\n' +
      '-A FORWARD -m conntrack --ctstate NEW -j ACCEPT\n' +
      '-A FORWARD -j KUBE-FORWARD\n' +
      '-A KUBE-FORWARD -m conntrack --ctstate INVALID -m nfacct --nfacct-name bad -j DROP\n' +
      '-A KUBE-FORWARD -m mark --mark 0x4000/0x4000 -j ACCEPT\n' +
      '-A KUBE-FORWARD -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT\nCOMMIT\n';
    const n = node(loadRules(text));
    const ct: ConntrackInfo = { state: 'ESTABLISHED', dir: 'ORIGINAL', dnat: true };
    const walk = (p: Packet) =>
      replayWalk(n.state, 'filter', 'FORWARD', p, ct) ??
      traverseTable(
        n.state,
        'filter',
        'FORWARD',
        p,
        { ...n.ctx, conntrack: ct },
        {
          steps: 'none',
          memo: true,
        },
      );
    walk(packet({ length: 60 }));
    // Another flow: the walk read ctstate and the mark only, so it is a replay.
    expect(
      replayWalk(n.state, 'filter', 'FORWARD', packet({ src: '10.9.9.9', length: 100 }), ct),
    ).toBeDefined();
    const fwd = n.state.tables.filter!.chains.find((c) => c.name === 'KUBE-FORWARD')!;
    expect(fwd.rules.map((r) => [r.counters.packets, r.counters.bytes])).toEqual([
      [0, 0],
      [0, 0],
      [2, 160],
    ]);
    expect(n.ctx.store.nfacct).toEqual({});
    // A marked packet reads differently: not a replay.
    expect(replayWalk(n.state, 'filter', 'FORWARD', packet({ mark: 0x4000 }), ct)).toBeUndefined();
  });

  it('forgets every walk when the table changes (a rule added to a user chain, -Z, -P)', () => {
    const n = node(
      commands([
        ['-N', 'U'],
        ['-A', 'FORWARD', '-j', 'U'],
        ['-A', 'U', '-m', 'conntrack', '--ctstate', 'NEW'],
      ]),
    );
    const ct: ConntrackInfo = { state: 'NEW' };
    const walk = () =>
      replayWalk(n.state, 'filter', 'FORWARD', packet(), ct)?.verdict ??
      traverseTable(
        n.state,
        'filter',
        'FORWARD',
        packet(),
        { ...n.ctx, conntrack: ct },
        {
          steps: 'none',
          memo: true,
        },
      ).verdict;
    const uCounts = () =>
      n.state.tables.filter!.chains.find((c) => c.name === 'U')!.rules.map((r) => r.counters);
    expect([walk(), walk()]).toEqual(['ACCEPT', 'ACCEPT']);
    expect(uCounts()).toEqual([{ packets: 2, bytes: 120 }]);
    iptablesCommand(n.state, ['-A', 'U', '-p', 'tcp', '-j', 'DROP']);
    expect([walk(), walk()]).toEqual(['DROP', 'DROP']);
    iptablesCommand(n.state, ['-Z']);
    expect(walk()).toBe('DROP');
    expect(uCounts()).toEqual([
      { packets: 1, bytes: 60 },
      { packets: 1, bytes: 60 },
    ]);
    iptablesCommand(n.state, ['-D', 'U', '2']);
    iptablesCommand(n.state, ['-P', 'FORWARD', 'DROP']);
    expect([walk(), walk()]).toEqual(['DROP', 'DROP']);
    expect(n.state.tables.filter!.chains[1]!.counters).toEqual({ packets: 2, bytes: 120 });
  });

  it('keys on the destination when the walk skipped rules by it (rule-index.ts)', () => {
    let text = '*nat\n:SVC - [0:0]\n-A PREROUTING -j SVC\n';
    for (let i = 0; i < 40; i++) text += `-A SVC -d 10.96.0.${i}/32 -j ACCEPT\n`;
    text += '-A SVC -j RETURN\nCOMMIT\n';
    const n = node(loadRules(text));
    const ct: ConntrackInfo = { state: 'NEW' };
    const first = packet({ dst: '10.96.0.99' });
    const r = traverseTable(
      n.state,
      'nat',
      'PREROUTING',
      first,
      { ...n.ctx, conntrack: ct },
      {
        steps: 'none',
        memo: true,
      },
    );
    expect(r.verdict).toBe('ACCEPT');
    expect(
      replayWalk(n.state, 'nat', 'PREROUTING', packet({ dst: '10.96.0.99' }), ct),
    ).toBeDefined();
    // 10.96.0.3 matches rule 4 (skipped for .99): the walk must be done again.
    expect(
      replayWalk(n.state, 'nat', 'PREROUTING', packet({ dst: '10.96.0.3' }), ct),
    ).toBeUndefined();
  });
});
