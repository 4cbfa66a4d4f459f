/**
 * A here-document typed at the lab's terminal: Enter on a line that opens one shows bash's
 * continuation prompt `> ` (PS2) and reads lines until the delimiter, then runs the whole
 * command; Ctrl+C abandons it. What bash 5.2 does at a real terminal (checked by hand).
 */
import { expect, test, type Page } from '@playwright/test';
import { LabPage, terminalLines } from './lab-page';

const PROMPT = 'node-1$ ';

async function openTerminal(page: Page): Promise<void> {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Terminal/);
  await page.getByTestId('terminal').click();
}

/** Types a line and presses Enter; waits until the screen's last row is `until`. */
async function enter(page: Page, line: string, until: string): Promise<void> {
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await terminalLines(page)).at(-1)).toBe(until);
}

test('a here-document: `> ` until its delimiter, then the command runs', async ({ page }) => {
  await openTerminal(page);
  await enter(page, 'cat <<EOF | grep -c port', '>');
  await enter(page, 'ports:', '>');
  await enter(page, '  - port: $((8000 + 80))', '>');
  await enter(page, 'EOF', PROMPT.trimEnd());
  expect(await terminalLines(page)).toEqual([
    `${PROMPT}cat <<EOF | grep -c port`,
    '> ports:',
    '>   - port: $((8000 + 80))',
    '> EOF',
    '2',
    PROMPT.trimEnd(),
  ]);
  // The body was expanded: the arithmetic reached cat.
  await enter(page, 'cat <<END', '>');
  await enter(page, 'x $((8000 + 80))', '>');
  await enter(page, 'END', PROMPT.trimEnd());
  expect((await terminalLines(page)).at(-2)).toBe('x 8080');
});

test('Ctrl+C abandons a here-document being typed', async ({ page }) => {
  await openTerminal(page);
  await enter(page, 'cat <<EOF', '>');
  await enter(page, 'never shown', '>');
  await page.keyboard.press('Control+C');
  await expect.poll(async () => (await terminalLines(page)).at(-1)).toBe(PROMPT.trimEnd());
  await enter(page, 'echo after', PROMPT.trimEnd());
  expect(await terminalLines(page)).toEqual([
    `${PROMPT}cat <<EOF`,
    '> never shown',
    '> ^C',
    `${PROMPT}echo after`,
    'after',
    PROMPT.trimEnd(),
  ]);
});
