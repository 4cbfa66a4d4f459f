/**
 * The orders and names nft prints, each seen in a run of nftables 1.0.6 on Linux 6.18 (see
 * tests/kernel/nft-views.test.ts): concatenated keys sort by their last byte first, single
 * values by number; base-chain priorities are named only at hooks where the name is valid;
 * timeouts print as `3h`; anonymous address sets are merged intervals.
 */
import { describe, expect, it } from 'vitest';
import { durationText, priorityText } from './render';
import { compareKeys, mergeAddressIntervals } from './values';

const sortKeys = (keys: string[][]) => [...keys].sort(compareKeys).map((k) => k.join(' . '));

describe('nft element order', () => {
  it('ip . proto . port: 203.0.113.10 before 10.96.0.20 (last octet weighs most after the port)', () => {
    expect(
      sortKeys([
        ['10.96.0.20', 'tcp', '80'],
        ['192.168.1.200', 'tcp', '80'],
        ['203.0.113.10', 'tcp', '80'],
        ['10.96.0.21', 'tcp', '80'],
      ]),
    ).toEqual([
      '203.0.113.10 . tcp . 80',
      '10.96.0.20 . tcp . 80',
      '10.96.0.21 . tcp . 80',
      '192.168.1.200 . tcp . 80',
    ]);
  });

  it('single addresses by number', () => {
    expect(sortKeys([['172.30.0.46'], ['10.96.0.10'], ['172.30.0.41']])).toEqual([
      '10.96.0.10',
      '172.30.0.41',
      '172.30.0.46',
    ]);
  });
});

describe('nft names and intervals', () => {
  it('priorities', () => {
    expect(priorityText(-110, 'prerouting')).toBe('dstnat - 10');
    expect(priorityText(-110, 'output')).toBe('-110');
    expect(priorityText(-100, 'prerouting')).toBe('dstnat');
    expect(priorityText(-100, 'output')).toBe('-100');
    expect(priorityText(0, 'forward')).toBe('filter');
    expect(priorityText(100, 'postrouting')).toBe('srcnat');
  });

  it('durations', () => {
    expect(durationText(10_800_000)).toBe('3h');
    expect(durationText(10_798_788)).toBe('2h59m58s788ms');
  });

  it('an address inside a listed prefix merges into it', () => {
    expect(mergeAddressIntervals(['203.0.113.0/25', '192.168.1.0/24', '203.0.113.10'])).toEqual([
      '192.168.1.0/24',
      '203.0.113.0/25',
    ]);
  });
});
