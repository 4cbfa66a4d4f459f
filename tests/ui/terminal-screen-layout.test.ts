/**
 * The terminal's redraw, checked on @xterm/xterm 6 itself (its core runs in Node): after each
 * edit the screen's logical line is the prompt and the typed line, and xterm's cursor is where
 * cursorPlace() says, across wraps, wide characters at a row's end and a prompt that starts
 * after output.
 */
import { Terminal } from '@xterm/xterm';
import { describe, expect, it } from 'vitest';
import {
  cursorPlace,
  drawLine,
  layout,
  redrawLine,
  type PromptLine,
} from '../../src/ui/terminal/screen-layout';

const write = (term: Terminal, data: string) =>
  new Promise<void>((resolve) => term.write(data, resolve));

/** The logical line the prompt is on (rows joined; empty and second halves of wide cells skipped). */
function promptRowText(term: Terminal, firstRow: number): string {
  const buffer = term.buffer.active;
  let text = '';
  for (let y = firstRow; y < buffer.length; y++) {
    const row = buffer.getLine(y)!;
    if (y > firstRow && !row.isWrapped) break;
    for (let x = 0; x < term.cols; x++) {
      const cell = row.getCell(x)!;
      if (cell.getWidth() > 0) text += cell.getChars();
    }
  }
  return text;
}

function line(chars: string, cursor: number, startCol = 0, cols = 12): PromptLine {
  return {
    cols,
    startCol,
    prompt: 'n$ ',
    styledPrompt: '\x1b[32mn$ \x1b[0m',
    chars: [...chars],
    cursor,
  };
}

/** Draws `steps[0]`, redraws each next one, and checks the screen after every step. */
async function checkSteps(steps: PromptLine[], before = ''): Promise<void> {
  const first = steps[0]!;
  const term = new Terminal({ cols: first.cols, rows: 8, allowProposedApi: true });
  await write(term, before);
  const promptRow = term.buffer.active.cursorY;
  await write(term, drawLine(first));
  let shown = first;
  for (const step of steps) {
    if (step !== first) await write(term, redrawLine(shown, step));
    shown = step;
    expect(promptRowText(term, promptRow)).toBe(before + step.prompt + step.chars.join(''));
    const place = cursorPlace(step);
    const buffer = term.buffer.active;
    expect({ row: buffer.cursorY - promptRow, col: buffer.cursorX }).toEqual(place);
  }
  term.dispose();
}

describe('layout', () => {
  it('moves a wide character that does not fit to the next row (xterm leaves the cell empty)', () => {
    expect(layout([...'abc你'], 0, 4)).toEqual([
      { row: 0, col: 0 },
      { row: 0, col: 1 },
      { row: 0, col: 2 },
      { row: 1, col: 0 },
      { row: 1, col: 2 },
    ]);
  });

  it('ends a full row with the cursor pending on it, not on the next', () => {
    expect(layout([...'abcd'], 0, 4).at(-1)).toEqual({ row: 0, col: 4 });
  });
});

describe('drawLine and redrawLine on xterm', () => {
  it('Backspace back over a wrapped line', async () => {
    const typed = 'abcdefghijklmnopqrstu';
    const steps = [line(typed, typed.length)];
    for (let n = typed.length - 1; n >= 0; n--) steps.push(line(typed.slice(0, n), n));
    await checkSteps(steps);
  });

  it('Backspace over wide characters, then typing', async () => {
    await checkSteps([
      line('echo 你好世界', 9),
      line('echo 你好世', 8),
      line('echo 你好', 7),
      line('echo 你', 6),
      line('echo ', 5),
      line('echo ok', 7),
    ]);
  });

  it('moves the cursor inside a wrapped line of wide characters and edits there', async () => {
    const text = 'ab你好世界中文字符';
    const steps = [line(text, text.length)];
    for (let at = text.length - 1; at >= 0; at--) steps.push(line(text, at));
    steps.push(line('ab你好X世界中文字符', 5), line('abc你好X世界中文字符', 3));
    await checkSteps(steps);
  });

  it('fills a row exactly, and the prompt after output that did not end its line', async () => {
    // "n$ " + 9 characters fill 12 columns: the cursor stays pending on row 0.
    await checkSteps([line('123456789', 9), line('1234567890', 10), line('123456789', 9)]);
    await checkSteps(
      [line('你好世界', 4, 5), line('你好世界', 1, 5), line('你世界', 1, 5), line('', 0, 5)],
      'done.',
    );
  });
});

/** The screen's rows from `firstRow` on, trailing blanks trimmed. */
function rowsFrom(term: Terminal, firstRow: number, count: number): string[] {
  const rows: string[] = [];
  for (let y = firstRow; y < firstRow + count; y++)
    rows.push(term.buffer.active.getLine(y)!.translateToString(true));
  return rows;
}

// A pasted block of lines: bash 5.2 (readline) shows each line after the first at column 0 of
// a row of its own (what a pty showed for `\e[200~echo one\necho two\n\e[201~`), wrapping
// each as a line of its own.
describe('a line with line breaks (a pasted block)', () => {
  it('starts each line at column 0 of the next row, a full row or a wrap included', () => {
    expect(layout([...'ab\ncd'], 9, 12)).toEqual([
      { row: 0, col: 9 },
      { row: 0, col: 10 },
      { row: 0, col: 11 },
      { row: 1, col: 0 },
      { row: 1, col: 1 },
      { row: 1, col: 2 },
    ]);
    // A line that fills its row: the break leaves the pending wrap for the next row's start.
    expect(layout([...'abc\nd'], 0, 3).slice(3)).toEqual([
      { row: 0, col: 3 },
      { row: 1, col: 0 },
      { row: 1, col: 1 },
    ]);
  });

  it('is drawn and redrawn as its rows on xterm, the cursor where cursorPlace says', async () => {
    const term = new Terminal({ cols: 12, rows: 10, allowProposedApi: true });
    const text = 'echo one\nabcdefghijklmnop\n123456789\n';
    const steps = [line(text, text.length), line(text, 2), line(`ec${text.slice(3)}`, 2)];
    steps.push(line('你好\n世界', 4));
    await write(term, drawLine(steps[0]!));
    let shown = steps[0]!;
    for (const step of steps) {
      if (step !== shown) await write(term, redrawLine(shown, step));
      shown = step;
      const buffer = term.buffer.active;
      expect({ row: buffer.cursorY, col: buffer.cursorX }).toEqual(cursorPlace(step));
    }
    // The longer block's rows are erased (ED 0 from the prompt's start).
    expect(rowsFrom(term, 0, 5)).toEqual(['n$ 你好', '世界', '', '', '']);
    term.dispose();
    const again = new Terminal({ cols: 12, rows: 10, allowProposedApi: true });
    await write(again, drawLine(line(text, 3)));
    expect(rowsFrom(again, 0, 6)).toEqual([
      'n$ echo one',
      'abcdefghijkl',
      'mnop',
      '123456789',
      '',
      '',
    ]);
    expect([again.buffer.active.cursorY, again.buffer.active.cursorX]).toEqual([0, 6]);
    again.dispose();
  });
});

describe('a highlighted paste', () => {
  /** Each row's cells in standout (inverse), as text. */
  const inverse = (term: Terminal, rows: number) =>
    Array.from({ length: rows }, (_, y) => {
      const row = term.buffer.active.getLine(y)!;
      let text = '';
      for (let x = 0; x < term.cols; x++) {
        const cell = row.getCell(x)!;
        if (cell.isInverse() && cell.getWidth() > 0) text += cell.getChars();
      }
      return text;
    });

  it('is drawn in standout, line by line; the redraw without it is plain', async () => {
    const term = new Terminal({ cols: 12, rows: 6, allowProposedApi: true });
    const pasted = { ...line('echo 一\n二 甲', 9), highlight: { from: 5, to: 8 } };
    await write(term, drawLine(pasted));
    expect(rowsFrom(term, 0, 2)).toEqual(['n$ echo 一', '二 甲']);
    expect(inverse(term, 2)).toEqual(['一', '二']);
    await write(term, redrawLine(pasted, { ...pasted, highlight: undefined }));
    expect(rowsFrom(term, 0, 2)).toEqual(['n$ echo 一', '二 甲']);
    expect(inverse(term, 2)).toEqual(['', '']);
    term.dispose();
  });
});

describe('redrawLine, a line taller than the screen', () => {
  /** The rows the screen shows (not the scrollback), and the cursor on it. */
  const visible = (term: Terminal) => {
    const buffer = term.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < term.rows; y++)
      rows.push(buffer.getLine(buffer.baseY + y)!.translateToString(true));
    return { rows, cursor: [buffer.cursorY, buffer.cursorX] };
  };

  // Six rows on a screen of four: the prompt's row and the next are in the scrollback, where
  // no cursor movement reaches (CUU stops at the top row, as in any terminal).
  it('redraws the rows on the screen only, and edits there land where they show', async () => {
    const term = new Terminal({ cols: 12, rows: 4, allowProposedApi: true });
    const text = 'l1\nl2\nl3\nl4\nl5\nl6';
    const steps = [
      line(text, text.length),
      line(text.slice(0, -1), text.length - 1),
      line(text.slice(0, -1), 10),
      line('l1\nl2\nl3\nlX4\nl5\nl', 11),
    ];
    await write(term, drawLine(steps[0]!));
    expect(visible(term)).toEqual({ rows: ['l3', 'l4', 'l5', 'l6'], cursor: [3, 2] });
    const seen = [];
    for (let i = 1; i < steps.length; i++) {
      const screen = { rows: term.rows, cursorRow: term.buffer.active.cursorY };
      await write(term, redrawLine(steps[i - 1]!, steps[i]!, screen));
      seen.push(visible(term));
    }
    expect(seen).toEqual([
      { rows: ['l3', 'l4', 'l5', 'l'], cursor: [3, 1] },
      { rows: ['l3', 'l4', 'l5', 'l'], cursor: [1, 1] },
      { rows: ['l3', 'lX4', 'l5', 'l'], cursor: [1, 2] },
    ]);
    // The scrollback keeps the rows above once: a redraw from the top row would scroll copies
    // of the whole line into it, one at each edit.
    expect(rowsFrom(term, 0, term.buffer.active.length)).toEqual([
      'n$ l1',
      'l2',
      'l3',
      'lX4',
      'l5',
      'l',
    ]);
    term.dispose();
  });

  it('a line that fits on the screen is redrawn from its prompt, as without a screen', () => {
    const [a, b] = [line('abc\ndef', 7), line('abc\nde', 6)];
    expect(redrawLine(a, b, { rows: 2, cursorRow: 1 })).toBe(redrawLine(a, b));
  });
});
