/**
 * A full sync sends each Service's KUBE-SERVICES line as a range of the kept text of its own;
 * the restore records those one-line blocks, and the partial sync after it keeps the whole
 * chain from that record (restore-block.ts). Whatever happened in between — packets counted,
 * `iptables -A/-D/-I/-Z` by hand, Services added or gone, more full syncs — the tables must be
 * what reading the same input line by line gives, through every view.
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
import { createNetfilter, iptablesCommand, iptablesRestore, type NetfilterState } from './index';
import { allViews } from './test-views';
import { joinPieces, type RestorePiece } from './restore-pieces';

const SERVICES = 48;

/** Packets through rule `at` of KUBE-SERVICES (in place, as the packet path counts). */
function count(s: NetfilterState, at: number): void {
  const rule = s.tables.nat?.chains.find((c) => c.name === 'KUBE-SERVICES')?.rules[at];
  if (rule === undefined) return;
  rule.counters.packets += 1;
  rule.counters.bytes += 60;
}

/** What happens before the next sync: nothing, packets, a hand edit, a Service more or less. */
const step = fc.record({
  full: fc.boolean(),
  flip: fc.nat({ max: SERVICES - 1 }),
  before: fc.oneof(
    { weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) },
    fc.record({ kind: fc.constant('packets' as const), at: fc.nat({ max: SERVICES + 2 }) }),
    fc.record({
      kind: fc.constant('hand' as const),
      argv: fc.constantFrom(
        ['-A', 'KUBE-SERVICES', '-j', 'RETURN'],
        ['-I', 'KUBE-SERVICES', '3', '-j', 'RETURN'],
        ['-D', 'KUBE-SERVICES', '5'],
        ['-Z', 'KUBE-SERVICES'],
        ['-Z'],
        ['-R', 'KUBE-SERVICES', '7', '-j', 'RETURN'],
      ),
    }),
    fc.record({ kind: fc.constant('services' as const), n: fc.integer({ min: 1, max: 3 }) }),
  ),
});

describe('a full sync records KUBE-SERVICES for the partial syncs after it', () => {
  it('keeps exactly what reading line by line keeps, hand edits and packets in between', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 3, maxLength: 10 }), (steps) => {
        let services = SERVICES;
        const ready = new Set<number>();
        const clusterOf = () => {
          const svcs = Array.from({ length: services }, (_, i) =>
            service('ns', `s${i}`, `172.30.0.${i + 1}`, { ports: [port('p80', 80)] }),
          );
          const slices = svcs.map((_, i) =>
            slice('ns', `s${i}`, [
              endpoint(`10.0.${i}.1`, { ready: !ready.has(i) }),
              endpoint(`10.0.${i}.2`),
            ]),
          );
          return cluster(svcs, slices);
        };
        const proxier = createIptablesProxier(upstreamProxierOptions());
        const byPieces = createNetfilter();
        const byText = createNetfilter();
        const opts = { noflush: true, counters: true };
        // Two full syncs first: the second finds the lines' parses and records them.
        const plan = [{ full: true, flip: -1, before: { kind: 'none' as const } }, ...steps];
        for (const s of plan) {
          const b = s.before;
          if (b.kind === 'packets') {
            count(byPieces, b.at);
            count(byText, b.at);
          } else if (b.kind === 'hand') {
            const argv = ['-t', 'nat', ...b.argv];
            expect(iptablesCommand(byPieces, argv)).toEqual(iptablesCommand(byText, argv));
          } else if (b.kind === 'services') services = SERVICES + b.n - 2;
          if (s.flip >= 0 && !ready.delete(s.flip)) ready.add(s.flip);
          if (s.full) proxier.forceFullSync();
          const out = proxier.sync(clusterOf());
          expect(iptablesRestore(byPieces, out.restorePieces, opts)).toEqual(
            iptablesRestore(byText, out.restoreInput, opts),
          );
          expect(allViews(byPieces)).toBe(allViews(byText));
        }
      }),
      { numRuns: 60, seed: 20_261_203 },
    );
  });

  it('keeps the whole chain at the first partial sync after a full one', () => {
    const keep = vi.spyOn(TableDraft.prototype, 'keepRefilled');
    const svcs = Array.from({ length: SERVICES }, (_, i) =>
      service('ns', `s${i}`, `172.30.1.${i + 1}`, { ports: [port('p80', 80)] }),
    );
    const slices = (notReady: number) =>
      svcs.map((_, i) =>
        slice('ns', `s${i}`, [
          endpoint(`10.1.${i}.1`, { ready: i !== notReady }),
          endpoint(`10.1.${i}.2`),
        ]),
      );
    const proxier = createIptablesProxier(upstreamProxierOptions());
    const node = createNetfilter();
    const opts = { noflush: true, counters: true };
    // The first sync parses each line for itself (a cache takes a line seen twice), the
    // second caches them, the third finds them cached and records the chain.
    for (let i = 0; i < 3; i++) {
      proxier.forceFullSync();
      expect(iptablesRestore(node, proxier.sync(cluster(svcs, slices(-1))).restorePieces, opts).exitCode).toBe(0); // prettier-ignore
    }
    keep.mockClear();
    const out = proxier.sync(cluster(svcs, slices(0)));
    expect(out.full).toBe(false);
    expect(iptablesRestore(node, out.restorePieces, opts).exitCode).toBe(0);
    // Service 0's line comes with its chains; the others' in one range, all kept at once.
    expect(keep.mock.calls.map(([, n]) => n)).toContain(SERVICES - 1);
    keep.mockRestore();
  });

  /** Restores each input both ways (pieces, and their join line by line) and compares. */
  function sameBothWays(inputs: readonly (readonly RestorePiece[])[], noflush = true): void {
    sameBothWaysWith(inputs.map((pieces) => [pieces, noflush]));
  }

  function sameBothWaysWith(inputs: readonly [readonly RestorePiece[], boolean][]): void {
    const byPieces = createNetfilter();
    const byText = createNetfilter();
    for (const [pieces, noflush] of inputs) {
      const a = iptablesRestore(byPieces, { pieces }, { noflush });
      expect(a).toEqual(iptablesRestore(byText, joinPieces(pieces), { noflush }));
      expect(allViews(byPieces)).toBe(allViews(byText));
    }
  }

  const HEAD = '*nat\n:KUBE-SERVICES - [0:0]\n:KUBE-MARK-MASQ - [0:0]\n';
  const line = (i: number, to = 'KUBE-MARK-MASQ') =>
    `-A KUBE-SERVICES -d 172.31.0.${i}/32 -p tcp -j ${to}\n`;
  const lines = (from: number, to: number, target?: string) =>
    Array.from({ length: to - from }, (_, k) => line(from + k, target)).join('');

  it('does not join records that are not adjacent', () => {
    const text = lines(0, 40);
    const at = (i: number) => text.indexOf(line(i));
    // Lines 10–19 of the chain come from elsewhere, with another target: the records of
    // lines 0–9 and 20–39 of the text (the same chain, the same delta) must not cover them.
    const gap = [HEAD, { text, start: 0, end: at(10) }, lines(10, 20, 'RETURN'), { text, start: at(20), end: text.length }, 'COMMIT\n']; // prettier-ignore
    const whole = [HEAD, { text, start: 0, end: text.length }, 'COMMIT\n'];
    // The text's lines 10–19 get their parses first (a block only holds lines that have one).
    sameBothWays([whole, whole, whole, gap, gap, gap, whole, whole]);
  });

  it('takes a record only at the place of the chain it was made for', () => {
    const text = lines(0, 40);
    const at = (i: number) => text.indexOf(line(i));
    const whole = [HEAD, { text, start: 0, end: text.length }, 'COMMIT\n'];
    // The text's first lines again after its first three: recorded as rules 0–39, not 3–42.
    const again = [HEAD, { text, start: 0, end: at(3) }, { text, start: 0, end: text.length }, 'COMMIT\n']; // prettier-ignore
    sameBothWays([whole, whole, whole, again, again]);
  });

  it('tells kept texts of the same length apart', () => {
    const one = lines(10, 50);
    const two = one.replaceAll('-p tcp', '-p udp');
    expect(two.length).toBe(one.length);
    const of = (text: string) => [HEAD, { text, start: 0, end: text.length }, 'COMMIT\n'];
    sameBothWays([of(one), of(one), of(two), of(one), of(two), of(two), of(one)]);
  });

  it('records a chain a batch created or copied only as the batch left it', () => {
    const text = lines(0, 40);
    const kept = { text, start: 0, end: text.length };
    // Later lines of the same batch change the rules the kept lines appended.
    for (const after of [
      '-I KUBE-SERVICES 1 -j RETURN\n',
      '-D KUBE-SERVICES 3\n',
      '-R KUBE-SERVICES 5 -j RETURN\n',
      '-A KUBE-SERVICES -j RETURN\n',
    ]) {
      const edited = [HEAD, kept, after, 'COMMIT\n'];
      const plain = [HEAD, kept, 'COMMIT\n'];
      // A line of its own first: the chain is copied before the kept lines come.
      const lead = [HEAD, '-A KUBE-SERVICES -j ACCEPT\n', kept, after, 'COMMIT\n'];
      const leadPlain = [HEAD, '-A KUBE-SERVICES -j ACCEPT\n', kept, 'COMMIT\n'];
      // Without --noflush the table is made anew (every chain created); with it, the chain
      // is refilled or, once it differs, copied. The restores after an edit refill it.
      sameBothWaysWith([[plain, false], [plain, false], [edited, false], [plain, true], [plain, true], [edited, false], [edited, true], [plain, true]]); // prettier-ignore
      sameBothWaysWith([[leadPlain, true], [leadPlain, true], [lead, true], [leadPlain, true], [leadPlain, true], [plain, true], [lead, true], [leadPlain, true]]); // prettier-ignore
    }
  });
});
