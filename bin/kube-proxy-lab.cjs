#!/usr/bin/env node
// The `kube-proxy-lab` command: runs the bundled CLI (built by `npm ci` / `npm run build:cli`).
// CommonJS rather than an ES module: Node then starts without its ES module loader.
'use strict';
const { existsSync } = require('node:fs');
const { BUNDLE, loadBundle, setCompilerFlags } = require('./load-cli.cjs');

setCompilerFlags();

if (!existsSync(BUNDLE)) {
  process.stderr.write(
    'kube-proxy-lab: the CLI is not built yet; run `npm ci` or `npm run build:cli`.\n',
  );
  process.exit(1);
}

async function run() {
  try {
    const { main } = loadBundle().exports;
    const status = await main(process.argv.slice(2));
    // Everything is printed once stdout and stderr hold nothing unwritten (writes to a file or
    // a terminal complete at once): exit now rather than after the garbage collections V8
    // would still finish before a natural exit. Otherwise (a pipe whose reader has not taken
    // everything yet) let Node exit when the writes are done.
    if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0)
      process.exit(status);
    process.exitCode = status;
  } catch (error) {
    // A bug in the lab, never the user's input: say so in one line instead of a stack trace
    // (set KUBE_PROXY_LAB_DEBUG=1 to see the trace).
    if (process.env.KUBE_PROXY_LAB_DEBUG) throw error;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`kube-proxy-lab: internal error: ${message} (please report it)\n`);
    process.exitCode = 70;
  }
}

run();
