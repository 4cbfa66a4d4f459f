import { expect, test } from '@playwright/test';

test('the page loads offline and requests nothing beyond localhost', async ({ page }) => {
  const foreign: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.hostname !== '127.0.0.1' && url.protocol !== 'data:') foreign.push(req.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'kube-proxy-lab' })).toBeVisible();
  await expect(page.locator('p[lang="zh-CN"]')).toContainText('Kubernetes Service');
  await page.screenshot({ path: 'test-results/shell.png' });
  expect(foreign).toEqual([]);
});
