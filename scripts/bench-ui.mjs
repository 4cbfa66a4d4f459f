#!/usr/bin/env node
/**
 * The web lab's figures (run by `npm run bench`, or alone: `node scripts/bench-ui.mjs`):
 *
 *  1. the app shell before Monaco: the gzip size of what index.html loads (target ≤ 250 kB);
 *  2. first paint from `vite preview` in headless Chromium on this machine (target ≤ 1 s);
 *  3. frames per second while the packet animates in a 60-pod scenario, once the page has
 *     settled (target ≥ 55); also printed: the same in the first seconds, while Monaco and the
 *     lessons still load, and the idle page's rate (what the machine gives);
 *
 * then first paint, frame rates and the 10,000-connection engine run in Firefox and WebKit where
 * installed (bench-ui-engines.mjs).
 *
 * Builds the lab first (vite build). Figures, not assertions: this machine is shared.
 * LAB_BENCH_PORT picks the preview port (default 4373); CHROMIUM_PATH the browser.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { frameRates, measureOtherEngines } from './bench-ui-engines.mjs';
import { startPreview, stopPreview, waitForServer } from '../e2e/cross-browser/preview-server.mjs';

const root = join(import.meta.dirname, '..');
const port = Number(process.env.LAB_BENCH_PORT ?? 4373);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function kB(bytes) {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

function shellSize() {
  const html = readFileSync(join(root, 'dist', 'index.html'), 'utf8');
  const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1],
  );
  let gzip = 0;
  for (const a of assets)
    gzip += gzipSync(readFileSync(join(root, 'dist', a)), { level: 9 }).length;
  gzip += gzipSync(html, { level: 9 }).length;
  return { assets, gzip, monaco: assets.some((a) => /ScenarioEditor|monaco/i.test(a)) };
}

function shellLine(shell) {
  const warning = shell.monaco ? '  (Monaco in the shell!)' : '';
  return `  app shell before Monaco (gzip)            ${kB(shell.gzip)}   target ≤ 250 kB${warning}`;
}

/** The built-in scenario on four nodes with 60 pods (2 CoreDNS, 57 web, the client). */
function sixtyPods(base) {
  const node = (n) =>
    `---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-${n}\n  labels:\n    kubernetes.io/hostname: node-${n}\nspec:\n  podCIDR: 10.244.${n - 1}.0/24\nstatus:\n  addresses:\n  - type: InternalIP\n    address: 192.168.1.${9 + n}\n`;
  return `${base.replace(/replicas: 3\n/, 'replicas: 57\n')}\n${node(3)}${node(4)}`;
}

async function main() {
  const build = spawnSync('npx', ['vite', 'build'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`vite build failed\n${build.stderr}`);
  const shell = shellSize();

  if (!existsSync(chromiumPath)) {
    // The figures need a browser; `npm test` installs Debian's chromium (scripts/test-all.sh).
    console.log('web lab (vite build)');
    console.log(shellLine(shell));
    console.log(
      `  first paint and frame rates: skipped: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`,
    );
    return;
  }
  const server = startPreview(root, port);
  const url = `http://127.0.0.1:${port}/`;
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--disable-gpu', '--no-first-run'],
  });
  try {
    await waitForServer(url, 30_000);
    const paints = [];
    for (let i = 0; i < 3; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      await page.goto(url);
      const fcp = await page.evaluate(
        () =>
          new Promise((resolve) => {
            const find = () => performance.getEntriesByName('first-contentful-paint')[0];
            const got = find();
            if (got) return resolve(got.startTime);
            new PerformanceObserver(() => find() && resolve(find().startTime)).observe({
              type: 'paint',
              buffered: true,
            });
          }),
      );
      paints.push(fcp);
      await page.close();
    }
    paints.sort((a, b) => a - b);

    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(url);
    const { pods, idleFps, startupFps, fps } = await frameRates(
      { eval: (expression) => page.evaluate(expression) },
      sixtyPods,
    );
    console.log('web lab (vite build + vite preview, headless Chromium, 1280×720)');
    console.log(shellLine(shell));
    console.log(
      `  first contentful paint, median of 3       ${paints[1].toFixed(0)} ms   target ≤ 1000 ms`,
    );
    console.log(
      `  animation frame rate, ${pods}-pod scenario   ${fps.toFixed(1)} frames/s   target ≥ 55`,
    );
    console.log(`  the same while Monaco and the lessons load  ${startupFps.toFixed(1)} frames/s`);
    console.log(
      `  frame rate of the same page, idle         ${idleFps.toFixed(1)} frames/s   (what this machine gives)`,
    );
    await browser.close();
    console.log('the same in the other engines (figures only; no target)');
    for (const line of await measureOtherEngines(url, sixtyPods)) console.log(line);
  } finally {
    await browser.close();
    stopPreview(server);
  }
}

await main();
