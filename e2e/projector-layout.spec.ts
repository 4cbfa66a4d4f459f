/**
 * The lab on a 1280×720 or 1280×800 projector: with "Graph only" and the lessons folded the
 * middle is much wider than tall, so the lane and the conntrack table go beside the graph and
 * the graph keeps the height (app.css, @container center). Stacked at 1280×720 (measured by
 * switching the container query off), fitView drew the topology at 0.79 of its size (0.68 with
 * Large text): 11px labels at 7.5–8.7px; at 1280×800, 0.95 (0.85).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { LabPage } from './lab-page';

// 1280×720 (also the suite's default viewport, set here so it stays the one tested).
test.use({ viewport: { width: 1280, height: 720 } });

/** The scale React Flow draws the topology at (1 = the node labels at their CSS size). */
async function graphZoom(page: Page): Promise<number> {
  return page
    .locator('.react-flow__viewport')
    .first()
    .evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (b === null) throw new Error('not rendered');
  return b;
}

/** Sends the DNS query and steps to its first packet's jump into KUBE-SVC-… on node-1. */
async function toKubeServices(lab: LabPage): Promise<void> {
  await lab.send();
  for (let i = 0; i < 40 && !(await lab.currentStation()).startsWith('KUBE-SVC-'); i++)
    await lab.stepForward();
  expect(await lab.currentStation()).toMatch(/^KUBE-SVC-/);
}

// The two common projector sizes: 16:9 (1280×720) and 16:10 (1280×800, WXGA).
for (const height of [720, 800]) {
  test(`Graph only on a 1280×${height} projector: lane and conntrack beside a full-size graph, with and without Large text`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height });
    const lab = new LabPage(page);
    await lab.open();
    await page.getByTestId('lessons-toggle').click();
    await page.getByRole('button', { name: 'Graph only' }).click();
    await toKubeServices(lab);

    for (const large of [false, true]) {
      if (large) await page.getByRole('button', { name: 'Large text' }).click();
      const graph = await box(page.locator('.graph'));
      const lane = await box(page.locator('.lane'));
      const conntrack = await box(page.locator('.conntrack'));
      // Beside the graph, one above the other, not below it.
      expect(lane.x).toBeGreaterThanOrEqual(graph.x + graph.width - 1);
      expect(conntrack.x).toBeGreaterThanOrEqual(graph.x + graph.width - 1);
      expect(conntrack.y).toBeGreaterThanOrEqual(lane.y + lane.height - 1);
      expect(graph.height).toBeGreaterThan(500);
      await expect.poll(() => graphZoom(page)).toBeGreaterThanOrEqual(1);
      // The step's explanation and its rule wrap in the column instead of being cut off.
      for (const part of ['.lane .why', '.lane .rule-text']) {
        const text = page.locator(part);
        await expect(text).toBeVisible();
        const b = await box(text);
        expect(b.x + b.width).toBeLessThanOrEqual(lane.x + lane.width + 1);
        expect(b.y + b.height).toBeLessThanOrEqual(lane.y + lane.height + 1);
        expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      }
      // The lane's row of stations is scrolled to show the current one.
      const current = await box(page.locator('.station.current'));
      expect(current.x).toBeGreaterThanOrEqual(lane.x);
      expect(current.x + current.width).toBeLessThanOrEqual(lane.x + lane.width);
      await expect(page.getByTestId('conntrack-rows')).toContainText('dport=53 [UNREPLIED]');
      await lab.shot(`${large ? '31' : '30'}-projector-1280x${height}${large ? '-large' : ''}`);
    }
  });
}

test('with the side panels open (1280×720) the lane and conntrack stay below the graph', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await toKubeServices(lab);
  const graph = await box(page.locator('.graph'));
  const lane = await box(page.locator('.lane'));
  expect(lane.y).toBeGreaterThanOrEqual(graph.y + graph.height - 1);
  expect(lane.x).toBeLessThanOrEqual(graph.x + 1);
  // Stacked, the graph is as wide as the middle: narrower beside the lane it would be smaller.
  expect(lane.width).toBeGreaterThanOrEqual(graph.width - 1);
});

test('Large text on a small screen: the graph says it is drawn small and how to give it room (English and 中文)', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  const hint = page.getByTestId('small-graph-hint');
  // Without Large text there is no hint, whatever the zoom (0.67 here).
  await expect.poll(() => graphZoom(page)).toBeLessThan(0.7);
  await expect(hint).toHaveCount(0);

  await page.getByRole('button', { name: 'Large text' }).click();
  // The wider panels leave the graph 419×200 px, less the hint's row above it: fitView draws
  // it at about 0.3.
  await expect.poll(() => graphZoom(page)).toBeLessThan(0.5);
  const pct = Math.round((await graphZoom(page)) * 100);
  await expect(hint).toContainText(`Graph drawn at ${pct}%.`);
  await expect(hint).toContainText('Graph only, and fold Lessons');
  await lab.shot('32-small-graph-hint');

  // In Chinese too.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await expect(hint).toContainText(`拓扑图按 ${pct}% 绘制`);
  await expect(hint).toContainText('只看拓扑');
  await page.getByRole('combobox', { name: '语言' }).selectOption('en');

  // Its button closes the panels; the hint then asks only for the lessons to fold.
  await hint.getByRole('button', { name: 'Graph only' }).click();
  await expect(page.getByRole('button', { name: 'Graph only' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(hint).toContainText('For a projector: fold Lessons.');
  // Folded, the graph is drawn at full size beside the lane, and the hint is gone.
  await page.getByTestId('lessons-toggle').click();
  await expect.poll(() => graphZoom(page)).toBeGreaterThanOrEqual(1);
  await expect(hint).toHaveCount(0);

  // Dismissed, it stays away until Large text is turned on again.
  await page.getByRole('button', { name: 'Graph only' }).click();
  await expect(hint).toBeVisible();
  await hint.getByRole('button', { name: 'Dismiss' }).click();
  await expect(hint).toHaveCount(0);
  await page.getByRole('button', { name: 'Large text' }).click();
  await page.getByRole('button', { name: 'Large text' }).click();
  await expect(hint).toBeVisible();
});

test('a presenter jumps from stop to stop with Shift+→/←, and to the ends with Home/End', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.send();
  const { total } = await lab.position();
  expect(total).toBeGreaterThan(40);
  await page.keyboard.press('Shift+ArrowRight');
  expect((await lab.position()).n).toBe(1);
  // The next stops: each a hook, a rewrite, a wire or the verdict, never a rule tried.
  const seen: number[] = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Shift+ArrowRight');
    seen.push((await lab.position()).n);
  }
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  expect(new Set(seen).size).toBe(4);
  expect(seen.at(-1)!).toBeGreaterThan(5);
  await page.keyboard.press('Shift+ArrowLeft');
  expect((await lab.position()).n).toBe(seen.at(-2));
  await page.keyboard.press('End');
  expect((await lab.position()).n).toBe(total);
  await page.keyboard.press('Home');
  expect((await lab.position()).n).toBe(0);
  await expect(page.getByRole('button', { name: 'Step forward' })).toHaveAttribute(
    'title',
    /Shift\+→: the next stop/,
  );
});

test('Start over rebuilds the cluster: no trace, empty conntrack, the same packet again', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  await lab.send();
  await page.keyboard.press('End');
  await expect(page.locator('.conntrack').first()).toContainText('10.96.0.10');
  const firstPrompt = await page.locator('.prompt').first().textContent();
  await page.getByRole('button', { name: 'Start over' }).click();
  await lab.ready();
  await expect(
    page.getByText('No packet yet: pick a source and a destination, then Send.'),
  ).toBeVisible();
  await expect(page.locator('.conntrack').first()).toContainText('0 flow entries');
  await lab.send();
  expect(await page.locator('.prompt').first().textContent()).toBe(firstPrompt);
});

test('a projector window follows the lab window step by step, and runs no engine of its own', async ({
  page,
  context,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  const opened = context.waitForEvent('page');
  await page.getByRole('button', { name: 'Projector window' }).click();
  const projector = new LabPage(await opened);
  await projector.page.waitForLoadState();
  await expect(projector.page.getByTestId('following')).toContainText('Projector window');
  await expect(projector.page.getByTestId('engine')).toHaveText('Engine ready');
  await expect(projector.page.locator('.react-flow__node', { hasText: 'client' })).toBeVisible();
  // Only the graph, the lane and conntrack; no picker, no panels; large text.
  await expect(projector.page.getByRole('button', { name: 'Send' })).toHaveCount(0);
  await expect(projector.page.getByRole('tab')).toHaveCount(0);
  await expect(projector.page.locator('.lab')).toHaveClass(/large/);

  await lab.send();
  for (let i = 0; i < 9; i++) await lab.stepForward();
  await expect.poll(async () => (await projector.position()).n).toBe(9);
  expect(await projector.position()).toEqual(await lab.position());
  await expect(projector.page.locator('.station.current')).toHaveText(
    (await page.locator('.station.current').textContent()) ?? '',
  );
  await page.keyboard.press('End');
  await expect.poll(async () => (await projector.position()).n).toBe((await lab.position()).total);
  await projector.shot('33-projector-window');
  // Its controls are inert: the keys go to the presenter's window.
  await projector.page.keyboard.press('Home');
  expect((await projector.position()).n).toBe((await lab.position()).total);
  expect(await projector.page.evaluate(() => window.__lab === undefined)).toBe(true);
  // The presenter's language switch reaches the projector.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await expect(projector.page.getByTestId('following')).toContainText('投影窗口');
  await expect(projector.page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  expect([...lab.foreign, ...projector.foreign]).toEqual([]);
});

test('the graph saves as a PNG for slides: the whole cluster at twice its size, drawn in the browser', async ({
  page,
}) => {
  const lab = new LabPage(page);
  await lab.open();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save the graph as an image (PNG)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('cluster.png');
  const png = readFileSync((await file.path())!);
  // The PNG signature, then the IHDR chunk's width and height (big-endian).
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  // Twice the whole laid-out graph plus its 24px margins, whatever the zoom on screen: the
  // union of every drawn node's box, divided by the zoom React Flow draws at.
  const natural = await page.evaluate(() => {
    const zoom = new DOMMatrix(
      getComputedStyle(document.querySelector('.react-flow__viewport')!).transform,
    ).a;
    const boxes = [...document.querySelectorAll('.react-flow__node')].map((n) =>
      n.getBoundingClientRect(),
    );
    const w = Math.max(...boxes.map((b) => b.right)) - Math.min(...boxes.map((b) => b.left));
    const h = Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top));
    return { width: w / zoom, height: h / zoom };
  });
  expect(Math.abs(width - 2 * (natural.width + 48))).toBeLessThan(8);
  expect(Math.abs(height - 2 * (natural.height + 48))).toBeLessThan(8);
  expect(lab.foreign).toEqual([]);
});
