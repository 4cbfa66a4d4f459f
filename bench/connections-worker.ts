/**
 * The bench's 10,000-connection run (issue 3) in the web lab's engine host: a Web Worker, as
 * src/worker runs the engine for the app. Built by `npm run build:cli` into
 * dist-cli/bench-connections-worker.js; scripts/bench-load-browser.mjs starts it in a new page of
 * headless Chromium for each run. The cluster is built and both nodes booted before the clock
 * starts, as in the Node run (bench/connections.ts).
 */
import { generateLoadScenario, setTraceDetail, World } from '../src/engine';
import { runConnections } from './load-loop';

const SERVICES = 1_000;

const { world } = World.fromScenario(generateLoadScenario(SERVICES, 10));
world.kernel('node-1');
world.kernel('node-2');
setTraceDetail(world, 'off');
const loop = runConnections(world, SERVICES, 10_000, 0, () => performance.now());
postMessage({
  ms: loop.ms,
  firstThousandMs: loop.firstThousandMs,
  perPod: [...loop.perPod.values()],
  failed: loop.failed,
});
