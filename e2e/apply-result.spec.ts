/**
 * The answer to Apply. A mode switch reports each table against itself (iptables-save before
 * and after, the IPVS table before and after): it used to compare iptables-save with
 * ipvsadm -Ln and say "node-1: +30 −133 rule lines", every iptables rule "deleted". An empty
 * editor applied used to wipe the cluster ("Applied. No rule changed.", an empty graph, a
 * terminal with no host); it is refused and the last good cluster keeps running.
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('switching to IPVS reports iptables and IPVS separately, in English and Chinese', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Settings/);
  await page.getByRole('radio', { name: 'ipvs' }).click();
  await expect(page.getByRole('radio', { name: 'ipvs' })).toHaveAttribute('aria-checked', 'true');
  await lab.ready();
  await lab.tab(/Scenario/);
  const result = page.getByTestId('apply-result');
  // IPVS mode adds its own iptables chains and rewrites a few of iptables mode's rules; the
  // IPVS table was empty, so it only gains lines (the counts are src/worker's unit tests').
  await expect(result).toContainText('node-1: iptables +26 −8 lines; ipset +35 −0 lines; IPVS +27 −0 lines'); // prettier-ignore
  await expect(result.locator('pre[data-table=ipvs]').first()).toContainText(
    '+ TCP  10.96.1.1:80 rr',
  );
  // kubelet's chains and the mangle table are not deleted: iptables-save still prints them.
  const iptables = result.locator('pre[data-table=iptables]').first();
  await expect(iptables).toContainText('# iptables-save');
  await expect(iptables).not.toContainText('- *mangle');
  await expect(iptables).not.toContainText('KUBE-KUBELET-CANARY');
  await lab.shot('50-apply-ipvs-diff');

  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await expect(result).toContainText('node-1：iptables 新增 26 行、删除 8 行；ipset 新增 35 行、删除 0 行；IPVS 新增 27 行、删除 0 行'); // prettier-ignore
  expect(lab.foreign).toEqual([]);
});

test('an empty scenario is refused and the cluster keeps running; the built-in one comes back on request', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Scenario/);
  await page.locator('.monaco-editor').waitFor();
  // Select everything and delete it, as a learner would.
  await page.evaluate(() => window.__labEditor!.focus());
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await expect.poll(() => lab.editorText()).toBe('');
  await page.getByRole('button', { name: 'Apply' }).click();
  await lab.ready();
  const result = page.getByTestId('apply-result');
  await expect(result).toContainText(
    'Not applied: the scenario is empty (no objects). The last good cluster keeps running.',
  );
  await expect(page.getByTestId('diagnostics')).toContainText('1:1');
  await expect(page.getByTestId('apply-state')).toHaveText('Edited, not applied yet.');
  await lab.shot('51-empty-refused');

  // The cluster is still there: the graph, a trace, the terminal on node-1.
  await expect(page.locator('.react-flow__node', { hasText: 'client' })).toBeVisible();
  await lab.send();
  expect((await lab.position()).total).toBeGreaterThan(10);
  await lab.tab(/Terminal/);
  const term = page.getByTestId('terminal');
  await term.click();
  await page.keyboard.type('iptables-save -t mangle | grep CANARY');
  await page.keyboard.press('Enter');
  await expect(term).toContainText(':KUBE-KUBELET-CANARY - [0:0]');
  await expect(term).not.toContainText('kube-proxy-lab:');

  // Start over rebuilds the last good cluster; the editor keeps the learner's (empty) text.
  await page.getByRole('button', { name: 'Start over' }).click();
  await lab.ready();
  await expect(page.locator('.react-flow__node', { hasText: 'client' })).toBeVisible();
  expect(await lab.editorText()).toBe('');

  // In Chinese too; and the refusal offers the built-in scenario back.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await lab.tab(/场景/);
  await page.getByRole('button', { name: '应用', exact: true }).click();
  await lab.ready();
  await expect(result).toContainText(
    '未应用：场景是空的（没有任何对象）。上一个正确的集群继续运行。',
  );
  await result.getByRole('button', { name: '载入内置场景' }).click();
  await lab.ready();
  await expect.poll(() => lab.editorText()).toContain('kind: Node');
  await expect(page.getByTestId('apply-state')).toHaveText('集群正在运行这份文本。');
  expect(lab.foreign).toEqual([]);
});
