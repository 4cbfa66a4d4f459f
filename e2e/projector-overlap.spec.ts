/**
 * What a room sees projected at 1280×720 and 1024×768: every step's explanation readable in full,
 * the zoom controls and the small-graph hint over no node of the graph, the header inside the
 * screen. Each failed on the layout before (QA screenshots at these sizes: the step text cut
 * with "…" on 16 of the 62 steps in English, 9 in 中文; the controls over the pods; the header
 * 1074 px wide at 1024 px with Large text; the hint over the laptop and the Services row).
 */
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './lab-page';

type Box = { x: number; y: number; width: number; height: number };

/** Overlap of more than half a pixel each way (a shared border is not covering). */
function intersects(a: Box, b: Box): boolean {
  return (
    Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 &&
    Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5
  );
}

/** The graph's nodes (pods, interfaces, the LAN, the node boxes, Services) that `selector` covers. */
async function nodesCoveredBy(page: Page, selector: string): Promise<string[]> {
  const over = await page.locator(selector).first().boundingBox();
  if (over === null) throw new Error(`${selector} is not rendered`);
  // Each node as drawn: the part of it inside the graph's pane (the pane clips the rest).
  const nodes = await page.locator('.react-flow__node').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const pane = el.closest('.react-flow')!.getBoundingClientRect();
      const x = Math.max(r.left, pane.left);
      const y = Math.max(r.top, pane.top);
      const width = Math.max(0, Math.min(r.right, pane.right) - x);
      const height = Math.max(0, Math.min(r.bottom, pane.bottom) - y);
      return { name: el.getAttribute('data-id') ?? '', box: { x, y, width, height } };
    }),
  );
  expect(nodes.length).toBeGreaterThan(10);
  return nodes.filter((n) => intersects(over, n.box)).map((n) => n.name);
}

/** Waits until fitView has drawn the graph for its box (the viewport transform stops moving). */
async function settled(page: Page): Promise<void> {
  const viewport = page.locator('.react-flow__viewport').first();
  const transform = () => viewport.evaluate((el) => getComputedStyle(el).transform);
  await expect
    .poll(
      async () => {
        const before = await transform();
        await page.waitForTimeout(300);
        return before === (await transform());
      },
      { timeout: 10_000 },
    )
    .toBe(true);
}

async function setLanguage(page: Page, lang: 'en' | 'zh-CN'): Promise<void> {
  await page.locator('.top-bar select').last().selectOption(lang);
}

/** Texts of the lane and the playback bar cut sideways: each with its overflow. */
async function cutTexts(page: Page): Promise<string[]> {
  return page
    .locator('.lane .why, .lane .rule-text, .lane .rewrite, .playback .prompt')
    .evaluateAll((els) =>
      els
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.className}: ${el.scrollWidth} > ${el.clientWidth}: ${el.textContent}`),
    );
}

for (const lang of ['en', 'zh-CN'] as const) {
  test(`1280×720 (${lang}): every step of the DNS story is readable in full, and the graph keeps its size while stepping`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 720 });
    const lab = new LabPage(page);
    await lab.open();
    await setLanguage(page, lang);
    await lab.send();
    const { total } = await lab.position();
    expect(total).toBeGreaterThan(40);
    const graphHeights = new Set<number>();
    // Every cut text of every step, so that a failure lists them all.
    const cut: string[] = [];
    for (let n = 1; n <= total; n++) {
      await lab.stepForward();
      await expect.poll(async () => (await lab.position()).n).toBe(n);
      cut.push(...(await cutTexts(page)).map((text) => `step ${n}: ${text}`));
      // Below the lane's bottom edge is hidden text: the lane scrolls to it instead.
      const hidden = await page
        .locator('.lane')
        .evaluate(
          (el) =>
            el.scrollHeight > el.clientHeight + 1 &&
            !['auto', 'scroll'].includes(getComputedStyle(el).overflowY),
        );
      expect(hidden, `step ${n}: lane text below its edge`).toBe(false);
      const graph = await page.locator('.graph').boundingBox();
      graphHeights.add(Math.round(graph?.height ?? 0));
    }
    expect(cut).toEqual([]);
    // The picture does not jump as the presenter steps: one height for the whole story.
    expect([...graphHeights]).toHaveLength(1);
  });
}

for (const size of [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
]) {
  for (const large of [false, true]) {
    test(`${size.width}×${size.height}${large ? ', Large text' : ''}: the zoom controls cover no node, the header fits (English and 中文)`, async ({
      page,
    }) => {
      await page.setViewportSize(size);
      const lab = new LabPage(page);
      await lab.open();
      if (large) await page.getByRole('button', { name: 'Large text' }).click();
      for (const lang of ['en', 'zh-CN'] as const) {
        await setLanguage(page, lang);
        for (const graphOnly of [false, true]) {
          if (graphOnly) await page.locator('.top-bar button[aria-pressed]').nth(1).click();
          await settled(page);
          const where = `${lang}${graphOnly ? ', graph only' : ''}`;
          // Soft: one run reports the controls and the header, each where it fails.
          expect.soft(await nodesCoveredBy(page, '.react-flow__controls'), where).toEqual([]);
          const header = await page
            .locator('.top-bar')
            .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
          expect.soft(header.scroll, where).toBeLessThanOrEqual(size.width);
          const picker = await page.locator('.top-bar select').last().boundingBox();
          expect.soft(picker!.x + picker!.width, where).toBeLessThanOrEqual(size.width);
          if (graphOnly) await page.locator('.top-bar button[aria-pressed]').nth(1).click();
        }
      }
      await lab.shot(`40-controls-${size.width}x${size.height}${large ? '-large' : ''}`);
    });
  }
}

for (const size of [
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
]) {
  test(`${size.width}×${size.height}, Large text: the small-graph hint covers no node (English and 中文, panels open and graph only)`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const lab = new LabPage(page);
    await lab.open();
    await page.getByRole('button', { name: 'Large text' }).click();
    const hint = page.getByTestId('small-graph-hint');
    for (const lang of ['en', 'zh-CN'] as const) {
      await setLanguage(page, lang);
      for (const graphOnly of [false, true]) {
        if (graphOnly) await page.locator('.top-bar button[aria-pressed]').nth(1).click();
        await expect(hint).toBeVisible();
        await settled(page);
        const where = `${lang}${graphOnly ? ', graph only' : ''}`;
        expect(await nodesCoveredBy(page, '[data-testid="small-graph-hint"]'), where).toEqual([]);
        await lab.shot(
          `41-hint-${size.width}x${size.height}-${lang}${graphOnly ? '-graphonly' : ''}`,
        );
        if (graphOnly) await page.locator('.top-bar button[aria-pressed]').nth(1).click();
      }
    }
  });
}

// XGA (1024×768) is still a common classroom projector. With the panels' and the lessons' fixed
// widths (440 + 340 px) the graph's column was 244 px there (drawn at 20%), and 164 px with
// Large text, where the zoom controls lay over the playback buttons and the small-graph hint's
// text ran under its own button. The graph's column now keeps 36% of the width (400 px from
// 1,111 px up); at 1280 px and up the panels and the lessons keep their widths.
for (const size of [
  { width: 1024, height: 768 },
  { width: 1280, height: 720 },
]) {
  for (const large of [false, true]) {
    test(`${size.width}×${size.height}${large ? ', Large text' : ''}, panels and lessons open: the graph keeps its share and its controls overlap nothing`, async ({
      page,
    }) => {
      await page.setViewportSize(size);
      const lab = new LabPage(page);
      await lab.open();
      if (large) await page.getByRole('button', { name: 'Large text' }).click();
      await lab.send();
      for (let i = 0; i < 6; i++) await lab.stepForward();
      await settled(page);
      const box = async (selector: string): Promise<Box> => {
        const b = await page.locator(selector).first().boundingBox();
        if (b === null) throw new Error(`${selector} is not rendered`);
        return b;
      };
      const center = await box('.center');
      expect(center.width).toBeGreaterThanOrEqual(Math.min(400, 0.36 * size.width) - 1);
      if (size.width >= 1280) {
        expect((await box('.panels')).width).toBeCloseTo(large ? 520 : 440, -1);
        expect((await box('[data-testid="side-slot"]')).width).toBeCloseTo(340, 0);
      }
      // Each control of the graph's column, pairwise: none lies over another.
      const parts = [
        '.send-bar',
        '.react-flow__controls',
        '.playback button',
        '.playback select',
        ...(large ? ['[data-testid="small-graph-hint"]'] : []),
      ];
      const boxes = await Promise.all(parts.map(async (p) => ({ p, b: await box(p) })));
      const overlapping = boxes.flatMap((a, i) =>
        boxes.slice(i + 1).flatMap((b) => (intersects(a.b, b.b) ? [`${a.p} × ${b.p}`] : [])),
      );
      expect(overlapping).toEqual([]);
      // The hint's text and its buttons side by side or wrapped, never one over the other.
      if (large) {
        const hint = page.getByTestId('small-graph-hint');
        const text = await hint.locator('span').boundingBox();
        for (const button of await hint.locator('button').all()) {
          expect(intersects(text!, (await button.boundingBox())!)).toBe(false);
        }
      }
      await lab.shot(`42-xga-${size.width}x${size.height}${large ? '-large' : ''}`);
    });
  }
}
