import { describe, expect, it } from 'vitest';
import { BAD_PATTERN, cleanPath, goGlob, goPatternRegExp } from './go-filepath';

/** Cases of Go's src/path/filepath/match_test.go `matchTests` (pattern, name, matched; bad). */
const MATCHES: ReadonlyArray<readonly [string, string, boolean]> = [
  ['abc', 'abc', true],
  ['*', 'abc', true],
  ['*c', 'abc', true],
  ['a*', 'ab/c', false],
  ['a*/b', 'abc/b', true],
  ['a*/b', 'a/c/b', false],
  ['a*b*c*d*e*/f', 'axbxcxdxe/f', true],
  ['ab[c]', 'abc', true],
  ['ab[b-d]', 'abc', true],
  ['ab[e-g]', 'abc', false],
  ['ab[^c]', 'abc', false],
  ['ab[^e-g]', 'abc', true],
  ['a\\*b', 'a*b', true],
  ['a\\*b', 'ab', false],
  ['a?b', 'a☺b', true],
  ['a[^a]b', 'a☺b', true],
  ['a???b', 'a☺b', false],
  ['[a-ζ]*', 'α', true],
  ['*[a-ζ]', 'A', false],
  ['a?b', 'a/b', false],
  ['a*b', 'a/b', false],
  ['[\\]a]', ']', true],
  ['[\\-]', '-', true],
  ['[x\\-]', '-', true],
  ['[x\\-]', 'z', false],
  ['*x', 'xxx', true],
];
const BAD = ['[]a]', '[-]', '[x-]', '[a-b-c]', '[', '[^', '[^bc', 'a[', 'a\\'];

describe("Go's filepath.Match and Glob", () => {
  it.each(MATCHES)('%s against %s: %s', (pattern, name, matched) => {
    expect(goPatternRegExp(pattern)?.test(name)).toBe(matched);
  });
  it.each(BAD)('%s is ErrBadPattern', (pattern) => {
    expect(goPatternRegExp(pattern)).toBeUndefined();
  });
  it('a reversed range matches nothing instead of failing', () => {
    expect(goPatternRegExp('[z-a]')?.test('m')).toBe(false);
  });
  it('globs directory by directory, each sorted, paths cleaned as filepath.Join does', () => {
    const tree: Record<string, string[]> = { '.': ['b', 'a'], a: ['y.yaml', 'x.yaml'], b: ['x.yaml'] }; // prettier-ignore
    const list = (d: string) => tree[d]?.map((name) => ({ name, directory: d === '.' }));
    expect(goGlob('*/x.yaml', list)).toEqual(['a/x.yaml', 'b/x.yaml']);
    expect(goGlob('?/*.yaml', list)).toEqual(['a/x.yaml', 'a/y.yaml', 'b/x.yaml']);
    expect(goGlob('./[', list)).toBe(BAD_PATTERN);
    expect(cleanPath('./a//b/../c/')).toBe('a/c');
  });
});
