/**
 * `conntrack -S` in the terminal: the tool's per-CPU lines as conntrack-tools prints them, then
 * the lab's note on what it counts, in the reader's language (the tool's lines stay as they are).
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('conntrack -S prints the per-CPU counters and says in zh-CN what the lab counts', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Terminal/);
  const term = page.getByTestId('terminal');
  await term.click();
  await page.keyboard.type('conntrack -S');
  await page.keyboard.press('Enter');
  // xterm's text runs its rows together: the fields, not the tab after `cpu=0   `, are read.
  await expect(term).toContainText('found=0 invalid=0 insert=0 insert_failed=0 drop=0');
  await expect(term).toContainText('lab: a real node counts on the CPU that handled each packet');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await term.click();
  await page.keyboard.type('conntrack -S');
  await page.keyboard.press('Enter');
  await expect(term).toContainText('lab: 真实节点在处理每个报文的那个 CPU 上计数');
  await lab.shot('42-terminal-conntrack-stats-zh-CN');
  expect(lab.foreign).toEqual([]);
});
