import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const p = await b.newPage({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
await p.goto('http://127.0.0.1:4190/');
await p.waitForTimeout(3000);
await p.getByRole('button', { name: /发送|Send/ }).first().click();
await p.waitForTimeout(6000);
await p.screenshot({ path: '/tmp/s2.png' });
await b.close();
