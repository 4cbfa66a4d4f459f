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
import { packet } from './walk-fixtures';

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

/** The memo first, the walk (remembering what it may) on a miss: what the datapath does. */
function memoFirst(n: Node, table: TableName, hook: Hook, pkt: Packet, ct: ConntrackInfo) {
  const replayed = replayWalk(n.state, table, hook, pkt, ct);
  if (replayed !== undefined) return decided(replayed, pkt.mark);
  const opts = { steps: 'none', memo: true } as const;
  const r = traverseTable(n.state, table, hook, pkt, { ...n.ctx, conntrack: ct }, opts);
  return decided(r, r.packet.mark);
}

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
  for (const e of events) {
    if (e.kind === 'edit') {
      expect(iptablesCommand(fast.state, e.argv)).toEqual(iptablesCommand(slow.state, e.argv));
      continue;
    }
    const spec = packets[e.which % packets.length]!;
    const pkt = packetOf(spec, e.length);
    const ctx = { ...slow.ctx, conntrack: spec.ct };
    const a = traverseTable(slow.state, table, hook, pkt, ctx, { steps: 'none' });
    expect(memoFirst(fast, table, hook, pkt, spec.ct)).toEqual(decided(a, a.packet.mark));
    expect(everything(fast, table)).toEqual(everything(slow, table));
  }
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
});
