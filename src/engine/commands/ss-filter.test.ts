/**
 * ss's filter grammar (iproute2 6.1 misc/ssfilter.y): one level of `|` and `&` read left to
 * right (`a or b and c` is `(a or b) and c`), juxtaposition as `and`, `!`/`not`, parentheses;
 * `dport > :N` as not `dport <= :N`. Address matching as ss.c's inet2_addr_match(). The same
 * filters against the real ss: tests/kernel/ss.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { filterMatches, isFilterError, parseFilter, type FilterSocket } from './ss-filter';

const ctx = { tcp: true, udp: false, family: undefined };
const word = (ip: string) => ip.split('.').reduce((w, p) => w * 256 + Number(p), 0);
const v4 = (l: string, lp: number, r: string, rp: number): FilterSocket => ({
  local: { words: [word(l)], port: lp },
  remote: { words: [word(r)], port: rp },
});
const mapped = (l: string, lp: number, r: string, rp: number): FilterSocket => ({
  local: { words: [0, 0, 0xffff, word(l)], port: lp },
  remote: { words: [0, 0, 0xffff, word(r)], port: rp },
});

function matches(filter: string, s: FilterSocket): boolean {
  const f = parseFilter(filter.split(' '), ctx);
  if (isFilterError(f)) throw new Error(`${filter}: ${JSON.stringify(f)}`);
  return filterMatches(f, s);
}

const client = v4('10.244.0.5', 41000, '10.96.1.1', 80);
const accepted = mapped('10.244.0.4', 8080, '10.244.0.5', 41000);

describe('ss filters', () => {
  it('reads or/and left to right, juxtaposition as and, parentheses first', () => {
    // (dport = :80 or sport = :1) and sport = :2 → false for the client
    expect(matches('dport = :80 or sport = :1 and sport = :2', client)).toBe(false);
    expect(matches('dport = :80 or ( sport = :1 and sport = :2 )', client)).toBe(true);
    expect(matches('dst 10.96.1.1 dport = :80', client)).toBe(true);
    expect(matches('! dst 10.96.1.1', client)).toBe(false);
    expect(matches('not dport > :79', client)).toBe(false);
    expect(matches('dport >= :80 && dport <= :80', client)).toBe(true);
  });

  it('matches IPv4 rules against IPv4-mapped sockets, by prefix and port', () => {
    expect(matches('src 10.244.0.0/16', accepted)).toBe(true);
    expect(matches('dst 10.244.0.5:41000', accepted)).toBe(true);
    expect(matches('dst 10.244.0.5:41001', accepted)).toBe(false);
    expect(matches('src *:8080', accepted)).toBe(true);
    expect(matches('sport = http-alt', accepted)).toBe(true);
  });

  it('says what it cannot read, as ss does, or that the lab does not model it', () => {
    expect(parseFilter(['dst'], ctx)).toEqual({ kind: 'syntax' });
    expect(parseFilter(['(', 'dst', '1.2.3.4'], ctx)).toEqual({ kind: 'syntax' });
    expect(parseFilter(['dst', '1.2.3.4/33'], ctx)).toMatchObject({ kind: 'message', exitCode: 1 });
    expect(parseFilter(['dst', 'web.default'], ctx)).toEqual({ kind: 'unmodelled' });
    expect(parseFilter(['dst', '[::1]'], ctx)).toEqual({ kind: 'unmodelled' });
    expect(parseFilter(['dev', 'eth0'], ctx)).toEqual({ kind: 'unmodelled' });
  });
});
