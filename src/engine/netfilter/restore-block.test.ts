/**
 * A run of remembered lines that keeps a chain's old rules at once (restore-block.ts) must do
 * what reading the lines one by one does: same output, same tables through every view,
 * nf_tables handles included, also when packets were counted on the old rules in between
 * (then a rule no longer equals its line and is replaced).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createIptablesProxier } from '../kube-proxy/iptables/proxier';
import {
  cluster,
  endpoint,
  port,
  service,
  slice,
  upstreamProxierOptions,
} from '../kube-proxy/testing/fixtures';
import { TableDraft } from './draft';
import { createNetfilter, iptablesRestore, type NetfilterState } from './index';
import { allViews } from './test-views';
import { joinPieces, type RestorePiece } from './restore-pieces';

/** Packets through rule `at` of every chain named `chain` (in place, as the packet path counts). */
function count(s: NetfilterState, chain: string, at: number): void {
  const rule = s.tables.nat?.chains.find((c) => c.name === chain)?.rules[at];
  if (rule === undefined) return;
  rule.counters.packets += 1;
  rule.counters.bytes += 60;
}

/** Lines of a kept text long enough to matter (any run of rule lines is a block). */
const MIN_BLOCK = 32;

const RULES = Array.from(
  { length: 12 },
  (_, i) => `-A KUBE-SERVICES -d 172.30.0.${i}/32 -p tcp -m tcp --dport 80 -j KUBE-MARK-MASQ`,
);
const POOL = [
  ...RULES,
  '-A KUBE-NODEPORTS -p tcp -m tcp --dport 30080 -j KUBE-MARK-MASQ',
  '-A KUBE-SERVICES -j KUBE-MISSING',
  '-A KUBE-SERVICES -p tcp -j DNAT --to-destination 10.0.0.1:80',
  '[5:300] -A KUBE-SERVICES -j RETURN',
  '-A KUBE-SERVICES --bogus',
];

const HEAD = '*nat\n:KUBE-SERVICES - [0:0]\n:KUBE-NODEPORTS - [0:0]\n:KUBE-MARK-MASQ - [0:0]\n';

/** A kept text of mostly valid KUBE-SERVICES lines, each its own, long enough for blocks. */
const keptText = fc
  .array(fc.oneof({ weight: 30, arbitrary: fc.constant(null) }, fc.constantFrom(...POOL)), {
    minLength: MIN_BLOCK,
    maxLength: 3 * MIN_BLOCK,
  })
  .map((ls) =>
    ls
      .map((l, i) => `${l ?? `-A KUBE-SERVICES -d 172.31.0.${i}/32 -p tcp -j KUBE-MARK-MASQ`}\n`)
      .join(''),
  );

/**
 * One restore: ranges of the kept text (split at the cuts or not), a line of its own after
 * the first range, packets counted before it.
 */
const round = fc.record({
  split: fc.boolean(),
  extra: fc.option(fc.constantFrom(...POOL)),
  packets: fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    fc.array(fc.nat(), { maxLength: 3 }),
  ),
});

function piecesOf(text: string, cuts: readonly number[], extra: string | null): RestorePiece[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const at = [...new Set([0, ...cuts.map((c) => starts[c % starts.length] as number)])];
  at.sort((a, b) => a - b);
  at.push(text.length);
  const pieces: RestorePiece[] = [HEAD];
  for (let i = 0; i + 1 < at.length; i++) {
    pieces.push({ text, start: at[i] as number, end: at[i + 1] as number });
    if (i === 0 && extra !== null) pieces.push(`${extra}\n`);
  }
  pieces.push('COMMIT\n');
  return pieces;
}

describe('iptables-restore of remembered blocks of lines', () => {
  it('keeps the old rules exactly when reading line by line would', () => {
    const keep = vi.spyOn(TableDraft.prototype, 'keepRefilled');
    fc.assert(
      fc.property(
        keptText,
        fc.array(fc.integer({ min: 1, max: MIN_BLOCK + 8 }), { minLength: 1, maxLength: 3 }),
        // A few kinds of restore, each repeated (a block is recorded, then taken as recorded).
        fc.array(round, { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(), { minLength: 2, maxLength: 10 }),
        fc.boolean(),
        fc.constantFrom(true, true, false),
        (text, cuts, kinds, order, counters, noflush) => {
          const opts = { counters, noflush };
          const byBlock = createNetfilter();
          const byText = createNetfilter();
          for (const k of order) {
            const r = kinds[k % kinds.length] as (typeof kinds)[number];
            for (const p of r.packets) {
              count(byBlock, 'KUBE-SERVICES', p % 40);
              count(byText, 'KUBE-SERVICES', p % 40);
            }
            const pieces = piecesOf(text, r.split ? cuts : [], r.extra);
            const a = iptablesRestore(byBlock, { pieces }, opts);
            const b = iptablesRestore(byText, joinPieces(pieces), opts);
            expect(a).toEqual(b);
            expect(allViews(byBlock)).toBe(allViews(byText));
          }
        },
      ),
      { numRuns: 300, seed: 20_261_203 },
    );
    // The property held with the shortcut taken, not only line by line.
    expect(keep.mock.calls.some(([, n]) => n > 0)).toBe(true);
    keep.mockRestore();
  });

  it('takes what a block did only where it did it', () => {
    const text = Array.from({ length: 2 * MIN_BLOCK }, (_, i) => `-A KUBE-SERVICES -d 172.31.0.${i}/32 -j KUBE-MARK-MASQ\n`).join(''); // prettier-ignore
    const cut = text.indexOf('-A', text.indexOf('172.31.0.5/'));
    const head = { text, start: 0, end: cut };
    const tail = { text, start: cut, end: text.length };
    // The tail block is recorded one rule further down the chain, then read without the extra rule.
    const withExtra = [HEAD, head, '-A KUBE-SERVICES -j RETURN\n', tail, 'COMMIT\n'];
    const without = [HEAD, head, tail, 'COMMIT\n'];
    const byBlock = createNetfilter();
    const byText = createNetfilter();
    for (const pieces of [withExtra, withExtra, withExtra, without, without, withExtra]) {
      const a = iptablesRestore(byBlock, { pieces }, { noflush: true });
      expect(a).toEqual(iptablesRestore(byText, joinPieces(pieces), { noflush: true }));
      expect(allViews(byBlock)).toBe(allViews(byText));
    }
  });

  it("keeps kube-proxy's KUBE-SERVICES rules through partial syncs, counted packets too", () => {
    const keep = vi.spyOn(TableDraft.prototype, 'keepRefilled');
    const services = Array.from({ length: 3 * MIN_BLOCK }, (_, i) =>
      service('ns', `s${i}`, `172.30.${i >> 8}.${i & 255}`, { ports: [port('p80', 80)] }),
    );
    const slices = (gen: number) =>
      services.map((_, i) =>
        slice('ns', `s${i}`, [
          endpoint(`10.0.${i}.1`, { ready: i !== (gen * 37) % services.length }),
          endpoint(`10.0.${i}.2`),
        ]),
      );
    const proxier = createIptablesProxier(upstreamProxierOptions());
    const byBlock = createNetfilter();
    const byText = createNetfilter();
    for (let gen = 0; gen < 12; gen++) {
      if (gen % 3 === 2) {
        count(byBlock, 'KUBE-SERVICES', gen * 7);
        count(byText, 'KUBE-SERVICES', gen * 7);
      }
      const out = proxier.sync(cluster(services, slices(gen)));
      expect(iptablesRestore(byBlock, out.restorePieces, { noflush: true })).toEqual(
        iptablesRestore(byText, out.restoreInput, { noflush: true }),
      );
      expect(allViews(byBlock)).toBe(allViews(byText));
    }
    expect(keep.mock.calls.some(([, n]) => n >= MIN_BLOCK)).toBe(true);
    keep.mockRestore();
  });
});
