import { describe, expect, it } from 'vitest';
import { goDurationString, parseGoDuration } from './duration';
import {
  fnv1a32,
  generatedSuffix,
  podTemplateHash,
  safeEncodeString,
  SAFE_ALPHABET,
  uidFor,
} from './hash';

describe('generated names', () => {
  it('FNV-1a matches the reference vectors', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it('SafeEncodeString maps the decimal digits of ComputeHash onto 4-9 b c d f', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
    expect(podTemplateHash('{"spec":{}}')).toMatch(/^[4-9bcdf]{8,10}$/);
  });

  it('suffixes are five characters of the safe alphabet and differ per seed and attempt', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const s = generatedSuffix(`web-7d4b9c8f6/${i}`, 0);
      expect(s).toMatch(new RegExp(`^[${SAFE_ALPHABET}]{5}$`));
      seen.add(s);
    }
    expect(seen.size).toBe(200);
    expect(generatedSuffix('x', 0)).not.toBe(generatedSuffix('x', 1));
  });

  it('uids are stable and UUID-shaped', () => {
    expect(uidFor('Pod', 'default', 'a')).toBe(uidFor('Pod', 'default', 'a'));
    expect(uidFor('Pod', 'default', 'a')).not.toBe(uidFor('Service', 'default', 'a'));
  });

  it('uids are fnv1a32 of `k|kind/namespace/name` for k = 1…4, hex, UUID v4 layout', () => {
    // The uids the lab has always given (kubectl get -o yaml shows them): the four hashes'
    // hex digits with the version nibble set to 4 and the variant drawn from 89ab.
    const reference = (kind: string, ns: string, name: string): string => {
      const hex = [1, 2, 3, 4]
        .map((k) => fnv1a32(`${k}|${kind}/${ns}/${name}`).toString(16).padStart(8, '0'))
        .join('');
      const variant = '89ab'.charAt(parseInt(hex.charAt(16), 16) & 3);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20)}`;
    };
    const cases: [string, string, string][] = [
      ['Pod', 'default', 'a'],
      ['Service', 'kube-system', 'kube-dns'],
      ['EndpointSlice', 'default', 'svc-9999-abcde'],
      ['Pod', 'ns', 'é名'],
    ];
    for (const c of cases) expect(uidFor(...c)).toBe(reference(...c));
    expect(cases.map((c) => uidFor(...c))).toEqual([
      '3f341931-b715-46ac-aaf3-0fffdbd884d2',
      '2539caa5-190b-4a9a-bd2d-88070fe0cdac',
      '63836d0b-a790-4930-bf16-b0c1fc951e4e',
      'bec28800-3097-4fd3-ab40-c93aaec11fdd',
    ]);
  });
});

describe('Go durations', () => {
  it.each<[string, number | undefined]>([
    ['30s', 30],
    ['1m30s', 90],
    ['500ms', 0.5],
    ['1.5h', 5400],
    ['0', 0],
    ['-1s', -1],
    ['10', undefined],
    ['1d', undefined],
    ['', undefined],
    ['5 seconds', undefined],
  ])('parses %j', (text, seconds) => {
    expect(parseGoDuration(text)).toBe(seconds);
  });

  it('accepts days for the lab clock only', () => {
    expect(parseGoDuration('10d', { days: true })).toBe(864000);
  });

  it.each([
    [0, '0s'],
    [0.5, '500ms'],
    [30, '30s'],
    [90, '1m30s'],
    [3600, '1h0m0s'],
    [-1, '-1s'],
  ])('prints %d as %s', (seconds, text) => {
    expect(goDurationString(seconds)).toBe(text);
  });
});
