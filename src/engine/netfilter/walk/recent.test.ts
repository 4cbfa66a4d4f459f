/** xt_recent as recent_mt() keeps its lists: set/rcheck/update/remove, seconds, hitcount, reap. */
import { describe, expect, it } from 'vitest';
import { ruleMatches } from './matches';
import { RECENT_LIST_MAX } from './match-stateful';
import type { MatchContext } from './types';
import { matchContext, packet, ruleOf, type PacketPatch } from './walk-fixtures';

function runner(ctx: MatchContext) {
  return (args: string, at: number, pkt: PacketPatch = {}): boolean =>
    ruleMatches(ruleOf(args), packet(pkt), { ...ctx, now: at }, () => 'k');
}

const S = 1000;

describe('xt_recent', () => {
  it('--set adds and matches; --rcheck then matches within --seconds only', () => {
    const ctx = matchContext();
    const m = runner(ctx);
    expect(m('-m recent --name L --rcheck', 0)).toBe(false);
    expect(m('-m recent --name L --set', 0)).toBe(true);
    expect(ctx.store.recent['L']?.entries).toEqual([{ addr: '10.0.0.1', ttl: 64, stamps: [0] }]);
    expect(m('-m recent --name L --rcheck', 5 * S)).toBe(true);
    expect(m('-m recent --name L --rcheck --seconds 10', 10 * S)).toBe(true);
    expect(m('-m recent --name L --rcheck --seconds 10', 10 * S + 1)).toBe(false);
    expect(m('-m recent --name L ! --rcheck --seconds 10', 10 * S + 1)).toBe(true);
    expect(m('-m recent --name L --rcheck', 10 * S + 1, { src: '10.0.0.9' })).toBe(false);
    // --rcheck does not refresh: the stamp list is unchanged.
    expect(ctx.store.recent['L']?.entries[0]?.stamps).toEqual([0]);
  });

  it('--update refreshes a hit; --hitcount counts stamps within --seconds', () => {
    const ctx = matchContext();
    const m = runner(ctx);
    m('-m recent --name L --set', 0);
    expect(m('-m recent --name L --rcheck --hitcount 2', 1 * S)).toBe(false);
    expect(m('-m recent --name L --update --seconds 10', 5 * S)).toBe(true);
    expect(ctx.store.recent['L']?.entries[0]?.stamps).toEqual([0, 5 * S]);
    expect(m('-m recent --name L --rcheck --hitcount 2', 6 * S)).toBe(true);
    expect(m('-m recent --name L --rcheck --seconds 10 --hitcount 2', 11 * S)).toBe(false);
    expect(m('-m recent --name L --rcheck --seconds 10', 14 * S)).toBe(true);
    // A miss does not refresh…
    expect(m('-m recent --name L --update --seconds 1', 20 * S)).toBe(false);
    expect(ctx.store.recent['L']?.entries[0]?.stamps).toEqual([0, 5 * S]);
    // …unless the rule is inverted: the kernel refreshes when the result (after `!`) is true.
    expect(m('-m recent --name L ! --update --seconds 1', 20 * S)).toBe(true);
    expect(ctx.store.recent['L']?.entries[0]?.stamps).toEqual([0, 5 * S, 20 * S]);
  });

  it('--remove deletes the address and matches; --rdest and --mask choose the key', () => {
    const ctx = matchContext();
    const m = runner(ctx);
    m('-m recent --name L --set', 0);
    expect(m('-m recent --name L --remove', 1)).toBe(true);
    expect(m('-m recent --name L --remove', 2)).toBe(false);
    expect(m('-m recent --name D --rdest --set', 0)).toBe(true);
    expect(ctx.store.recent['D']?.entries[0]?.addr).toBe('10.0.0.2');
    expect(m('-m recent --name N --mask 255.255.255.0 --set', 0, { src: '10.1.2.3' })).toBe(true);
    expect(m('-m recent --name N --mask 255.255.255.0 --rcheck', 1, { src: '10.1.2.99' })).toBe(
      true,
    );
    expect(ctx.store.recent['N']?.entries.map((e) => e.addr)).toEqual(['10.1.2.0']);
  });

  it('--reap drops the least recently updated entry once even its newest stamp is too old', () => {
    const ctx = matchContext();
    const m = runner(ctx);
    m('-m recent --name L --set', 0, { src: '10.0.0.7' });
    m('-m recent --name L --set', 50 * S, { src: '10.0.0.8' });
    // 10.0.0.8's check at 55s reaps 10.0.0.7 (stale for 10s windows), not itself.
    expect(m('-m recent --name L --rcheck --seconds 10 --reap', 55 * S, { src: '10.0.0.8' })).toBe(
      true,
    );
    expect(ctx.store.recent['L']?.entries.map((e) => e.addr)).toEqual(['10.0.0.8']);
    // Without --reap nothing goes.
    m('-m recent --name L --set', 60 * S, { src: '10.0.0.9' });
    m('-m recent --name L --rcheck --seconds 1', 100 * S, { src: '10.0.0.9' });
    expect(ctx.store.recent['L']?.entries).toHaveLength(2);
  });

  it('--rttl compares the TTL (as seen before forwarding)', () => {
    const ctx = matchContext();
    const m = runner(ctx);
    m('-m recent --name L --set', 0, { ttl: 63 });
    expect(m('-m recent --name L --rcheck --rttl', 1, { ttl: 63 })).toBe(true);
    expect(m('-m recent --name L --rcheck --rttl', 1, { ttl: 62 })).toBe(false);
    // Forwarded (an output device, no local socket): the TTL counts one more.
    expect(m('-m recent --name L --rcheck --rttl', 1, { ttl: 62, outIface: 'eth1' })).toBe(true);
  });

  it(`keeps at most ${RECENT_LIST_MAX} addresses per list and 32 stamps per address`, () => {
    const ctx = matchContext();
    const m = runner(ctx);
    for (let i = 0; i <= RECENT_LIST_MAX; i++)
      m('-m recent --name L --set', i, { src: `10.9.0.${i}` });
    const entries = ctx.store.recent['L']?.entries ?? [];
    expect(entries).toHaveLength(RECENT_LIST_MAX);
    expect(entries[0]?.addr).toBe('10.9.0.1');
    for (let i = 0; i < 40; i++) m('-m recent --name L --set', 1000 + i, { src: '10.9.0.5' });
    const e = ctx.store.recent['L']?.entries.find((x) => x.addr === '10.9.0.5');
    expect(e?.stamps).toHaveLength(32);
    expect(e?.stamps[31]).toBe(1039);
    expect(ctx.store.recent['L']?.entries.at(-1)).toBe(e);
  });
});
