/** ipt_do_table() traversal: targets, jump/goto/RETURN, policies, counters and the trace. */
import { describe, expect, it } from 'vitest';
import { getChain } from '../state';
import type { NetfilterState, TableName } from '../types';
import { traverseTable } from './traverse';
import type { Hook, TraverseOptions, WalkContext } from './types';
import { loadRules, packet, walkContext, type PacketPatch } from './walk-fixtures';

function walk(
  state: NetfilterState,
  hook: Hook = 'INPUT',
  pkt: PacketPatch = {},
  opts: TraverseOptions = {},
  table: TableName = 'filter',
  ctx: WalkContext = walkContext(),
) {
  return traverseTable(state, table, hook, packet(pkt), ctx, opts);
}

const counters = (s: NetfilterState, chain: string, table: TableName = 'filter') =>
  getChain(s, table, chain)?.rules.map((r) => r.counters.packets);

describe('traversal', () => {
  it('falls through to the policy; counts matched rules and the policy', () => {
    const s = loadRules(
      '*filter\n:INPUT DROP [0:0]\n-A INPUT -p udp -j ACCEPT\n-A INPUT -s 10.0.0.1\n' +
        '-A INPUT -m comment --comment x\nCOMMIT\n',
    );
    const r = walk(s);
    expect(r.verdict).toBe('DROP');
    expect(r.steps.map((x) => [x.trace, x.matched, x.outcome.kind])).toEqual([
      ['filter:INPUT:rule:1', false, 'nomatch'],
      ['filter:INPUT:rule:2', true, 'continue'],
      ['filter:INPUT:rule:3', true, 'continue'],
      ['filter:INPUT:policy:4', true, 'policy'],
    ]);
    expect(r.steps[1]?.text).toBe('-A INPUT -s 10.0.0.1/32');
    expect(counters(s, 'INPUT')).toEqual([0, 1, 1]);
    expect(getChain(s, 'filter', 'INPUT')?.rules[1]?.counters.bytes).toBe(60);
    expect(getChain(s, 'filter', 'INPUT')?.counters).toEqual({ packets: 1, bytes: 60 });
  });

  it('jump pushes a return point; RETURN and the end of a user chain pop it', () => {
    const s = loadRules(
      '*filter\n:A - [0:0]\n:B - [0:0]\n-A INPUT -j A\n-A INPUT -j B\n-A INPUT -j DROP\n' +
        '-A A -j RETURN\n-A A -j DROP\n-A B -p udp -j DROP\nCOMMIT\n',
    );
    const r = walk(s);
    expect(r.verdict).toBe('DROP');
    expect(r.steps.map((x) => `${x.trace}@${x.depth}:${x.outcome.kind}`)).toEqual([
      'filter:INPUT:rule:1@0:jump',
      'filter:A:rule:1@1:return',
      'filter:INPUT:rule:2@0:jump',
      'filter:B:rule:1@1:nomatch',
      'filter:B:return:2@1:return',
      'filter:INPUT:rule:3@0:verdict',
    ]);
    expect(counters(s, 'INPUT')).toEqual([1, 1, 1]);
    expect(counters(s, 'A')).toEqual([1, 0]);
  });

  it('goto does not push: the goto chain returns to the last jump, or to the policy', () => {
    const s = loadRules(
      '*filter\n:INPUT DROP [0:0]\n:A - [0:0]\n:B - [0:0]\n:C - [0:0]\n' +
        '-A INPUT -j A\n-A INPUT -g C\n-A INPUT -j ACCEPT\n-A A -g B\n-A A -j ACCEPT\n' +
        '-A B -j RETURN\nCOMMIT\n',
    );
    const r = walk(s);
    expect(r.steps.map((x) => x.trace)).toEqual([
      'filter:INPUT:rule:1',
      'filter:A:rule:1',
      'filter:B:rule:1',
      'filter:INPUT:rule:2',
      'filter:C:return:1',
      'filter:INPUT:policy:4',
    ]);
    expect(r.verdict).toBe('DROP');
  });

  it('RETURN in a built-in chain applies the policy', () => {
    const s = loadRules(
      '*filter\n:FORWARD DROP [0:0]\n-A FORWARD -j RETURN\n-A FORWARD -j ACCEPT\nCOMMIT\n',
    );
    const r = walk(s, 'FORWARD', { outIface: 'eth1' });
    expect(r.verdict).toBe('DROP');
    expect(r.steps.map((x) => x.trace)).toEqual([
      'filter:FORWARD:rule:1',
      'filter:FORWARD:policy:3',
    ]);
  });

  it('REJECT ends the table with its --reject-with', () => {
    const s = loadRules(
      '*filter\n-A INPUT -p tcp -j REJECT --reject-with tcp-reset\n-A INPUT -j ACCEPT\nCOMMIT\n',
    );
    const r = walk(s);
    expect(r.verdict).toBe('REJECT');
    expect(r.reject).toEqual({ with: 'tcp-reset' });
    expect(counters(s, 'INPUT')).toEqual([1, 0]);
  });

  it('MARK is (mark & ~mask) ^ value and continues; the result carries the new mark', () => {
    const s = loadRules(
      '*mangle\n-A PREROUTING -j MARK --set-mark 0xff00\n-A PREROUTING -j MARK --or-mark 0x1\n' +
        '-A PREROUTING -j MARK --xor-mark 0x4001\n-A PREROUTING -j MARK --and-mark 0xfffff0ff\n' +
        '-A PREROUTING -m mark --mark 0xb000 -j ACCEPT\nCOMMIT\n',
    );
    const r = walk(s, 'PREROUTING', { mark: 0x12345678 }, {}, 'mangle');
    expect(r.steps.map((x) => x.mark.toString(16))).toEqual([
      'ff00',
      'ff01',
      'bf00',
      'b000',
      'b000',
    ]);
    expect(r.verdict).toBe('ACCEPT');
    expect(r.steps.at(-1)?.outcome).toEqual({ kind: 'verdict', verdict: 'ACCEPT' });
    expect(r.packet.mark).toBe(0xb000);
  });

  it('CONNMARK set/save/restore work on the conntrack mark; nothing without a conntrack', () => {
    const s = loadRules(
      '*mangle\n-A PREROUTING -j CONNMARK --set-mark 0x10/0xf0\n' +
        '-A PREROUTING -j CONNMARK --restore-mark --mask 0xff\n-A PREROUTING -j MARK --set-mark 0x7\n' +
        '-A PREROUTING -j CONNMARK --save-mark --mask 0x0f\nCOMMIT\n',
    );
    const ctx = walkContext({ conntrack: { state: 'ESTABLISHED', mark: 0x1234 } });
    const r = walk(s, 'PREROUTING', { mark: 0x5500 }, {}, 'mangle', ctx);
    // set: (0x1234 & ~0xf0) ^ 0x10 = 0x1214; restore: (0x5500 & ~0xff) ^ (0x1214 & 0xff) = 0x5514.
    expect(r.steps.map((x) => x.outcome)).toEqual([
      { kind: 'mark', mark: 0x5500, ctmark: 0x1214 },
      { kind: 'mark', mark: 0x5514, ctmark: 0x1214 },
      { kind: 'mark', mark: 0x7 },
      // save: (0x1214 & ~0x0f) ^ (0x7 & 0x0f) = 0x1217.
      { kind: 'mark', mark: 0x7, ctmark: 0x1217 },
      { kind: 'policy', verdict: 'ACCEPT' },
    ]);
    expect(r.ctmark).toBe(0x1217);
    const untracked = walk(
      s,
      'PREROUTING',
      {},
      {},
      'mangle',
      walkContext({ conntrack: { state: 'UNTRACKED' } }),
    );
    expect(untracked.ctmark).toBeUndefined();
    expect(untracked.packet.mark).toBe(7);
  });

  it('LOG continues and writes the kernel log line', () => {
    const s = loadRules('*filter\n-A INPUT -j LOG --log-prefix "kp: "\nCOMMIT\n');
    const r = walk(s, 'INPUT', { mark: 0x4000 });
    expect(r.logs).toEqual([
      'kp: IN=eth0 OUT= SRC=10.0.0.1 DST=10.0.0.2 LEN=60 TOS=0x00 PREC=0x00 TTL=64 ID=0 PROTO=TCP SPT=40000 DPT=80 WINDOW=0 RES=0x00 SYN URGP=0 MARK=0x4000',
    ]);
    expect(r.verdict).toBe('ACCEPT');
  });

  it('a NAT target ends the nat table with ACCEPT and the mapping to set up', () => {
    const s = loadRules(
      '*nat\n:X - [0:0]\n-A PREROUTING -j X\n-A PREROUTING -j DNAT --to-destination 10.9.9.9\n' +
        '-A X -p tcp -j DNAT --to-destination 10.1.1.1-10.1.1.5:8080-8090 --random\n' +
        '-A POSTROUTING -p udp -j MASQUERADE --to-ports 1000-2000 --random-fully\nCOMMIT\n',
    );
    const r = walk(s, 'PREROUTING', {}, {}, 'nat');
    expect(r.verdict).toBe('ACCEPT');
    expect(r.nat).toMatchObject({
      kind: 'dnat',
      to: '10.1.1.1-10.1.1.5:8080-8090',
      random: true,
      randomFully: false,
    });
    expect(r.steps).toHaveLength(2);
    expect(counters(s, 'PREROUTING', 'nat')).toEqual([1, 0]);
    const m = walk(s, 'POSTROUTING', { protocol: 'udp', outIface: 'eth0' }, {}, 'nat');
    expect(m.nat).toMatchObject({ kind: 'masquerade', to: '1000-2000', randomFully: true });
  });

  it('steps: all, only matched (what TRACE logs), or none; counters either way', () => {
    const text = '*filter\n-A INPUT -p udp -j DROP\n-A INPUT -j ACCEPT\nCOMMIT\n';
    for (const [mode, n] of [
      ['all', 2],
      ['matched', 1],
      ['none', 0],
    ] as const) {
      const s = loadRules(text);
      expect(walk(s, 'INPUT', {}, { steps: mode }).steps).toHaveLength(n);
      expect(counters(s, 'INPUT')).toEqual([0, 1]);
    }
  });

  it('no table, or no chain for the hook: accepted without steps', () => {
    const s = loadRules('*filter\n-A INPUT -j DROP\nCOMMIT\n');
    expect(walk(s, 'INPUT', {}, {}, 'nat')).toMatchObject({ verdict: 'ACCEPT', steps: [] });
    expect(walk(s, 'PREROUTING')).toMatchObject({ verdict: 'ACCEPT', steps: [] });
  });

  it('a jump beyond 16 nested chains drops the packet (NFT_JUMP_STACK_SIZE)', () => {
    const names = Array.from({ length: 18 }, (_, i) => `C${i}`);
    const decl = names.map((n) => `:${n} - [0:0]`).join('\n');
    const jumps = names.slice(0, -1).map((n, i) => `-A ${n} -j ${names[i + 1]}`);
    const s = loadRules(`*filter\n${decl}\n-A INPUT -j C0\n${jumps.join('\n')}\nCOMMIT\n`);
    const r = walk(s);
    expect(r.verdict).toBe('DROP');
    expect(r.steps.at(-1)).toMatchObject({ trace: 'filter:C15:rule:1', depth: 16 });
    expect(r.steps.at(-1)?.outcome).toEqual({ kind: 'abort', reason: 'jump stack full' });
  });

  it('a goto loop (which the kernel would refuse to load) ends with DROP instead of hanging', () => {
    const s = loadRules(
      '*filter\n:A - [0:0]\n:B - [0:0]\n-A INPUT -g A\n-A A -g B\n-A B -g A\nCOMMIT\n',
    );
    const r = walk(s, 'INPUT', {}, { steps: 'none' });
    expect(r.verdict).toBe('DROP');
  });
});
