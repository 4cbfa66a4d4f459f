/**
 * Switches, languages, the terminal, a dying worker, and accessibility (axe).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('switch proxy mode and the node switches; each edits the scenario and applies it', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Settings/);
  await page.getByRole('radio', { name: 'ipvs' }).click();
  await expect(page.getByRole('radio', { name: 'ipvs' })).toHaveAttribute('aria-checked', 'true');
  expect(await lab.editorText()).toMatch(/^mode: ipvs/m);
  // Until the IPVS proxier lands the lab says so; once it has, the rules view is ipvsadm's.
  await lab.tab(/Rules/);
  const command = (await page.locator('.rules-panel .cmd').textContent()) ?? '';
  if (command === 'iptables-save -c') {
    await lab.tab(/Settings/);
    await expect(page.getByTestId('mode-unsupported')).toContainText('ipvs');
  } else expect(command).toBe('ipvsadm -Ln');
  await lab.shot('20-mode-ipvs');
  await lab.tab(/Settings/);
  await page.getByRole('radio', { name: 'iptables' }).click();
  await expect(page.getByRole('radio', { name: 'iptables' })).toHaveAttribute(
    'aria-checked',
    'true',
  );

  await page.getByRole('switch', { name: 'node-1' }).click();
  await expect(page.getByRole('switch', { name: 'node-1' })).not.toBeChecked();
  expect(await lab.editorText()).toMatch(/net\.bridge\.bridge-nf-call-iptables: "0"/);
  await expect(page.locator('.node-group .warn-badge')).toHaveText('br-nf 0');
  await page.getByRole('switch', { name: /Masquerade every packet/ }).click();
  await lab.tab(/Rules/);
  await page.getByRole('radio', { name: 'Text' }).click();
  await expect(page.getByTestId('rules-text')).toContainText(
    '"default/web cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ',
  );
  await lab.shot('21-switches');
});

test('switch language: every label follows, the choice is remembered, tool output is not translated', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await expect(page.getByRole('tab', { name: '规则' })).toBeVisible();
  await expect(page.getByRole('button', { name: '发送', exact: true })).toBeVisible();
  await page.getByRole('button', { name: '发送', exact: true }).click();
  for (let i = 0; i < 40 && (await lab.currentStation()) !== 'DNAT'; i++) {
    await page.keyboard.press('ArrowRight');
  }
  await expect(page.getByTestId('why')).toHaveText('DNAT：在 PREROUTING 改写目的地址');
  await lab.shot('30-zh-CN');
  await page.reload();
  await lab.ready();
  await expect(page.getByRole('tab', { name: '规则' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.getByRole('tab', { name: '规则' }).click();
  // iptables-save's own text stays as the tool prints it.
  await expect(page.locator('.rules-panel .cmd')).toHaveText('iptables-save -c');
  await page.getByRole('combobox', { name: '语言' }).selectOption('en');
  await expect(page.getByRole('tab', { name: 'Rules' })).toBeVisible();
});

test('the terminal runs the CLI commands on a chosen host against the running cluster', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Terminal/);
  const term = page.getByTestId('terminal');
  await term.click();
  await page.keyboard.type('iptables -t nat -L KUBE-SERVICES -n | head -1');
  await page.keyboard.press('Enter');
  await expect(term).toContainText('Chain KUBE-SERVICES (2 references)');
  await page.getByRole('combobox', { name: 'Host' }).selectOption('pod/default/client');
  await term.click();
  await page.keyboard.type('dig +short web.default.svc.cluster.local');
  await page.keyboard.press('Enter');
  await expect(term).toContainText('10.96.1.1');
  // Its packets became the trace to animate.
  await expect(page.getByTestId('position')).toContainText(/Step 0 of \d+/);
  await lab.shot('40-terminal');
});

test('a dying worker restarts, the lab says so, and no edit is lost', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.typeInEditor('\n# my unsaved note\n', 'end');
  await page.evaluate(() => window.__lab!.crashWorker());
  await expect(page.getByTestId('notice')).toContainText('restarted');
  await lab.ready();
  expect(await lab.editorText()).toContain('# my unsaved note');
  await lab.send();
  await lab.shot('50-worker-restarted');
});

test('keyboard and accessible names: axe finds no serious problem', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.send();
  for (let i = 0; i < 17; i++) await page.keyboard.press('ArrowRight');
  const serious = (r: Awaited<ReturnType<AxeBuilder['analyze']>>) =>
    r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  // The whole page once (Monaco's own editing surface is checked by its authors)…
  await lab.tab(/Scenario/);
  expect(serious(await new AxeBuilder({ page }).exclude('.monaco-editor').analyze())).toEqual([]);
  // …then each other panel.
  for (const tab of [/Events/, /Rules/, /Inspector/, /Settings/]) {
    await lab.tab(tab);
    expect(serious(await new AxeBuilder({ page }).include('.panels').analyze())).toEqual([]);
  }
  // Tabs move with the arrow keys.
  await page.getByRole('tab', { name: 'Settings' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Terminal' })).toBeFocused();
});
