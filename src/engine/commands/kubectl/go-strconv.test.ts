/**
 * strconv.ParseInt(s, 0, 64), expected values read off Go's strconv/atoi.go (ParseUint's base
 * 0 prefixes and leading-0 octal, underscoreOK, the uint64 overflow inside the digit loop, then
 * ParseInt's int64 cutoff); no Go toolchain runs here to replay them.
 */
import { describe, expect, it } from 'vitest';
import { goParseInt64 } from './go-strconv';

describe('goParseInt64 (base 0, 64 bits)', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['+12', 12n],
    ['-3', -3n],
    ['0x1F', 31n],
    ['0X_1f', 31n],
    ['0o17', 15n],
    ['017', 15n],
    ['0b101', 5n],
    ['1_000', 1000n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
  ])('%s is %s', (s, n) => expect(goParseInt64(s)).toBe(n));

  it.each(['', '+', '-', 'x', '1.5', '08', '0x', '1__0', '_1', '1_', '0b2', ' 1', '1e3'])(
    '%j is invalid syntax',
    (s) => expect(goParseInt64(s)).toBe('invalid syntax'),
  );

  it.each([
    '9223372036854775808',
    '-9223372036854775809',
    '18446744073709551616',
    '99999999999999999999x',
  ])('%s is out of range', (s) => expect(goParseInt64(s)).toBe('value out of range'));
});
