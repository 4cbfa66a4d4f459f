#!/usr/bin/env node
/**
 * The lab in the other engines: Firefox (Gecko, over WebDriver BiDi) and WebKit (Safari's
 * engine: WebKitGTK over WebDriver), both from Debian packages, each running smoke-flow.mjs
 * against `vite preview` of the built lab (run `npm run build` first). A browser that is not
 * installed is skipped with the reason printed; one that runs must pass: the story works, no
 * console error, and no request leaves the lab's own server.
 *
 *   node e2e/cross-browser/smoke.mjs [firefox] [webkit]     (default: both)
 *
 * LAB_PORT picks the preview port (default 4173). Screenshots: test-results/cross-browser/.
 * Results: reports/cross-browser.json (scripts/test-summary.mjs counts them).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firefoxBinary, launchFirefox } from './firefox-bidi.mjs';
import { startRecordingProxy } from './recording-proxy.mjs';
import { runSmoke } from './smoke-flow.mjs';
import { launchWebKit, webkitBinaries } from './webkit-webdriver.mjs';
import { startPreview, stopPreview, waitForServer } from './preview-server.mjs';

const root = join(import.meta.dirname, '..', '..');
const port = Number(process.env.LAB_PORT ?? 4173);
const url = `http://127.0.0.1:${port}/`;
const shotsDir = join(root, 'test-results', 'cross-browser');

function isLab(href) {
  const u = new URL(href);
  return (
    (u.host === `127.0.0.1:${port}` && u.protocol === 'http:') ||
    ['data:', 'blob:', 'about:'].includes(u.protocol)
  );
}

async function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function firefox() {
  const binary = firefoxBinary();
  if (!binary)
    return { skipped: 'no firefox-esr or firefox on PATH (Debian: apt-get install firefox-esr)' };
  const page = await launchFirefox(binary);
  try {
    const seen = await runSmoke(page, { url, shotsDir, name: 'firefox' });
    return {
      version: `Firefox ${page.version}`,
      seen,
      errors: page.consoleErrors(),
      foreign: page.requestedUrls().filter((u) => !isLab(u)),
    };
  } finally {
    await page.close();
  }
}

async function webkit() {
  const binaries = webkitBinaries();
  if (!binaries)
    return {
      skipped:
        'no WebKitWebDriver, MiniBrowser or Xvfb (Debian: apt-get install webkit2gtk-driver xvfb)',
    };
  const proxy = await startRecordingProxy(url);
  try {
    const page = await launchWebKit(binaries, proxy.address);
    try {
      const seen = await runSmoke(page, { url, shotsDir, name: 'webkit' });
      const errors = await page.eval('window.__smokeErrors');
      if (!Array.isArray(errors)) throw new Error('the error capture was not in the page');
      if (proxy.requests.length === 0)
        throw new Error('no request went through the recording proxy');
      return { version: `WebKitGTK ${page.version}`, seen, errors, foreign: proxy.foreign };
    } finally {
      await page.close();
    }
  } finally {
    await proxy.close();
  }
}

const browsers = { firefox, webkit };
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(browsers);
const server = startPreview(root, port);
const results = [];
try {
  await waitForServer(url, 30_000);
  for (const name of wanted) {
    const run = browsers[name];
    if (!run) throw new Error(`unknown browser ${name} (firefox, webkit)`);
    const started = Date.now();
    try {
      const r = await withTimeout(run(), 240_000, name);
      if (r.skipped) {
        console.log(`  - ${name}: skipped: ${r.skipped}`);
        results.push({ browser: name, status: 'skipped', reason: r.skipped });
        continue;
      }
      const problems = [
        ...r.errors.map((e) => `console: ${e}`),
        ...r.foreign.map((u) => `request left the lab: ${u}`),
      ];
      const ms = Date.now() - started;
      const what = `${r.version}: loaded, worker ready, graph (${r.seen.graph.nodes} nodes, ${r.seen.graph.pods} pods), ${r.seen.total} steps, conntrack row at step ${r.seen.conntrackAt}, projector graph ${r.seen.projector}`;
      if (problems.length > 0) {
        console.log(`  ✘ ${name}: ${what}\n    ${problems.join('\n    ')}`);
        results.push({ browser: name, status: 'failed', version: r.version, problems });
      } else {
        console.log(`  ✓ ${name}: ${what} (${(ms / 1000).toFixed(1)} s)`);
        results.push({ browser: name, status: 'passed', version: r.version, seen: r.seen, ms });
      }
    } catch (err) {
      console.log(`  ✘ ${name}: ${err instanceof Error ? err.message : String(err)}`);
      results.push({ browser: name, status: 'failed', problems: [String(err)] });
    }
  }
} finally {
  stopPreview(server);
}
mkdirSync(join(root, 'reports'), { recursive: true });
writeFileSync(join(root, 'reports', 'cross-browser.json'), `${JSON.stringify(results, null, 2)}\n`);
const count = (s) => results.filter((r) => r.status === s).length;
console.log(
  `cross-browser: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`,
);
process.exitCode = count('failed') > 0 ? 1 : 0;
