/**
 * A restore handed the pieces of its input (kept texts' ranges recognised through their
 * memos) must do exactly what the restore of the joined input does: same output, same
 * tables through every view, restore after restore (caches and memos warm up as they go).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createIptablesProxier } from '../kube-proxy/iptables/proxier';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  upstreamProxierOptions,
} from '../kube-proxy/testing/fixtures';
import { createNetfilter, iptablesRestore } from './index';
import { allViews } from './test-views';
import { joinPieces, piecesAreLines, type RestorePiece } from './restore-pieces';

const opts = { noflush: true, counters: true };

/** Lines of every kind restore tells apart, valid and not. */
const LINE_POOL = [
  '-A KUBE-SERVICES -d 10.0.0.1/32 -p tcp -m tcp --dport 80 -j KUBE-SVC-PIECES1',
  '-A KUBE-SERVICES -d 10.0.0.2/32 -p tcp -m tcp --dport 80 -j KUBE-SVC-PIECES2',
  '-A KUBE-SERVICES -m comment --comment "pieces" -j KUBE-MARK-MASQ',
  '-A KUBE-SVC-PIECES1 -j DNAT --to-destination 10.1.0.1:8080',
  '-A KUBE-SVC-PIECES2 -s 10.1.0.2/32 -j KUBE-MARK-MASQ',
  '-A KUBE-SERVICES -j KUBE-SVC-MISSING',
  '-A KUBE-SERVICES --bogus',
  '[3:4] -A KUBE-SERVICES -j RETURN',
  ':KUBE-SERVICES - [0:0]',
  ':KUBE-SVC-PIECES1 - [0:0]',
  ':KUBE-SVC-PIECES2 - [0:0]',
  ':KUBE-MARK-MASQ - [0:0]',
  '-X KUBE-SVC-PIECES2',
  '# a comment',
  '',
  'COMMIT',
  '*nat',
  '*filter',
  'bogus line',
];

const lines = fc.array(fc.constantFrom(...LINE_POOL), { maxLength: 12 });
const text = lines.map((ls) => ls.map((l) => `${l}\n`).join(''));

/** A piece: literal lines, or lines [from, to) of kept text 0 or 1 (sometimes off a line start). */
const pieceSpec = fc.oneof(
  text.map((t) => ({ kind: 'lines' as const, t })),
  fc.record({
    kind: fc.constant('range' as const),
    which: fc.integer({ min: 0, max: 1 }),
    a: fc.nat(),
    b: fc.nat(),
    skew: fc.integer({ min: -1, max: 1 }),
    offLine: fc.boolean(),
  }),
);

function lineStarts(t: string): number[] {
  const out = [0];
  for (let i = 0; i < t.length; i++) if (t[i] === '\n') out.push(i + 1);
  return out;
}

type Spec = typeof pieceSpec extends fc.Arbitrary<infer T> ? T : never;

function piecesOf(specs: readonly Spec[], kept: readonly [string, string]): RestorePiece[] {
  return specs.map((s): RestorePiece => {
    if (s.kind === 'lines') return s.t;
    const t = kept[s.which] as string;
    const starts = lineStarts(t);
    let from = starts[s.a % starts.length] as number;
    let to = starts[s.b % starts.length] as number;
    if (from > to) [from, to] = [to, from];
    if (s.offLine) to = Math.min(t.length, Math.max(from, to + s.skew));
    return { text: t, start: from, end: to };
  });
}

describe('iptables-restore of pieces', () => {
  it('gives what the restore of their join gives', () => {
    fc.assert(
      fc.property(
        fc.tuple(text, text),
        fc.array(fc.array(pieceSpec, { maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        ([k0, k1], rounds) => {
          const bySpec = createNetfilter();
          const byText = createNetfilter();
          // Equal kept texts as other string objects too: memos are found by content.
          const kept: [string, string] = [k0, k1];
          const copies: [string, string] = [` ${k0}`.slice(1), ` ${k1}`.slice(1)];
          for (let round = 0; round < rounds.length * 3; round++) {
            const specs = rounds[round % rounds.length] as Spec[];
            const pieces = piecesOf(specs, round % 2 === 0 ? kept : copies);
            const joined = joinPieces(pieces);
            const a = iptablesRestore(bySpec, { pieces }, opts);
            const b = iptablesRestore(byText, joined, opts);
            expect(a).toEqual(b);
            expect(allViews(bySpec)).toBe(allViews(byText));
          }
        },
      ),
      { numRuns: 300, seed: 20_261_203 },
    );
  });

  it('checks that pieces end lines', () => {
    expect(piecesAreLines(['a\n', { text: 'x\ny\n', start: 2, end: 4 }, 'z'])).toBe(true);
    expect(piecesAreLines(['a', 'b\n'])).toBe(false);
    expect(piecesAreLines([{ text: 'x\ny\n', start: 1, end: 4 }])).toBe(false);
    expect(piecesAreLines([{ text: 'x\ny\n', start: 0, end: 3 }, 'z\n'])).toBe(false);
  });

  it("reads kube-proxy's partial syncs like their restore input", () => {
    const services = Array.from({ length: 40 }, (_, i) =>
      service('ns', `s${i}`, `172.30.0.${i + 1}`, { ports: [port('p80', 80)] }),
    );
    const slices = (gen: number) =>
      services.map((_, i) =>
        slice('ns', `s${i}`, [
          endpoint(`10.0.${i}.1`, { ready: i % 7 !== gen % 7 }),
          endpoint(`10.0.${i}.2`),
        ]),
      );
    const proxier = createIptablesProxier(upstreamProxierOptions());
    const bySpec = createNetfilter();
    const byText = createNetfilter();
    for (let gen = 0; gen < 8; gen++) {
      const out = proxier.sync(cluster(services, slices(gen)));
      // Partial syncs re-send the unchanged ports' KUBE-SERVICES lines as kept ranges.
      if (gen > 0) expect(out.restorePieces.pieces.some((p) => typeof p !== 'string')).toBe(true);
      expect(iptablesRestore(bySpec, out.restorePieces, opts)).toEqual(
        iptablesRestore(byText, out.restoreInput, opts),
      );
      expect(allViews(bySpec)).toBe(allViews(byText));
    }
  });
});
