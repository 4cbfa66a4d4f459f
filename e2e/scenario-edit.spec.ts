/**
 * Editing the scenario: type a new Service into Monaco, apply, see the rules that changed and
 * the new rule in the rules panel; a bad document is refused with positioned errors while the
 * last good cluster keeps running; a reload keeps every edit.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { scenarioLink } from '../src/cli/link';
import { LabPage } from './lab-page';

const NEW_SERVICE = `---
apiVersion: v1
kind: Service
metadata:
  name: echo
spec:
  selector:
    app: web
  ports:
  - port: 7777
    targetPort: 8080
`;

test('edit YAML, apply, the new rule shows; a bad document keeps the cluster; reload keeps edits', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.typeInEditor(`\n${NEW_SERVICE}`, 'end');
  await expect(page.getByTestId('apply-state')).toHaveText('Edited, not applied yet.');
  await page.getByRole('button', { name: 'Apply' }).click();
  const result = page.getByTestId('apply-result');
  await expect(result).toContainText('node-1: iptables +');
  // kube-proxy's rule for the new ClusterIP port, as iptables-save prints it.
  await expect(result).toContainText(
    '-A KUBE-SERVICES -d 10.96.1.3/32 -p tcp -m comment --comment "default/echo cluster IP" -m tcp --dport 7777 -j KUBE-SVC-',
  );
  await expect(page.getByTestId('apply-state')).toHaveText('The cluster runs this text.');
  await lab.shot('10-applied-rule-diff');

  await lab.tab(/Rules/);
  await page.getByRole('radio', { name: 'Text' }).click();
  await expect(page.getByTestId('rules-text')).toContainText(
    '"default/echo cluster IP" -m tcp --dport 7777',
  );
  await page.getByRole('radio', { name: 'Chain tree' }).click();
  await expect(page.getByTestId('chain-tree')).toContainText('default/echo cluster IP');
  await lab.shot('11-rules-panel');

  // A bad document: the API server's message with line:col, and the cluster keeps 7777.
  const text = await lab.editorText();
  const line = text.split('\n').findIndex((l) => l.includes('- port: 7777')) + 1;
  await lab.typeInEditor('0', { line, column: '  - port: 7777'.length + 1 });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('apply-result')).toContainText('Not applied');
  await expect(page.getByTestId('diagnostics')).toContainText(`${line}:`);
  await expect(page.getByTestId('diagnostics')).toContainText('77770');
  await lab.shot('12-bad-document');
  await lab.tab(/Rules/);
  await page.getByRole('radio', { name: 'Text' }).click();
  await expect(page.getByTestId('rules-text')).toContainText('--dport 7777 ');

  // Reload: the editor still has the (bad) edit, the cluster is the last good one.
  await page.reload();
  await lab.ready();
  await lab.tab(/Scenario/);
  await page.locator('.monaco-editor').waitFor();
  expect(await lab.editorText()).toContain('- port: 77770');
  await expect(page.getByTestId('diagnostics')).toContainText('77770');
  await lab.tab(/Rules/);
  await page.getByRole('radio', { name: 'Text' }).click();
  await expect(page.getByTestId('rules-text')).toContainText('--dport 7777 ');
  expect(lab.foreign).toEqual([]);
});

test('presets load in one click', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  const presets = page.getByRole('combobox', { name: 'Scenario' });
  const options = await presets.locator('option').allTextContents();
  expect(options.length).toBeGreaterThanOrEqual(7);
  await presets.selectOption({ index: 3 });
  await lab.ready();
  await lab.tab(/Scenario/);
  await page.locator('.monaco-editor').waitFor();
  expect(await lab.editorText()).toContain('# Experiment:');
  await expect(page.getByTestId('apply-state')).toHaveText('The cluster runs this text.');
  await presets.selectOption({ index: 0 });
  await lab.ready();
  await expect.poll(() => lab.editorText()).toContain('# A small cluster');
});

test("the schema's hover texts follow the language", async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Scenario/);
  await page.locator('.monaco-editor').waitFor();
  const hoverOn = async (key: string) => {
    await page.evaluate((k) => {
      const ed = window.__labEditor!;
      const match = ed.getModel()!.findMatches(`${k}:`, false, false, true, null, false)[0]!;
      ed.setPosition(match.range.getStartPosition());
      ed.focus();
      ed.trigger('e2e', 'editor.action.showHover', {});
    }, key);
    return page.locator('.monaco-hover-content').first();
  };
  await expect(await hoverOn('seed')).toContainText('Seeds every random choice');
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  // monaco-yaml takes the new schema asynchronously: a hover shown meanwhile keeps its text,
  // so hover again until the new one is in (as a learner would, moving the mouse).
  await expect
    .poll(async () => {
      await page.keyboard.press('Escape');
      return (await hoverOn('seed')).textContent();
    })
    .toContain('所有随机选择的种子');
  await expect(page.locator('.monaco-hover-content').first()).toContainText(
    'kube-proxy-lab 场景文档',
  );
  await lab.shot('13-hover-zh-CN');
});

test('open a scenario file from the computer, run it, and save the text as a file', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.tab(/Scenario/);
  const hairpin = readFileSync('scenarios/03-hairpin/scenario.yaml', 'utf8');
  await page.getByTestId('open-file').setInputFiles({
    name: 'my-hairpin.yaml',
    mimeType: 'text/yaml',
    buffer: Buffer.from(hairpin),
  });
  await lab.ready();
  await expect.poll(() => lab.editorText()).toBe(hairpin);
  await expect(page.getByTestId('apply-state')).toHaveText('The cluster runs this text.');
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveValue(
    'file:my-hairpin.yaml',
  );
  await expect(
    page.getByRole('combobox', { name: 'Scenario' }).locator('option:checked'),
  ).toHaveText('File: my-hairpin.yaml');
  // The file's cluster runs: its Service web-local (10.96.1.11) is in node-1's rules.
  await lab.tab(/Rules/);
  await page.getByRole('radio', { name: 'Text' }).click();
  await expect(page.getByTestId('rules-text')).toContainText('default/web-local cluster IP');

  // Save: the download is the editor's text, under the opened file's name.
  await lab.typeInEditor('\n# saved from the lab\n', 'end');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save file' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('my-hairpin.yaml');
  expect(readFileSync((await file.path())!, 'utf8')).toBe(await lab.editorText());

  // A file with an error: its problems are shown with line:column; the last good cluster runs.
  await page.getByTestId('open-file').setInputFiles({
    name: 'broken.yaml',
    mimeType: 'text/yaml',
    buffer: Buffer.from('apiVersion: v1\nkind: Service\nmetadata:\n  name: Bad_Name\n'),
  });
  await expect(page.getByTestId('diagnostics')).toContainText('4:9');
  await lab.tab(/Rules/);
  await page.getByRole('radio', { name: 'Text' }).click();
  await expect(page.getByTestId('rules-text')).toContainText('default/web-local cluster IP');
  expect(lab.foreign).toEqual([]);
});

test('copy a link that carries the scenario; opening it elsewhere gives the same text, and keeps what it replaced', async ({
  page,
  context,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.typeInEditor('\n# shared with the class\n', 'end');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('apply-state')).toHaveText('The cluster runs this text.');
  const shared = await lab.editorText();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const url = await page.getByTestId('share-link').inputValue();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#scenario=1\.[A-Za-z0-9_-]+$/);
  await lab.shot('14-share-link');
  // A scenario too large for a link is refused with a reason (the text is left as it is).
  await page.evaluate(() => {
    const s = window.__lab!.store.getState();
    const noise = Array.from({ length: 9000 }, (_, i) => `# ${(i * 2654435761) % 4294967296}`);
    s.setText(`${s.text}${noise.join('\n')}\n`);
  });
  // The link of the older text is gone with the edit.
  await expect(page.getByTestId('share-link')).toHaveCount(0);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.locator('.panel-tools [role=alert]')).toContainText(
    'save it as a file instead',
  );
  await page.evaluate((t) => window.__lab!.store.getState().setText(t), shared);

  // A second tab of the same browser, whose saved text is now something else.
  const other = new LabPage(await context.newPage());
  await other.open();
  const mine = shared.replace('# shared with the class\n', '# my own notes\n');
  await other.page.evaluate((t) => window.__lab!.store.getState().setText(t), mine);
  await other.page.goto(url);
  await other.ready();
  await expect(other.page.getByTestId('notice')).toContainText(
    'Opened the scenario the link carries.',
  );
  await expect.poll(() => other.editorText()).toBe(shared);
  expect(new URL(other.page.url()).hash).toBe('');
  await other.page.getByRole('button', { name: 'Put it back in the editor' }).click();
  await expect.poll(() => other.editorText()).toBe(mine);

  // A damaged link changes nothing and says why.
  await other.page.goto(`${url.slice(0, url.length - 40)}`);
  await other.ready();
  await expect(other.page.getByTestId('notice')).toContainText(
    "This link's scenario could not be read",
  );
  expect(await other.editorText()).toBe(mine);

  // A link the CLI made (`kube-proxy-lab link FILE --base URL`) opens the file's text.
  const hairpin = readFileSync('scenarios/03-hairpin/scenario.yaml', 'utf8');
  const base = new URL('/', page.url()).href;
  await other.page.goto(await scenarioLink(base, hairpin));
  await other.ready();
  await expect.poll(() => other.editorText()).toBe(hairpin);
  expect([...lab.foreign, ...other.foreign]).toEqual([]);
});
