/**
 * Lines pasted at the lab's terminal, as bash 5.2 (Debian 12, readline's enable-bracketed-paste
 * on by default) takes them, checked at a pty with `\e[200~…\e[201~`: the pasted text goes into
 * the line with its line breaks, each line after the first at column 0; nothing runs until
 * Enter; then the lines run in order, a here-document's body taken from the lines after it
 * (no `> `), each command's output after it. A paste that ends in a line break leaves the
 * cursor on an empty row, where the output then starts. ↑ recalls each command, a
 * here-document's lines as one entry (cmdhist).
 */
import { expect, test, type Page } from '@playwright/test';
import { LabPage, terminalLines } from './lab-page';

const PROMPT = 'node-1$';

/** Where xterm's cursor is, counted from the screen's top row. */
async function cursor(page: Page): Promise<{ row: number; col: number }> {
  return page.evaluate(async () => {
    const term = window.__labTerminal!;
    await new Promise<void>((resolve) => term.write('', resolve));
    const buffer = term.buffer.active;
    return { row: buffer.baseY + buffer.cursorY, col: buffer.cursorX };
  });
}

/** The text of the cells in standout (inverse), row by row, rows without any left out. */
async function highlighted(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const term = window.__labTerminal!;
    await new Promise<void>((resolve) => term.write('', resolve));
    const buffer = term.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      const row = buffer.getLine(y)!;
      let text = '';
      for (let x = 0; x < term.cols; x++) {
        const cell = row.getCell(x)!;
        if (cell.isInverse() && cell.getWidth() > 0) text += cell.getChars();
      }
      if (text !== '') rows.push(text);
    }
    return rows;
  });
}

/** Pastes as a learner does (xterm brackets it, once the prompt turned the mode on). */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => window.__labTerminal!.paste(text), text);
}

async function openTerminal(page: Page): Promise<void> {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Terminal/);
  await page.getByTestId('terminal').click();
}

const SERVICE = [
  'kubectl apply -f - <<EOF',
  'apiVersion: v1',
  'kind: Service',
  'metadata:',
  '  name: hello',
  'spec:',
  '  selector:',
  '    app: web',
  '  ports:',
  '  - port: 8080',
  '    targetPort: http',
  'EOF',
  'kubectl get svc hello',
];

test('a pasted here-document, kubectl apply and get: shown as lines, run on Enter', async ({
  page,
}) => {
  await openTerminal(page);
  await paste(page, `${SERVICE.join('\n')}\n`);
  // Shown as its lines, the first after the prompt; the cursor alone on the empty row after.
  await expect.poll(() => terminalLines(page)).toEqual([`${PROMPT} ${SERVICE[0]}`, ...SERVICE.slice(1)]); // prettier-ignore
  expect(await cursor(page)).toEqual({ row: SERVICE.length, col: 0 });
  // Highlighted (standout), as bash 5.2 shows a paste until the next key.
  expect(await highlighted(page)).toEqual(SERVICE);
  // Nothing ran: no output, no Service yet.
  await page.waitForTimeout(300);
  expect((await terminalLines(page)).length).toBe(SERVICE.length);

  await page.keyboard.press('Enter');
  await expect.poll(async () => (await terminalLines(page)).at(-1)).toBe(PROMPT);
  const rows = await terminalLines(page);
  expect(await highlighted(page)).toEqual([]);
  // The output starts on the paste's empty last row: no blank row, no `> ` prompts.
  expect(rows.slice(0, SERVICE.length)).toEqual([`${PROMPT} ${SERVICE[0]}`, ...SERVICE.slice(1)]);
  expect(rows[SERVICE.length]).toBe('service/hello created');
  expect(rows[SERVICE.length + 1]).toMatch(/^NAME +TYPE +CLUSTER-IP +EXTERNAL-IP +PORT\(S\) +AGE$/);
  expect(rows[SERVICE.length + 2]).toMatch(/^hello +ClusterIP +10\.96\.\d+\.\d+ +<none> +8080\/TCP +\d+s$/); // prettier-ignore
  expect(rows.slice(SERVICE.length + 3)).toEqual([PROMPT]);

  // ↑: the last command, then the here-document's command whole, its lines at column 0.
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await terminalLines(page)).at(-1)).toBe(`${PROMPT} kubectl get svc hello`); // prettier-ignore
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await terminalLines(page)).slice(-12)).toEqual([`${PROMPT} ${SERVICE[0]}`, ...SERVICE.slice(1, 12)]); // prettier-ignore
  // Ctrl+C discards it all.
  await page.keyboard.press('Control+C');
  await expect.poll(async () => (await terminalLines(page)).at(-1)).toBe(PROMPT);
  expect((await terminalLines(page)).at(-2)).toBe('^C');
});

test('pasted lines: an error does not stop the rest, $? carries, blank lines run nothing', async ({
  page,
}) => {
  await openTerminal(page);
  await page.keyboard.type('echo 甲');
  await page.keyboard.press('ArrowLeft');
  // In the middle of the line: the rest of it follows the pasted text.
  await paste(page, '乙\nnosuchcmd\necho $?\n\n  \necho 丙\t');
  await expect
    .poll(() => terminalLines(page))
    .toEqual([`${PROMPT} echo 乙`, 'nosuchcmd', 'echo $?', 'echo 丙 甲']);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await terminalLines(page)).at(-1)).toBe(PROMPT);
  // What bash 5.2 printed for the same paste and Enter.
  expect(await terminalLines(page)).toEqual([
    `${PROMPT} echo 乙`,
    'nosuchcmd',
    'echo $?',
    'echo 丙 甲',
    '乙',
    'bash: nosuchcmd: command not found',
    '127',
    '丙 甲',
    PROMPT,
  ]);
});

test('a pasted here-document left open goes on at `> `', async ({ page }) => {
  await openTerminal(page);
  await paste(page, 'cat <<EOF\none\n');
  await expect.poll(() => terminalLines(page)).toEqual([`${PROMPT} cat <<EOF`, 'one']);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await terminalLines(page)).at(-1)).toBe('>');
  await page.keyboard.type('EOF');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await terminalLines(page)).at(-1)).toBe(PROMPT);
  // The paste's last, empty line was a line of the body: cat prints it too.
  const all = await page.evaluate(() => {
    const buffer = window.__labTerminal!.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < buffer.length; y++) rows.push(buffer.getLine(y)!.translateToString(true));
    return rows.join('\n').trimEnd();
  });
  expect(all).toBe([`${PROMPT} cat <<EOF`, 'one', '> EOF', 'one', '', PROMPT].join('\n'));
});

// Keys typed while the pasted lines run wait for the prompt after the last of them, as bash
// reads its buffer's lines before readline reads the tty again (../src/ui/terminal/type-ahead.ts).
test('keys typed while pasted lines run are read after all of them', async ({ page }) => {
  await openTerminal(page);
  await paste(page, 'echo one\necho two\n');
  await expect.poll(() => terminalLines(page)).toEqual([`${PROMPT} echo one`, 'echo two']);
  // Enter, then keys in the same task of the page: the first command is surely still running.
  await page.evaluate(() => {
    const term = window.__labTerminal!;
    term.input('\r');
    term.input('echo three');
    term.input('\r');
  });
  await expect.poll(async () => (await terminalLines(page)).at(-1)).toBe(PROMPT);
  expect(await terminalLines(page)).toEqual([
    `${PROMPT} echo one`,
    'echo two',
    'echo three', // the tty's echo, as the keys come
    'one',
    'two',
    `${PROMPT} echo three`,
    'three',
    PROMPT,
  ]);
});

// Before xterm has read the prompt's "\x1b[?2004h" a paste comes unbracketed, its line breaks
// as "\r" in one piece of data: readline then takes each "\r" as Enter (bash with
// enable-bracketed-paste off runs each line as it reads it).
test('lines that come unbracketed at the prompt run one by one', async ({ page }) => {
  await openTerminal(page);
  await page.evaluate(() => window.__labTerminal!.input('echo a\recho b\r'));
  await expect.poll(async () => (await terminalLines(page)).at(-1)).toBe(PROMPT);
  await expect
    .poll(() => terminalLines(page))
    .toEqual([`${PROMPT} echo a`, 'a', `${PROMPT} echo b`, 'b', PROMPT]);
});
