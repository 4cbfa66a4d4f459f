/**
 * The parsed-line cache admits a line the second time it is seen: a restore that repeats
 * lines a third time finds their parse and keeps the very rules the table holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iptablesRestore, createNetfilter } from './index';
import { flatCopy, LineCache, lineHash, sharedName } from './parse-cache';
import { findChain } from './state';

describe('LineCache admission', () => {
  /** A cache past its first restore (whose lines are hashed only when a second one begins). */
  function pastFirstRestore(seenSlots?: number): LineCache {
    const cache = new LineCache(seenSlots);
    cache.beginRestore();
    cache.beginRestore();
    return cache;
  }

  it('admits a line on its second sight', () => {
    const cache = pastFirstRestore();
    const line = '-A KUBE-SEP-UNIQUE1 -s 10.9.8.7/32 -j KUBE-MARK-MASQ\n';
    expect(cache.admit(line)).toBe(false);
    expect(cache.admit(line)).toBe(true);
    expect(cache.admit(`${line} `)).toBe(false);
  });

  it('counts the lines of its first restore as seen once a second restore begins', () => {
    const cache = new LineCache();
    const line = '-A KUBE-SEP-FIRST1 -s 10.9.8.8/32 -j KUBE-MARK-MASQ\n';
    const other = '-A KUBE-SEP-FIRST1 -m tcp -p tcp -j DNAT --to-destination 10.9.8.8:80\n';
    cache.beginRestore();
    // Noted, not hashed: a one-shot run never pays for a cache it does not use.
    expect([cache.admit(line), cache.admit(line)]).toEqual([false, false]);
    cache.beginRestore();
    expect(cache.admit(line)).toBe(true);
    expect(cache.admit(other)).toBe(false);
    expect(cache.admit(other)).toBe(true);
  });

  it('counts the rule lines of a text noted at once as seen, as if noted one by one', () => {
    const cache = new LineCache();
    const a = '-A KUBE-SEP-TEXT1 -s 10.9.8.9/32 -j KUBE-MARK-MASQ\n';
    const b = '-A KUBE-SEP-TEXT1 -m tcp -p tcp -j DNAT --to-destination 10.9.8.9:80\n';
    const chain = ':KUBE-SEP-TEXT1 - [0:0]\n';
    const last = '-A KUBE-SEP-TEXT2 -j RETURN';
    cache.beginRestore();
    expect(cache.noteRuleLines(`${a}${chain}${b}${last}`, 4)).toBe(true);
    cache.beginRestore();
    expect(cache.noteRuleLines(a, 1)).toBe(false);
    expect([a, b, last, chain].map((line) => cache.admit(line))).toEqual([true, true, true, false]);
  });

  it('admits two lines that want the same slot, seen in turn', () => {
    // Two lines whose hashes share the low 20 bits (the doorkeeper's slot).
    const bySlot = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; pair === undefined; i++) {
      const line = `-A KUBE-SEP-${i} -m tcp -p tcp -j DNAT --to-destination 10.0.0.1:80\n`;
      const slot = lineHash(line) & ((1 << 20) - 1);
      const other = bySlot.get(slot);
      if (other !== undefined) pair = [other, line];
      else bySlot.set(slot, line);
    }
    const [a, b] = pair;
    const cache = pastFirstRestore();
    expect([cache.admit(a), cache.admit(b)]).toEqual([false, false]);
    expect([cache.admit(a), cache.admit(b)]).toEqual([true, true]);
  });

  it('admits every line of a repeated input by its second sight, in a crowded table too', () => {
    // A table of 64 slots holding 47 lines (one short of starting afresh): some find the
    // slots near theirs all taken. Each round passes the lines not admitted yet, as
    // restores do (an admitted line is found in the cache and not asked about again).
    for (let seed = 0; seed < 20; seed++) {
      const cache = pastFirstRestore(64);
      const lines = Array.from({ length: 47 }, (_, i) => `-A KUBE-SVC-${seed} -s 10.${i}.0.1\n`);
      expect(lines.map((l) => cache.admit(l)).filter((a) => a).length).toBeLessThan(10);
      expect(lines.filter((l) => !cache.admit(l))).toEqual([]);
    }
  });

  it('shares parses from the third restore of the same lines on', () => {
    const input = [
      '*nat',
      ':KUBE-SEP-ADMIT1 - [0:0]',
      ':KUBE-MARK-MASQ - [0:0]',
      '-A KUBE-SEP-ADMIT1 -s 10.77.0.1/32 -m comment --comment "admission test" -j KUBE-MARK-MASQ',
      '-A KUBE-SEP-ADMIT1 -m tcp -p tcp -j DNAT --to-destination 10.77.0.1:8080',
      'COMMIT',
      '',
    ].join('\n');
    const state = createNetfilter();
    const rules = (): readonly unknown[] => {
      const t = state.tables.nat;
      return t === undefined ? [] : (findChain(t, 'KUBE-SEP-ADMIT1')?.rules ?? []);
    };
    const opts = { noflush: true, counters: true };
    expect(iptablesRestore(state, input, opts).exitCode).toBe(0);
    const first = rules();
    expect(iptablesRestore(state, input, opts).exitCode).toBe(0);
    const second = rules();
    expect(iptablesRestore(state, input, opts).exitCode).toBe(0);
    const third = rules();
    expect(second).toHaveLength(2);
    // First sight: parsed and not cached, so the second restore parses anew (new rules);
    // from then on the cached parse lets the table keep its rules as they are.
    expect(second[0]).not.toBe(first[0]);
    expect(third[0]).toBe(second[0]);
    expect(third[1]).toBe(second[1]);
    // The same rules; nf_tables gave the rewritten ones new handles.
    const handle = (r: unknown): number | undefined => (r as { nftHandle?: number }).nftHandle;
    const plain = (rs: readonly unknown[]): unknown[] => rs.map((r) => ({ ...(r as object), nftHandle: undefined })); // prettier-ignore
    expect(plain(third)).toEqual(plain(first));
    expect(third.map(handle)).toEqual([first.map(handle)[0]! + 4, first.map(handle)[1]! + 4]);
  });
});

describe('flatCopy and sharedName', () => {
  it('give back the very text, whatever its code units', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => {
        expect(flatCopy(s)).toBe(s);
        expect(sharedName(s)).toBe(s);
        expect(sharedName(` ${s}`.slice(1))).toBe(sharedName(s));
      }),
      { numRuns: 500, seed: 20_261_203 },
    );
  });
});
