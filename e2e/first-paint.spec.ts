/**
 * The shell is on screen before the heavy parts load: Monaco (with its 186 kB stylesheet,
 * which Chromium holds the first paint for when it is requested that early) and the lessons
 * are requested only after the first contentful paint (src/ui/app/after-first-paint.ts), and
 * both still arrive.
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test("the first paint does not wait for the editor's or the lessons' files", async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open();
  await expect(page.locator('.monaco-editor').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('lessons-toggle')).toBeVisible();
  const times = await page.evaluate(() => {
    const started = (pattern: RegExp) =>
      performance.getEntriesByType('resource').find((e) => pattern.test(e.name))?.startTime;
    return {
      firstContentfulPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      editorStylesheet: started(/\/ScenarioEditor-[^/]*\.css$/),
      editorCode: started(/\/ScenarioEditor-[^/]*\.js$/),
      lessonsCode: started(/\/LessonsPanel-[^/]*\.js$/),
    };
  });
  const { firstContentfulPaint: fcp, ...files } = times;
  expect(fcp, 'a first contentful paint').toBeGreaterThan(0);
  for (const [file, start] of Object.entries(files)) {
    expect(start, `${file} requested`).toBeDefined();
    expect(start!, `${file} requested after the first paint`).toBeGreaterThan(fcp!);
  }
  expect(lab.foreign).toEqual([]);
});
