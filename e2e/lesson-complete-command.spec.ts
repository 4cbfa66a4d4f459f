/**
 * Lesson 7's UDP step through the panel's buttons, as a learner does it: a command with a
 * placeholder (`kubectl delete pod ECHO-POD`) is never run as written — its button puts it into
 * the terminal, unrun, the cursor after ECHO-POD; Ctrl+W, the pod's name, Enter — and the
 * step's check then passes. In English, and the panel's words for it in zh-CN.
 */
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './lab-page';

// The first three steps done, as the learner leaves them (the panel replays them on Continue).
async function atUdpStep(page: Page): Promise<LabPage> {
  const lab = new LabPage(page);
  await lab.openAtLessonStep('07-rolling-update', 3, ['long-connection', 'restart', 'killed']);
  return lab;
}

async function runButton(page: Page, index: number): Promise<void> {
  const button = page.getByTestId('step-udp').getByTestId(`run-${index}`);
  await button.click();
  await expect(button).toBeEnabled({ timeout: 20_000 });
}

test('lesson 7, UDP: the delete line is completed in the terminal and the check passes', async ({
  page,
}) => {
  const lab = await atUdpStep(page);
  const step = page.getByTestId('step-udp');
  await step.getByLabel('It is load-balanced again, to a live pod').check();
  await runButton(page, 0);
  await runButton(page, 1);
  const answered = /(echo-[a-z0-9]+-[a-z0-9]+) \(10\.244\.[\d.]+:5353\/udp\)/;
  await expect(step.getByTestId('step-output')).toContainText(answered);
  const pod = answered.exec((await step.getByTestId('step-output').textContent()) ?? '')![1]!;
  await runButton(page, 2);

  // The placeholder line has no Run button: it cannot run as written.
  const line = step.getByTestId('command-3');
  await expect(line.getByTestId('run-3')).toHaveCount(0);
  await expect(line.locator('mark.placeholder')).toHaveText('ECHO-POD');
  await expect(line).toContainText('first replace ECHO-POD with:');
  await line.getByTestId('complete-3').click();
  await expect(page.getByRole('tab', { name: 'Terminal' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(line.getByTestId('completing-3')).toContainText('It is in the terminal (node-1)');
  await expect
    .poll(async () => (await lab.terminalLines().catch(() => [])).at(-1))
    .toBe('node-1$ kubectl delete pod ECHO-POD --wait=false');
  await lab.shot('lesson-07-complete-in-terminal');

  // The cursor is after ECHO-POD and the terminal has the focus: Ctrl+W, the name, Enter.
  await page.keyboard.press('Control+w');
  await page.keyboard.type(pod);
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await lab.terminalLines()).join('\n'), { timeout: 20_000 })
    .toContain(`node-1$ kubectl delete pod ${pod} --wait=false\npod "${pod}" deleted`);

  await runButton(page, 4);
  await runButton(page, 5);
  // The deleted pod's entry was cleaned up: the same socket's datagram went to the other pod.
  const backAgain = /(echo-[a-z0-9]+-[a-z0-9]+) \([^)]*\): you are [^,]+, you sent: back again/;
  await expect(step.getByTestId('step-output')).toContainText(backAgain);
  const output = (await step.getByTestId('step-output').textContent()) ?? '';
  expect(backAgain.exec(output)![1]).not.toBe(pod);
  await runButton(page, 6);
  await step.getByTestId('check').click();
  await expect(step.getByTestId('step-done')).toBeVisible({ timeout: 20_000 });
  await expect(step.locator('[data-passed="false"]')).toHaveCount(0);
  await expect(page.getByTestId('lesson-complete')).toBeVisible();
  expect(lab.foreign).toEqual([]);
});

test('lesson 7, UDP, in zh-CN: the placeholder line says in Chinese how to complete it', async ({
  page,
}) => {
  const lab = await atUdpStep(page);
  await lab.language('zh-CN');
  const step = page.getByTestId('step-udp');
  await step.getByLabel('被重新负载均衡到还活着的 Pod').check();
  const line = step.getByTestId('command-3');
  await expect(line).toContainText('这一行不能原样运行：先把 ECHO-POD 换成：');
  await expect(line).toContainText('回答了 lab flow send q hello 的那个 echo Pod 的名字');
  await line.getByRole('button', { name: '放进终端补全' }).click();
  await expect(line.getByTestId('completing-3')).toContainText(
    '已放进终端（node-1），还没有运行：光标在 ECHO-POD 之后',
  );
  await expect
    .poll(async () => (await lab.terminalLines().catch(() => [])).at(-1))
    .toBe('node-1$ kubectl delete pod ECHO-POD --wait=false');
  await lab.shot('lesson-07-complete-in-terminal-zh');
  expect(lab.foreign).toEqual([]);
});
