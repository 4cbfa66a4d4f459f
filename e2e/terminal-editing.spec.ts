/**
 * The terminal's line editing: what the prompt line shows is what runs, also when the line
 * wraps past the terminal's width or holds double-width (CJK) characters. Read from xterm's
 * buffer, cell by cell; `echo` prints back what ran. (A lone "\b \b" per Backspace used to
 * leave the screen behind: it cannot move back to the row above, and moves one cell of two.)
 */
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './lab-page';

// 1600×900: the terminal is about 55 columns wide, so an 80-character line wraps.
test.use({ viewport: { width: 1600, height: 900 } });

const PROMPT = 'node-1$ ';

/**
 * The screen's logical lines (wrapped rows joined). Cell by cell: a wide character's second
 * cell has width 0 and an unwritten or erased cell no characters, so neither adds to the text,
 * while a typed space does (translateToString would pad or trim both alike).
 */
async function screenLines(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const term = window.__labTerminal!;
    // After what the keys pressed so far wrote: xterm parses writes in order, later.
    await new Promise<void>((resolve) => term.write('', resolve));
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      const row = buffer.getLine(y)!;
      let text = '';
      for (let x = 0; x < term.cols; x++) {
        const cell = row.getCell(x)!;
        if (cell.getWidth() > 0) text += cell.getChars();
      }
      if (row.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    return lines;
  });
}

function lastIndexWhere(lines: string[], test: (line: string) => boolean): number {
  for (let i = lines.length - 1; i >= 0; i--) if (test(lines[i]!)) return i;
  return -1;
}

/** The line after the last prompt: what the screen shows as typed. */
async function shownInput(page: Page): Promise<string> {
  const lines = await screenLines(page);
  const last = lastIndexWhere(lines, (line) => line.startsWith(PROMPT));
  return (lines[last] ?? '').slice(PROMPT.length);
}

/** Presses Enter after an `echo`; returns what the screen showed and what echo printed. */
async function runEcho(page: Page): Promise<{ shown: string; printed: string }> {
  const shown = await shownInput(page);
  expect(shown).toMatch(/^echo /);
  await page.keyboard.press('Enter');
  // Done when a new, empty prompt follows the output.
  await expect
    .poll(async () => (await screenLines(page)).filter((line) => line !== '').at(-1))
    .toBe(PROMPT);
  const lines = await screenLines(page);
  const ran = lastIndexWhere(lines, (line) => line === `${PROMPT}${shown}`);
  expect(ran, `the line ${JSON.stringify(shown)} stays on the screen`).toBeGreaterThanOrEqual(0);
  return { shown, printed: lines[ran + 1] ?? '' };
}

async function openTerminal(page: Page): Promise<void> {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Terminal/);
  await page.getByTestId('terminal').click();
  await expect.poll(() => page.evaluate(() => window.__labTerminal?.cols ?? 0)).toBeLessThan(70);
}

test('Backspace back over a wrapped line: the screen shows what runs', async ({ page }) => {
  await openTerminal(page);
  const typed = 'abcdefghij'.repeat(8);
  await page.keyboard.type(`echo ${typed}`);
  expect(await shownInput(page)).toBe(`echo ${typed}`);
  for (let i = 0; i < 45; i++) await page.keyboard.press('Backspace');
  const { shown, printed } = await runEcho(page);
  expect(shown).toBe(`echo ${typed.slice(0, 35)}`);
  expect(printed).toBe(typed.slice(0, 35));
});

test('Backspace over double-width characters: the screen shows what runs', async ({ page }) => {
  await openTerminal(page);
  await page.keyboard.insertText('echo 你好世界');
  for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('ok');
  const { shown, printed } = await runEcho(page);
  expect(shown).toBe('echo ok');
  expect(printed).toBe('ok');
});

test('the other editing keys on a wrapped line of wide characters, history, a pasted block', async ({
  page,
}) => {
  await openTerminal(page);
  const cjk = '中文'.repeat(15); // 30 characters, 60 cells: with "echo " the line wraps
  await page.keyboard.insertText(`echo ${cjk}`);
  // Back 10 (across the wrap), delete 3 before the cursor, type 2 there.
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('ab');
  await page.keyboard.press('Home');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.type('X');
  // Ctrl+W takes back the word typed at the end (readline's unix-word-rubout), Backspace its blank.
  await page.keyboard.press('End');
  await page.keyboard.type(' tail');
  await page.keyboard.press('Control+w');
  await page.keyboard.press('Backspace');
  const edited = `echo X${cjk.slice(0, 17)}ab${cjk.slice(20)}`;
  expect(await shownInput(page)).toBe(edited);
  expect(await runEcho(page)).toEqual({ shown: edited, printed: edited.slice(5) });

  // ↑ recalls it; Ctrl+K cuts from the cursor to the end.
  await page.keyboard.press('ArrowUp');
  expect(await shownInput(page)).toBe(edited);
  await page.keyboard.press('Home');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Control+k');
  expect(await runEcho(page)).toEqual({ shown: 'echo X', printed: 'X' });

  // ↑↑ the older command, ↓ the newer, Ctrl+U empties the line.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  expect(await shownInput(page)).toBe(edited);
  await page.keyboard.press('ArrowDown');
  expect(await shownInput(page)).toBe('echo X');
  await page.keyboard.press('Control+u');
  expect(await shownInput(page)).toBe('');
  // A pasted block goes in at the cursor with its line breaks (tabs become blanks), as bash 5.2
  // with bracketed paste keeps it (./terminal-paste.spec.ts); Enter runs each of its lines.
  await page.keyboard.insertText('echo 甲');
  await page.keyboard.press('ArrowLeft');
  await page.evaluate(() => window.__labTerminal!.paste('一\necho 二\t三 '));
  await expect
    .poll(async () => (await screenLines(page)).filter((line) => line !== '').slice(-2))
    .toEqual([`${PROMPT}echo 一`, 'echo 二 三 甲']);
  await page.keyboard.press('Enter');
  expect((await linesWhenDone(page)).slice(-5)).toEqual([
    `${PROMPT}echo 一`,
    'echo 二 三 甲',
    '一',
    '二 三 甲',
    PROMPT,
  ]);
});

test('Ctrl+L clears the screen and redraws a wrapped line at the top, still editable', async ({
  page,
}) => {
  await openTerminal(page);
  await page.keyboard.type('echo before');
  // No wait for its output: keys pressed while it runs are kept for the next prompt.
  await page.keyboard.press('Enter');
  await page.keyboard.insertText(`echo ${'世界'.repeat(16)}`);
  await page.keyboard.press('Control+l');
  await expect
    .poll(async () => (await screenLines(page))[0])
    .toBe(`${PROMPT}echo ${'世界'.repeat(16)}`);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Backspace');
  // The 29th of the 32 characters (a 世) is gone.
  const edited = `echo ${'世界'.repeat(14)}界世界`;
  expect(await runEcho(page)).toEqual({ shown: edited, printed: edited.slice(5) });
  expect((await screenLines(page)).join('\n')).not.toContain('before');
});

test('clear empties the screen and the scrollback, as ncurses clear does in an xterm', async ({
  page,
}) => {
  await openTerminal(page);
  await page.keyboard.type('seq 1 60');
  await page.keyboard.press('Enter');
  await linesWhenDone(page);
  await page.keyboard.type('clear');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await screenLines(page)).filter((line) => line !== '')).toEqual([PROMPT]); // prettier-ignore
  // Nothing left above the screen either (ESC[3J): the buffer holds one screen.
  expect(await page.evaluate(() => window.__labTerminal!.buffer.active.baseY)).toBe(0);
});

/** The screen's lines once the last one is an empty prompt (every command typed has run). */
async function linesWhenDone(page: Page): Promise<string[]> {
  await expect
    .poll(async () => (await screenLines(page)).filter((line) => line !== '').at(-1))
    .toBe(PROMPT);
  return (await screenLines(page)).filter((line) => line !== '');
}

/**
 * Presses Enter and then sends `more` in the same task of the page, so that the command is
 * surely still running when they come (its answer comes from the worker, in a later task).
 */
async function enterThen(page: Page, ...more: Array<{ input: string } | { paste: string }>) {
  await page.evaluate((more) => {
    const term = window.__labTerminal!;
    term.input('\r');
    for (const what of more) {
      if ('input' in what) term.input(what.input);
      else term.paste(what.paste);
    }
  }, more);
}

// A tty keeps what is typed while a command runs and echoes it (canonical mode); readline reads
// it at the next prompt (./../src/ui/terminal/type-ahead.ts).
test('keys typed while a command runs are kept: the next command runs after it', async ({
  page,
}) => {
  await openTerminal(page);
  await page.keyboard.type('echo first');
  await enterThen(page, { input: 'echo second' }, { input: '\r' });
  expect(await linesWhenDone(page)).toEqual([
    `${PROMPT}echo first`,
    'echo second', // the tty's echo, before the first command's output
    'first',
    `${PROMPT}echo second`,
    'second',
    PROMPT,
  ]);
});

test('lines pasted while a command runs run one after another', async ({ page }) => {
  await openTerminal(page);
  await page.keyboard.type('echo one');
  await enterThen(page, { paste: 'echo two\necho three\n' });
  expect(await linesWhenDone(page)).toEqual([
    `${PROMPT}echo one`,
    'echo two',
    'echo three',
    'one',
    `${PROMPT}echo two`,
    'two',
    `${PROMPT}echo three`,
    'three',
    PROMPT,
  ]);
});

test('Ctrl+C while a command runs discards what was typed ahead, and says it cannot stop it', async ({
  page,
}) => {
  await openTerminal(page);
  await page.keyboard.type('echo one');
  await enterThen(page, { input: 'echo lost\r' }, { input: '\x03' }, { input: 'echo kept\r' });
  const lines = await linesWhenDone(page);
  expect(lines[0]).toBe(`${PROMPT}echo one`);
  // The echo as typed, then the command's output: it ran to the end.
  expect(lines[1]).toBe('echo lost');
  expect(lines[2]).toBe('^Cecho kept');
  expect(lines[3]).toBe('one');
  expect(lines[4]).toMatch(/^lab: Ctrl-C came while the command ran; .*cannot interrupt it/);
  expect(lines.slice(5)).toEqual([`${PROMPT}echo kept`, 'kept', PROMPT]);
  // `echo lost`, typed ahead before Ctrl+C, never ran.
  expect(lines).not.toContain('lost');
});

test('past 4095 bytes typed ahead the rest is dropped, and the terminal says so', async ({
  page,
}) => {
  await openTerminal(page);
  await page.keyboard.type('echo one');
  // 4095 bytes kept (n_tty's N_TTY_BUF_SIZE 4096, one byte kept free), 905 dropped.
  await enterThen(page, { paste: 'x'.repeat(5000) });
  await expect
    .poll(async () => (await screenLines(page)).some((line) => line.startsWith('lab: 905 bytes')))
    .toBe(true);
  expect(await shownInput(page)).toBe('x'.repeat(4095));
});
