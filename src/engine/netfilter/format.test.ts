import { describe, expect, it } from 'vitest';
import { ctimeUtc, printNum, probabilityText, probabilityThreshold, saveString } from './format';
import { tokenizeRestoreLine } from './tokenize';

describe('statistic probability as the kernel stores it', () => {
  // kube-proxy writes 1/(n-i) with %0.10f; iptables stores lround(p * 2^31) and prints %.11f.
  const table: [number, string, number][] = [
    [2, '0.50000000000', 1073741824],
    [3, '0.33333333349', 715827883],
    [4, '0.25000000000', 536870912],
    [5, '0.20000000019', 429496730],
    [6, '0.16666666651', 357913941],
    [7, '0.14285714272', 306783378],
    [8, '0.12500000000', 268435456],
    [9, '0.11111111101', 238609294],
    [10, '0.10000000009', 214748365],
  ];
  it.each(table)('n=%i prints %s', (n, printed, stored) => {
    const p = Number((1 / n).toFixed(10));
    expect(probabilityThreshold(p)).toBe(stored);
    expect(probabilityText(probabilityThreshold(p))).toBe(printed);
  });
  it('rounds the 12th decimal half to even like glibc', () => {
    // 2^19 / 2^31 = 1/4096 = 0.000244140625 exactly.
    expect(probabilityText(2 ** 19)).toBe('0.00024414062');
    expect(probabilityText(0)).toBe('0.00000000000');
    expect(probabilityText(2 ** 31)).toBe('1.00000000000');
  });
});

describe('xtables_print_num', () => {
  it('human units above 99999', () => {
    expect(printNum(99999, true)).toBe('99999 ');
    expect(printNum(100000, true)).toBe(' 100K ');
    expect(printNum(99999999, true)).toBe(' 100M ');
    expect(printNum(1234567890, true)).toBe('1235M ');
    expect(printNum(123456789012, true)).toBe(' 123G ');
    expect(printNum(99999999999999, true)).toBe(' 100T ');
  });
  it('exact with -x', () => {
    expect(printNum(60, false)).toBe('      60 ');
    expect(printNum(1234567890, false)).toBe('1234567890 ');
  });
});

describe('save quoting (xtables_save_string)', () => {
  it('bare only for [A-Za-z0-9_-]+', () => {
    expect(saveString('x_y-Z9')).toBe(' x_y-Z9');
    expect(saveString('default/web:http')).toBe(' "default/web:http"');
    expect(saveString('')).toBe(' ""');
    expect(saveString(`a"b'c\\d`)).toBe(` "a\\"b\\'c\\\\d"`);
  });
});

describe('ctime in UTC', () => {
  it('pads the day with a space', () => {
    expect(ctimeUtc(0)).toBe('Thu Jan  1 00:00:00 1970');
    expect(ctimeUtc(1_700_000_000)).toBe('Tue Nov 14 22:13:20 2023');
    expect(ctimeUtc(1_709_547_302)).toBe('Mon Mar  4 10:15:02 2024');
  });
});

describe('restore line words (add_param_to_argv)', () => {
  it('groups double quotes, keeps single quotes, unescapes inside quotes', () => {
    expect(tokenizeRestoreLine('-A X -m comment --comment "a b" -j Y\n')).toEqual([
      '-A',
      'X',
      '-m',
      'comment',
      '--comment',
      'a b',
      '-j',
      'Y',
    ]);
    expect(tokenizeRestoreLine(`--comment 'single q'`)).toEqual(['--comment', "'single", "q'"]);
    expect(tokenizeRestoreLine('--comment "esc \\" q"')).toEqual(['--comment', 'esc " q']);
    expect(tokenizeRestoreLine('--comment ""  x')).toEqual(['--comment', '', 'x']);
    // An unterminated quote takes the rest of the line, newline included.
    expect(tokenizeRestoreLine('--comment "open -j ACCEPT\n')).toEqual([
      '--comment',
      'open -j ACCEPT\n',
    ]);
  });
});
