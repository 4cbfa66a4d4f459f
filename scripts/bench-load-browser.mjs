#!/usr/bin/env node
/**
 * The bench's 10,000-connection run (issue 3) in headless Chromium, in a Web Worker as the web
 * lab runs the engine: dist-cli/bench-connections-worker.js (built by `npm run build:cli`), once
 * per new page, so that every run starts with a new isolate and cold JIT, as a fresh Node
 * process does. Prints one line, `BENCH-BROWSER {"browser":…,"runs":[…]}`, for bench/run.ts;
 * a browser that cannot start is reported in it as `skipped`. RUNS (default 3); CHROMIUM_PATH
 * the browser (default Debian's /usr/bin/chromium).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

const root = join(import.meta.dirname, '..');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runs = Number(process.env.RUNS ?? 3);
const bundle = join(root, 'dist-cli', 'bench-connections-worker.js');

function report(result) {
  console.log(`BENCH-BROWSER ${JSON.stringify(result)}`);
}

if (!existsSync(chromiumPath)) {
  report({ skipped: `${chromiumPath} is not installed (Debian package chromium)` });
} else {
  const code = readFileSync(bundle, 'utf8');
  const browser = await chromium.launch({ executablePath: chromiumPath });
  try {
    const results = [];
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      await page.goto('about:blank');
      // The worker's script as a blob: URL (no server: the page is about:blank).
      const result = await page.evaluate(
        (source) =>
          new Promise((resolve, reject) => {
            const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
            const worker = new Worker(url);
            worker.onmessage = (e) => resolve(e.data);
            worker.onerror = (e) => reject(new Error(e.message));
          }),
        code,
      );
      results.push(result);
      await page.close();
    }
    report({ browser: `Chromium ${browser.version()}`, runs: results });
  } finally {
    await browser.close();
  }
}
