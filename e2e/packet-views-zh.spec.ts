/**
 * The packet views in zh-CN: the lane, the inspector, the event list and the saved text say the
 * lab's own words in Chinese (the tools' terms — chains, hooks, DNAT, conntrack — as the tools
 * print them), and every view numbers a step as the player does.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('in zh-CN the lane and the inspector are in Chinese and count steps as the player', async ({
  page,
}) => {
  // 62 steps, each waited for: longer than the default minute on a shared machine.
  test.setTimeout(180_000);
  const lab = new LabPage(page);
  await lab.open();
  // English first: one step per second is singular.
  await expect(page.getByLabel('Speed', { exact: true }).locator('option[value="1"]')).toHaveText(
    '1 step/s',
  );
  await lab.language('zh-CN');
  await expect(page.getByLabel('速度', { exact: true }).locator('option[value="1"]')).toHaveText(
    '每秒 1 步',
  );
  await lab.tab(/检查器/);
  await lab.send();
  const { total } = await lab.position();

  const stations = new Set<string>();
  for (let i = 1; i <= total; i++) {
    await lab.stepForward();
    await expect(page.getByTestId('position')).toContainText(`第 ${i} 步，共 ${total} 步`);
    for (const st of await lab.stations()) stations.add(st.split('\n')[0]!.trim());
    if (i === 17) {
      // The DNS story's step 17: the KUBE-SEP rule that DNATs to a CoreDNS pod.
      const heading = page.getByTestId('inspector').locator('h3');
      await expect(heading).toHaveText(/^第 17 步 · 规则 · node-1 \(cni0\)$/);
      expect(LabPage.stepIn((await heading.textContent()) ?? '')).toBe((await lab.position()).n);
      // The packet's headers step by step: one number per row, the player's, in Chinese.
      const history = page.locator('.header-history li');
      await expect(history.first()).toHaveText(/^#1 pod\/default\/client 发送: UDP /);
      await expect(history.nth(1)).toHaveText(/^#\d+ pod\/default\/client 线路: UDP /);
      expect(
        await page.locator('.header-history').evaluate((el) => getComputedStyle(el).listStyleType),
      ).toBe('none');
      await lab.shot('50-zh-inspector-step-17');
    }
  }
  const seen = [...stations].join(' | ');
  for (const word of ['发送', '路由', 'conntrack 新建', 'conntrack 确认', '已交付'])
    expect(stations.has(word), `${word} in ${seen}`).toBe(true);
  for (const word of ['send', 'routing', 'conntrack new', 'confirmed', 'DELIVERED'])
    expect(seen).not.toContain(word);
  // iptables' own names stay as iptables prints them.
  for (const term of ['PREROUTING', 'KUBE-SERVICES', 'DNAT', 'POSTROUTING'])
    expect(stations.has(term), `${term} in ${seen}`).toBe(true);

  // The event list marks the current step with the player's number, and titles it in Chinese.
  await page.getByLabel('轨迹位置').fill('16');
  await expect(page.getByTestId('position')).toContainText(`第 17 步，共 ${total} 步`);
  await lab.tab(/事件/);
  const current = page.locator('[data-testid="events"] [aria-current="step"]');
  await expect(current.locator('.ev-seq')).toHaveText('17');
  await page.getByLabel(/显示每一步/).check();
  await expect(
    page.getByRole('button', { name: /nat KUBE-SERVICES #1 → 不匹配/ }).first(),
  ).toBeVisible();
  // The saved text: the same numbers, the same words.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '保存为文本' }).click();
  const report = readFileSync((await (await download).path())!, 'utf8');
  expect(report).toMatch(/^#1 {2}pod\/default\/client {2}发送 {2}· {2}UDP 10\.244\.0\.5:\d+ → /m);
  expect(report).toMatch(/^#17 {2}node-1 \(cni0\) {2}nat KUBE-SEP-\w+ #2 → DNAT/m);
  expect(report).not.toMatch(/^#0 /m);
  expect(lab.foreign).toEqual([]);
});
