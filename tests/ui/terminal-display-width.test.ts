/**
 * Cells per character as the lab's terminal counts them: compared with @xterm/xterm 6 itself
 * (its core runs in Node without a screen), whose default Unicode 6 table decides where xterm
 * wraps a line and puts a wide character.
 */
import { Terminal } from '@xterm/xterm';
import { describe, expect, it } from 'vitest';
import { cellWidth, displayWidth } from '../../src/ui/terminal/display-width';

/** xterm's own wcwidth (UnicodeService; not public API, hence the cast). */
function xtermWcwidth(): (codePoint: number) => number {
  const term = new Terminal();
  const core = (term as unknown as { _core: { unicodeService: { wcwidth(c: number): number } } })
    ._core;
  return (codePoint) => core.unicodeService.wcwidth(codePoint);
}

describe('cellWidth', () => {
  it('counts CJK, Hangul and fullwidth forms as 2, combining marks and controls as 0', () => {
    expect([...'a你好，Ａ한'].map((c) => cellWidth(c.codePointAt(0)!))).toEqual([1, 2, 2, 2, 2, 2]);
    expect(cellWidth(0x301)).toBe(0); // COMBINING ACUTE ACCENT
    expect(cellWidth(0x1b)).toBe(0);
    expect(cellWidth(0x7f)).toBe(0);
    // Unicode 6 tables, as xterm's default: U+303F is narrow, emoji are 1, Extension B is 2.
    expect(cellWidth(0x303f)).toBe(1);
    expect(cellWidth(0x1f600)).toBe(1);
    expect(cellWidth(0x20000)).toBe(2);
  });

  it('agrees with xterm 6 for every code point', () => {
    const wcwidth = xtermWcwidth();
    const differ: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (cellWidth(codePoint) !== wcwidth(codePoint)) differ.push(codePoint.toString(16));
    }
    expect(differ).toEqual([]);
  });
});

describe('displayWidth', () => {
  it('adds the cells of each code point, a surrogate pair once', () => {
    expect(displayWidth('echo 你好世界')).toBe(13);
    expect(displayWidth('𠀀a')).toBe(3); // U+20000, two UTF-16 units, 2 cells
    expect(displayWidth('e\u0301')).toBe(1);
  });
});
