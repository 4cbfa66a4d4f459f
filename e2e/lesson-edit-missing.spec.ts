/**
 * Lesson 11's LoadBalancer step through the panel's buttons: its edit widens a line that the
 * step's YAML adds, so “Change it and apply” clicked first has nothing to change — the panel
 * says so (zh-CN and English) instead of silently applying the unchanged scenario. In order —
 * the YAML, curl (dropped), the edit, curl again — the step's check passes.
 */
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './lab-page';

async function atLoadBalancerStep(page: Page): Promise<LabPage> {
  const lab = new LabPage(page);
  await lab.openAtLessonStep('11-service-types', 2, ['external-name', 'headless']);
  return lab;
}

test('lesson 11: the edit clicked before the YAML says it changed nothing; in order, the step passes', async ({
  page,
}) => {
  const lab = await atLoadBalancerStep(page);
  const step = page.getByTestId('step-load-balancer');
  // The panel shows the step once it has replayed the steps before it.
  await expect(step.getByTestId('edit-scenario')).toBeEnabled({ timeout: 20_000 });
  const before = await lab.editorText();
  expect(before).toContain('web-headless');
  await step.getByTestId('edit-scenario').click();
  await expect(step.getByTestId('edit-missing')).toContainText(
    'The scenario in the editor has no text to change',
  );
  expect(await lab.editorText()).toBe(before);
  await lab.language('zh-CN');
  await expect(step.getByTestId('edit-missing')).toContainText('所以什么也没改');
  await lab.language('en');

  await step.getByTestId('append-yaml').click();
  await expect(step.getByTestId('append-yaml')).toBeEnabled({ timeout: 20_000 });
  const curl = step.getByTestId('run-2');
  await curl.click();
  await expect(curl).toBeEnabled({ timeout: 20_000 });
  await expect(step.getByTestId('step-output')).toContainText('curl: (28)');
  await step.getByTestId('edit-scenario').click();
  await expect(step.getByTestId('edit-missing')).toHaveCount(0);
  await expect.poll(() => lab.editorText()).toContain('192.168.1.100/32, 10.244.0.0/16');
  await expect(curl).toBeEnabled({ timeout: 20_000 });
  await curl.click();
  await expect(curl).toBeEnabled({ timeout: 20_000 });
  await step.getByTestId('check').click();
  await expect(step.getByTestId('step-done')).toBeVisible({ timeout: 20_000 });
  await expect(step.locator('[data-passed="false"]')).toHaveCount(0);
  expect(lab.foreign).toEqual([]);
});
