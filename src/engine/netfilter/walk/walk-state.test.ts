/**
 * Walks reuse their state (walk-state.ts). A walk on a kept Walk — after walks of other tables
 * with other packets, jump depths, marks, trace modes — gives what a walk on a new Walk gives:
 * the same result, steps, counters and nth state. A walk started from inside another (here from
 * a match callback) gets its own Walk, and the outer walk goes on unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NetfilterState } from '../types';
import { traverseTable, traverseWith } from './traverse';
import type { ConntrackInfo, TraverseOptions, WalkContext } from './types';
import { loadRules, packet, walkContext } from './walk-fixtures';
import { Walk } from './walk-state';

const RULES =
  '*filter\n:A - [0:0]\n:B - [0:0]\n' +
  '-A INPUT -p tcp -j A\n' +
  '-A INPUT -m addrtype --dst-type LOCAL -j MARK --set-xmark 0x10/0xff\n' +
  '-A INPUT -m statistic --mode nth --every 3 --packet 0 -j CONNMARK --set-xmark 0x5/0xff\n' +
  '-A INPUT -m conntrack --ctstate ESTABLISHED -j ACCEPT\n' +
  '-A INPUT -p udp -j DROP\n' +
  '-A A -m mark --mark 0x1 -j RETURN\n' +
  '-A A -j B\n' +
  '-A A -j MARK --set-xmark 0x2/0x2\n' +
  '-A B -s 10.0.0.1 -j RETURN\n' +
  '-A B -j LOG --log-prefix "b "\n' +
  'COMMIT\n';

const OTHER =
  '*filter\n:C - [0:0]\n-A FORWARD -j C\n-A C -p tcp -j MARK --set-xmark 0x7/0xff\n' +
  '-A C -j DROP\nCOMMIT\n';

interface Case {
  readonly src: string;
  readonly protocol: 'tcp' | 'udp';
  readonly mark: number;
  readonly state: ConntrackInfo['state'];
  readonly steps: NonNullable<TraverseOptions['steps']>;
  readonly other: boolean;
}

const aCase: fc.Arbitrary<Case> = fc.record({
  src: fc.constantFrom('10.0.0.1', '10.0.0.3'),
  protocol: fc.constantFrom('tcp' as const, 'udp' as const),
  mark: fc.constantFrom(0, 1),
  state: fc.constantFrom('NEW' as const, 'ESTABLISHED' as const, 'INVALID' as const),
  steps: fc.constantFrom('all' as const, 'matched' as const, 'none' as const),
  other: fc.boolean(),
});

function ctxOf(c: Case, store: WalkContext['store'], extra: Partial<WalkContext> = {}) {
  return walkContext({ conntrack: { state: c.state, mark: 3 }, store, ...extra });
}

const counters = (s: NetfilterState) =>
  s.tables.filter?.chains.map((ch) => [ch.counters, ch.rules.map((r) => r.counters)]);

describe('kept walk state', () => {
  it('walks as a new Walk does, after any other walks', () => {
    fc.assert(
      fc.property(fc.array(aCase, { maxLength: 25 }), (cases) => {
        const kept = loadRules(RULES);
        const fresh = loadRules(RULES);
        const other = loadRules(OTHER);
        const keptStore = walkContext().store;
        const freshStore = walkContext().store;
        for (const c of cases) {
          const pkt = packet({ src: c.src, protocol: c.protocol, mark: c.mark });
          const opts = { steps: c.steps };
          if (c.other)
            traverseTable(other, 'filter', 'FORWARD', pkt, ctxOf(c, walkContext().store), opts);
          const a = traverseTable(kept, 'filter', 'INPUT', pkt, ctxOf(c, keptStore), opts);
          const b = traverseWith(
            new Walk(),
            fresh,
            'filter',
            'INPUT',
            pkt,
            ctxOf(c, freshStore),
            opts,
          );
          expect(a).toEqual(b);
        }
        expect(counters(kept)).toEqual(counters(fresh));
        expect(keptStore).toEqual(freshStore);
      }),
      { numRuns: 300 },
    );
  });

  it('a walk started during a walk leaves the outer one as it was', () => {
    const outer = loadRules(RULES);
    const plain = loadRules(RULES);
    const inner = loadRules(OTHER);
    const pkt = packet({ src: '10.0.0.3', dst: '10.0.0.2' });
    let innerVerdict: string | undefined;
    const reentering = walkContext({
      addrType: (ip) => {
        const r = traverseTable(inner, 'filter', 'FORWARD', packet(), walkContext(), {});
        innerVerdict = r.verdict;
        return ip === '10.0.0.2' ? 'LOCAL' : 'UNICAST';
      },
    });
    const a = traverseTable(outer, 'filter', 'INPUT', pkt, reentering, {});
    const b = traverseTable(plain, 'filter', 'INPUT', pkt, walkContext(), {});
    expect(innerVerdict).toBe('DROP');
    expect(a).toEqual(b);
    expect(a.packet.mark).toBe(0x10);
    expect(a.logs).toHaveLength(1);
    expect(counters(outer)).toEqual(counters(plain));
  });

  it("reads the caller's context as it was when the walk began (the datapath refills one)", () => {
    const changed = loadRules(RULES);
    const plain = loadRules(RULES);
    const pkt = packet({ src: '10.0.0.3', dst: '10.0.0.2' });
    const ctx: { -readonly [K in keyof WalkContext]: WalkContext[K] } = walkContext({
      conntrack: { state: 'ESTABLISHED', mark: 3 },
    });
    ctx.addrType = (ip) => {
      ctx.conntrack = { state: 'NEW', mark: 9 };
      ctx.now = 5;
      return ip === '10.0.0.2' ? 'LOCAL' : 'UNICAST';
    };
    const a = traverseTable(changed, 'filter', 'INPUT', pkt, ctx, {});
    const b = traverseTable(
      plain,
      'filter',
      'INPUT',
      pkt,
      walkContext({
        conntrack: { state: 'ESTABLISHED', mark: 3 },
      }),
      {},
    );
    expect(a).toEqual(b);
    expect(a.verdict).toBe('ACCEPT');
    expect(counters(changed)).toEqual(counters(plain));
  });
});
