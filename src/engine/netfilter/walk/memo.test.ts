/**
 * The walk memo (memo.ts) against the walk itself: random rulesets (stateless and stateful
 * conditions, every kind of target, jumps and gotos), random packets and conntrack views, and
 * edits of the table between packets (insert, delete, replace, policy, zero). A node that asks
 * the memo first and walks only on a miss must give the same verdicts, NAT requests, REJECT
 * answers, marks, counters, random draws and match state as one that always walks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rngFromSeed } from '../../model/runtime';
import { iptablesCommand } from '../command';
import type { NetfilterState, TableName } from '../types';
import { replayWalk } from './memo';
import { createWalkStore } from './store';
import { traverseTable } from './traverse';
import type { ConntrackInfo, Hook, Packet, TraverseResult, WalkContext } from './types';
import { createNetfilter } from '../state';
import { loadRules, packet, type PacketPatch } from './walk-fixtures';

/** Conditions a rule may have (each kind of dependency, and the stateful matches). */
const CONDITIONS = [
  '',
  '-s 10.0.0.1',
  '! -s 10.0.0.0/31',
  '-d 10.0.0.2',
  '-i eth0',
  '-o eth1',
  '-p tcp',
  '-p udp',
  '-p tcp --dport 80',
  '-p tcp -m multiport --sports 40000:40001',
  '-f',
  '-m mark --mark 0x4000/0x4000',
  '-m mark ! --mark 0x1',
  '-m conntrack --ctstate NEW',
  '-m conntrack --ctstate RELATED,ESTABLISHED',
  '-m conntrack --ctstate INVALID -m nfacct --nfacct-name bad',
  '-m conntrack --ctstate DNAT',
  '-m conntrack ! --ctstate SNAT',
  '-m comment --comment x',
  '-m physdev --physdev-in veth1',
  '-m statistic --mode random --probability 0.5',
  '-m statistic --mode nth --every 3 --packet 0',
  '-m addrtype --dst-type LOCAL',
  '-m recent --name r --set',
];

const TARGETS: Record<'filter' | 'nat', readonly string[]> = {
  filter: ['', '-j ACCEPT', '-j DROP', '-j REJECT', '-j RETURN', '-j MARK --set-xmark 0x1/0x1'],
  nat: ['', '-j ACCEPT', '-j DNAT --to-destination 10.1.1.1:8080', '-j MASQUERADE', '-j RETURN'],
};
const MORE_TARGETS = ['-j A', '-g B', '-j B', '-j CONNMARK --set-xmark 0x2/0x2', '-j LOG'];

interface RuleSpec {
  readonly chain: 'A' | 'B' | 'BASE';
  readonly cond: number;
  readonly cond2: number;
  readonly target: number;
}

const aRule = fc.record({
  chain: fc.constantFrom('A' as const, 'B' as const, 'BASE' as const),
  cond: fc.nat(CONDITIONS.length - 1),
  cond2: fc.nat(CONDITIONS.length - 1),
  target: fc.nat(TARGETS.filter.length + MORE_TARGETS.length - 1),
});

/** The rule's text: jumps only go down (BASE → A → B) so that no ruleset loops. */
function ruleText(r: RuleSpec, table: 'filter' | 'nat'): string {
  const own = TARGETS[table];
  let target = r.target < own.length ? own[r.target]! : MORE_TARGETS[r.target - own.length]!;
  if (target === '-j A' && r.chain !== 'BASE') target = '-j RETURN';
  if ((target === '-g B' || target === '-j B') && r.chain === 'B') target = '';
  return `${CONDITIONS[r.cond]} ${CONDITIONS[r.cond2]} ${target}`.trim().replace(/ +/g, ' ');
}

/** The ruleset's commands (those iptables refuses, like -o at PREROUTING, are left out). */
function rulesetCommands(table: 'filter' | 'nat', hook: Hook, rules: readonly RuleSpec[]) {
  return [
    ['-t', table, '-N', 'A'],
    ['-t', table, '-N', 'B'],
    ...rules.map((r) => [
      '-t',
      table,
      '-A',
      r.chain === 'BASE' ? hook : r.chain,
      ...words(r, table),
    ]),
  ];
}

function words(r: RuleSpec, table: 'filter' | 'nat'): string[] {
  const t = ruleText(r, table);
  return t === '' ? [] : t.split(' ');
}

interface PacketSpec {
  readonly src: string;
  readonly dst: string;
  readonly protocol: 'tcp' | 'udp';
  readonly sport: number;
  readonly dport: number;
  readonly mark: number;
  readonly frag: boolean;
  readonly inIface: string;
  readonly outIface: string | undefined;
  readonly physIn: string | undefined;
  readonly ct: ConntrackInfo;
}

const FIELDS = {
  src: fc.constantFrom('10.0.0.1', '10.0.0.3', '10.0.0.0'),
  dst: fc.constantFrom('10.0.0.2', '10.0.0.4'),
  protocol: fc.constantFrom('tcp' as const, 'udp' as const),
  sport: fc.constantFrom(40000, 40001, 50000),
  dport: fc.constantFrom(80, 53),
  mark: fc.constantFrom(0, 1, 0x4000, 0x4001),
  frag: fc.boolean(),
  inIface: fc.constantFrom('eth0', 'cni0'),
  outIface: fc.constantFrom('eth1', 'cni0', undefined),
  physIn: fc.constantFrom('veth1', 'veth2', undefined),
  ct: fc.oneof(
    fc.constant<ConntrackInfo>({ state: 'INVALID' }),
    fc.record({
      state: fc.constantFrom('NEW' as const, 'ESTABLISHED' as const, 'RELATED' as const),
      dir: fc.constantFrom('ORIGINAL' as const, 'REPLY' as const),
      snat: fc.boolean(),
      dnat: fc.boolean(),
      mark: fc.constantFrom(0, 2),
    }),
  ),
};

const aPacket: fc.Arbitrary<PacketSpec> = fc.record(FIELDS);

/**
 * A run's few packets: one, and others that each differ from it in one field (so that a key
 * missing that field shows).
 */
const somePackets: fc.Arbitrary<PacketSpec[]> = fc
  .tuple(
    aPacket,
    fc.array(fc.tuple(fc.constantFrom(...(Object.keys(FIELDS) as (keyof PacketSpec)[])), aPacket), {
      maxLength: 3,
    }),
  )
  .map(([base, others]) => [base, ...others.map(([k, o]) => ({ ...base, [k]: o[k] }))]);

/**
 * A packet (one of the run's few, so that walks repeat; its length of its own), or an edit of
 * the table between packets (a new generation).
 */
type Event =
  | { readonly kind: 'packet'; readonly which: number; readonly length: number }
  | { readonly kind: 'edit'; readonly argv: readonly string[] };

function anEvent(table: 'filter' | 'nat', hook: Hook): fc.Arbitrary<Event> {
  const edit = fc.oneof(
    aRule.map((r) => ['-I', hook, '1', ...words(r, table)]),
    aRule.map((r) => ['-A', r.chain === 'BASE' ? hook : r.chain, ...words(r, table)]),
    aRule.map((r) => ['-R', hook, '1', ...words(r, table)]),
    fc.constant(['-D', hook, '1']),
    fc.constant(['-F', 'A']),
    fc.constantFrom(['-P', hook, 'DROP'], ['-P', hook, 'ACCEPT']),
    fc.constant(['-Z']),
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('packet' as const),
        which: fc.nat(3),
        length: fc.integer({ min: 40, max: 1500 }),
      }),
    },
    {
      weight: 1,
      arbitrary: edit.map((argv) => ({
        kind: 'edit' as const,
        argv: ['-t', table, ...argv],
      })),
    },
  );
}

function packetOf(p: PacketSpec, length: number): Packet {
  return packet({
    src: p.src,
    dst: p.dst,
    protocol: p.protocol,
    sport: p.sport,
    dport: p.dport,
    mark: p.mark,
    fragOffset: p.frag ? 8 : undefined,
    inIface: p.inIface,
    outIface: p.outIface,
    physIn: p.physIn,
    length,
  });
}

interface Node {
  readonly state: NetfilterState;
  readonly ctx: Omit<WalkContext, 'conntrack'>;
}

function node(commands: readonly (readonly string[])[]): Node {
  const state = createNetfilter();
  for (const argv of commands) iptablesCommand(state, argv);
  return {
    state,
    ctx: {
      isLocalAddress: (ip) => ip === '10.0.0.2',
      rng: rngFromSeed(7),
      now: 0,
      store: createWalkStore(),
    },
  };
}

/** What a walk decided, as the datapath reads it. */
function decided(r: Pick<TraverseResult, 'verdict' | 'nat' | 'reject' | 'ctmark'>, mark: number) {
  return { verdict: r.verdict, nat: r.nat, reject: r.reject, ctmark: r.ctmark, mark };
}

const everything = (n: Node, table: TableName) => ({
  chains: n.state.tables[table]?.chains.map((c) => [
    c.name,
    c.policy,
    c.counters,
    c.rules.map((r) => r.counters),
  ]),
  store: n.ctx.store,
  draw: n.ctx.rng.nextU32(),
});

function check(
  table: 'filter' | 'nat',
  hook: Hook,
  rules: readonly RuleSpec[],
  packets: readonly PacketSpec[],
  events: readonly Event[],
): void {
  const commands = rulesetCommands(table, hook, rules);
  const slow = node(commands);
  const fast = node(commands);
  let replays = 0;
  for (const e of events) {
    if (e.kind === 'edit') {
      expect(iptablesCommand(fast.state, e.argv)).toEqual(iptablesCommand(slow.state, e.argv));
      continue;
    }
    const spec = packets[e.which % packets.length]!;
    const pkt = packetOf(spec, e.length);
    const ct = spec.ct;
    const a = traverseTable(
      slow.state,
      table,
      hook,
      pkt,
      { ...slow.ctx, conntrack: ct },
      {
        steps: 'none',
      },
    );
    const replayed = replayWalk(fast.state, table, hook, pkt, ct);
    if (replayed !== undefined) replays++;
    const b =
      replayed !== undefined
        ? decided(replayed, pkt.mark)
        : (() => {
            const r = traverseTable(
              fast.state,
              table,
              hook,
              pkt,
              { ...fast.ctx, conntrack: ct },
              {
                steps: 'none',
                memo: true,
              },
            );
            return decided(r, r.packet.mark);
          })();
    expect(b).toEqual(decided(a, a.packet.mark));
    expect(everything(fast, table)).toEqual(everything(slow, table));
  }
  return void replays;
}

describe('walk memo', () => {
  for (const [table, hook] of [
    ['filter', 'FORWARD'],
    ['nat', 'PREROUTING'],
  ] as const) {
    it(`replays ${table} ${hook} walks exactly, across edits of the table`, () => {
      fc.assert(
        fc.property(
          fc.array(aRule, { maxLength: 12 }),
          somePackets,
          fc.array(anEvent(table, hook), { minLength: 1, maxLength: 40 }),
          (rules, packets, events) => check(table, hook, rules, packets, events),
        ),
        { numRuns: 300 },
      );
    });
  }

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
      const n = node([['-A', 'FORWARD', ...cond.split(' '), '-j', 'DROP']]);
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
    const n = { ...node([]), state: loadRules(text) };
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
    const n = node([
      ['-N', 'U'],
      ['-A', 'FORWARD', '-j', 'U'],
      ['-A', 'U', '-m', 'conntrack', '--ctstate', 'NEW'],
    ]);
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
    const n = { ...node([]), state: loadRules(text) };
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
