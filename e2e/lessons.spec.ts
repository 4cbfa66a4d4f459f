/**
 * A whole lesson in the browser: lesson 9 (the same-node bridge), from the lesson list to
 * “Lesson complete”, as a learner does it — predict, run the commands from the panel, type
 * the answer read off tcpdump, check each step against the lab, reveal a hint — in English,
 * with nothing leaving localhost. The progress survives a reload.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { LabPage } from './lab-page';

async function runAll(step: Locator, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const button = step.getByTestId(`run-${i}`);
    await button.click();
    await expect(button).toBeEnabled({ timeout: 20_000 });
  }
}

async function checkPasses(page: Page, step: Locator): Promise<void> {
  await step.getByTestId('check').click();
  await expect(step.getByTestId('step-done')).toBeVisible({ timeout: 20_000 });
  await expect(step.locator('[data-passed="false"]')).toHaveCount(0);
}

test('lesson 9, the same-node bridge, from start to end', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await page.getByTestId('lesson-09-same-node-bridge').click();
  await page.getByTestId('lesson-start').click();
  await lab.ready();
  // The scenario picker names the lesson's scenario.
  await expect(
    page.getByRole('combobox', { name: 'Scenario' }).locator('option:checked'),
  ).toHaveText(/^Lesson 9: /);
  await lab.shot('lesson-01-started');

  // Step 1: predict, then run; the check passes only once the lab shows the un-DNATed reply.
  const works = page.getByTestId('step-works');
  await expect(works.getByTestId('run-0')).toHaveCount(0);
  await works.getByLabel('Only bridged inside cni0 (layer 2)').check();
  await expect(works.getByTestId('reveal-synack-path')).toContainText('Right.');
  await works.getByTestId('check').click();
  await expect(works.locator('[data-passed="false"]').first()).toBeVisible();
  await works.getByTestId('hint').click();
  await expect(works.getByTestId('hint-1')).toBeVisible();
  await runAll(works, 3);
  await expect(works.getByTestId('step-output')).toContainText('you are 10.244.0.5');
  await checkPasses(page, works);
  await works.getByTestId('next-step').click();

  // Step 2: bridge-nf-call-iptables=0; the SYN-ACK comes from the pod's own address.
  const broken = page.getByTestId('step-broken');
  await broken
    .getByLabel('The SYN-ACK arrives from 10.244.0.4:8080, the client answers RST, curl times out')
    .check();
  await runAll(broken, 5);
  await expect(broken.getByTestId('step-output')).toContainText('10.244.0.4.8080 > 10.244.0.5');
  await expect(broken.getByTestId('step-output')).toContainText('Flags [R]');
  await broken.getByTestId('answer-synack-source').fill('10.96.1.11');
  await broken.getByTestId('check').click();
  await expect(broken.locator('[data-passed="false"]')).toHaveCount(1);
  await broken.getByTestId('answer-synack-source').fill('10.244.0.4');
  await checkPasses(page, broken);
  await lab.shot('lesson-02-broken');
  await broken.getByTestId('next-step').click();

  // Step 3: two times out of three.
  const twoOfThree = page.getByTestId('step-two-of-three');
  await twoOfThree.getByLabel('About 2/3').check();
  await runAll(twoOfThree, 8);
  await checkPasses(page, twoOfThree);
  await twoOfThree.getByTestId('next-step').click();

  // Step 4: the fix.
  const fix = page.getByTestId('step-fix');
  await runAll(fix, 2);
  await checkPasses(page, fix);
  await expect(page.getByTestId('lesson-complete')).toBeVisible();
  await lab.shot('lesson-03-complete');

  // Progress is kept in the browser.
  await page.reload();
  await lab.ready();
  await expect(page.getByTestId('lesson-complete')).toBeVisible();
  expect(lab.foreign).toEqual([]);
});

test('lesson 8: the engine measures the scale experiment in the browser and charts it', async ({
  page,
}) => {
  // Progress as a learner leaves it after lesson 8's first three steps (the panel replays them).
  const lab = new LabPage(page);
  await lab.openAtLessonStep('08-iptables-vs-ipvs', 3, ['same-packet', 'rr', 'sh']);
  const step = page.getByTestId('step-scale');
  await step.getByLabel('The same as now').check();
  await step.getByTestId('scale-measure').click();
  const rows = step.getByTestId('scale-table').locator('tbody tr');
  // Three modes at each of the five sizes, measured one size per worker call.
  await expect(rows).toHaveCount(15, { timeout: 60_000 });
  const cells = async (i: number) =>
    (await rows.nth(i).locator('td').allTextContents()).map((c) => c.replace(/,/g, ''));
  const first = await cells(0);
  const last = await cells(12);
  expect([first[0], first[1], last[0], last[1]]).toEqual(['iptables', '10', 'iptables', '1000']);
  // iptables: one more KUBE-SERVICES rule tried per Service; IPVS: the same few rules.
  expect(Number(last[4]) - Number(first[4])).toBe(990);
  expect((await cells(13))[4]).toBe((await cells(1))[4]);
  await expect(step.locator('svg.scale-plot polyline')).toHaveCount(6);
  await lab.shot('lesson-08-scale-chart');
  expect(lab.foreign).toEqual([]);
});
