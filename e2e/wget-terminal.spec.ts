/**
 * wget in the web terminal, on the client pod: the progress bar drawn over itself (`\r`, as
 * wget 1.21.3 draws it on a terminal, at the terminal's own width: too narrow here for the
 * `[===>]` part, which wget drops below 5 columns), the body of `-O-` written after the first
 * image, as the real wget writes it, and the lab's notes in the reader's language.
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('wget draws its bar over itself and says in zh-CN why the rate is what it is', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Terminal/);
  await page.getByRole('combobox', { name: 'Host' }).selectOption('pod/default/client');
  const term = page.getByTestId('terminal');
  await term.click();
  await page.keyboard.type('wget -O /dev/null http://web/');
  await page.keyboard.press('Enter');
  await expect(term).toContainText('Connecting to web (web)|10.96.1.1|:80... connected.');
  await expect(term).toContainText('‘/dev/null’ saved [65/65]');
  await expect(term).toContainText("lab: packets take no time in the lab, so wget's transfer");
  // The last image replaced the first on its row: the 0% image is gone from the screen.
  const rows = await page.evaluate(async () => {
    const t = window.__labTerminal!;
    await new Promise<void>((resolve) => t.write('', resolve));
    const b = t.buffer.active;
    return Array.from({ length: b.length }, (_, y) => b.getLine(y)!.translateToString(true));
  });
  const bar = rows.filter((r) => /\d+%/.test(r));
  expect(bar).toHaveLength(1);
  expect(bar[0]).toMatch(/^\/dev\/null +100%.* 65 +--\.-KB\/s +in 0s/);
  await page.keyboard.type('wget -O- http://web/');
  await page.keyboard.press('Enter');
  await expect(term).toContainText('written to stdout [65/65]');
  await expect(term).toContainText('(10.244.1.');

  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await term.click();
  await page.keyboard.type('wget http://web/');
  await page.keyboard.press('Enter');
  await expect(term).toContainText('lab: 实验台不保存文件，所以没有写出 index.html');
  await expect(term).toContainText('lab: 实验台里数据包的传输不花时间');
  await lab.shot('43-terminal-wget-zh-CN');
  expect(lab.foreign).toEqual([]);
});
