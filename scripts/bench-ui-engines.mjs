/**
 * The web lab's first paint and frame rates in Firefox (Gecko, over WebDriver BiDi) and WebKit
 * (WebKitGTK under Xvfb), with the drivers of the cross-browser smoke test: the same page
 * measurements as in Chromium, run as expressions in the page, and the bench's 10,000-connection
 * run in a Web Worker of the page (as bench/run.ts times it in Chromium). A browser that is not
 * installed is reported as not measured.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firefoxBinary, launchFirefox } from '../e2e/cross-browser/firefox-bidi.mjs';
import { launchWebKit, webkitBinaries } from '../e2e/cross-browser/webkit-webdriver.mjs';

const WORKER_BUNDLE = join(import.meta.dirname, '..', 'dist-cli', 'bench-connections-worker.js');

const FIRST_CONTENTFUL_PAINT = `new Promise((resolve) => {
  const find = () => performance.getEntriesByName('first-contentful-paint')[0];
  if (find()) return resolve(find().startTime);
  new PerformanceObserver(() => find() && resolve(find().startTime)).observe({ type: 'paint', buffered: true });
  setTimeout(() => resolve(null), 10000);
})`;

/** Frames per second over `ms`, or until the trace has played to its end when `playing`. */
function frameRate(ms, playing) {
  return `new Promise((resolve) => {
    const s = window.__lab.store;
    let frames = 0;
    const start = performance.now();
    const tick = () => {
      frames++;
      const more = performance.now() - start < ${ms} &&
        (${!playing} || s.getState().cursor < s.getState().trace.entries.length - 1);
      if (more) requestAnimationFrame(tick);
      else resolve((frames * 1000) / (performance.now() - start));
    };
    if (${playing}) s.getState().play();
    requestAnimationFrame(tick);
  })`;
}

async function waitFor(page, expression, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (!(await page.eval(expression))) {
    if (Date.now() > end) throw new Error(`timed out: ${expression}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Frame rates on a page already at the lab: idle, then while the packet animates in the
 * 60-pod scenario twice: at once (Monaco and the lessons still loading, as in the first seconds
 * of a visit) and once the page has settled (the figure the ≥ 55 target is about). `page` has
 * eval(expression) → JSON value.
 */
export async function frameRates(page, sixtyPods) {
  await waitFor(page, `window.__lab?.store.getState().engine === 'ready'`, 30_000);
  const base = await page.eval('window.__lab.store.getState().text');
  const pods = await page.eval(`(async () => {
    const s = window.__lab.store;
    await s.getState().loadPreset('bench-60-pods', ${JSON.stringify(sixtyPods(base))});
    return s.getState().topology.nodes.reduce((n, node) => n + node.pods.length, 0);
  })()`);
  await page.eval(`(async () => {
    const s = window.__lab.store.getState();
    await s.send({ ...s.draft, count: 3 });
    s.setSpeed(8);
    return true;
  })()`);
  const idleFps = await page.eval(frameRate(2000, false));
  const startupFps = await page.eval(frameRate(4000, true));
  await waitFor(
    page,
    `Boolean(document.querySelector('.monaco-editor') && document.querySelector('[data-testid=lessons-panel]'))`,
    30_000,
  );
  await page.eval(`(async () => {
    const s = window.__lab.store.getState();
    s.pause();
    s.seek(0);
    await new Promise((r) => setTimeout(r, 1000));
    return true;
  })()`);
  const fps = await page.eval(frameRate(4000, true));
  return { pods, idleFps, startupFps, fps };
}

/**
 * The bench's 10,000-connection run (issue 3) in a Web Worker of the page, where the lab runs
 * the engine: dist-cli/bench-connections-worker.js, a new worker (a new JS runtime) each run;
 * the median of three, or null when the bundle is not built.
 */
async function loadRun(page) {
  if (!existsSync(WORKER_BUNDLE)) return null;
  const source = readFileSync(WORKER_BUNDLE, 'utf8');
  const times = [];
  for (let i = 0; i < 3; i++) {
    const r = await page.eval(`new Promise((resolve, reject) => {
      const url = URL.createObjectURL(new Blob([${JSON.stringify(source)}], { type: 'text/javascript' }));
      const worker = new Worker(url);
      worker.onmessage = (e) => { worker.terminate(); resolve(e.data); };
      worker.onerror = (e) => reject(new Error(e.message));
    })`);
    if (r.failed !== 0) throw new Error(`the load run had ${r.failed} failed connections`);
    times.push(r.ms);
  }
  return times.sort((a, b) => a - b)[1];
}

async function measure(page, url, sixtyPods) {
  const paints = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(url);
    paints.push(await page.eval(FIRST_CONTENTFUL_PAINT));
  }
  paints.sort((a, b) => a - b);
  return { paint: paints[1], ...(await frameRates(page, sixtyPods)), load: await loadRun(page) };
}

/** Measures in each installed engine; returns a line of figures (or why not) per engine. */
export async function measureOtherEngines(url, sixtyPods) {
  const lines = [];
  const engines = [
    ['Firefox (headless)', () => firefoxBinary() && launchFirefox(firefoxBinary())],
    ['WebKitGTK (Xvfb)', () => webkitBinaries() && launchWebKit(webkitBinaries())],
  ];
  for (const [name, launch] of engines) {
    let page;
    try {
      page = await launch();
      if (!page) {
        lines.push(`  ${name}: not installed, not measured`);
        continue;
      }
      const m = await measure(page, url, sixtyPods);
      const paint = m.paint === null ? 'n/a' : `${m.paint.toFixed(0)} ms`;
      lines.push(
        `  ${name} ${page.version}: first contentful paint ${paint}, ` +
          `${m.pods}-pod animation ${m.fps.toFixed(1)} frames/s ` +
          `(${m.startupFps.toFixed(1)} while loading; idle ${m.idleFps.toFixed(1)}); ` +
          `10,000 connections in a Web Worker ${m.load === null ? 'not built' : `${m.load.toFixed(0)} ms`}`,
      );
    } catch (err) {
      lines.push(`  ${name}: not measured: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      await page?.close();
    }
  }
  return lines;
}
