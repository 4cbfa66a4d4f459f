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

// A reader that stops early (`kube-proxy-lab run … | head`) closes the pipe: the real tools
// are then killed by SIGPIPE, silently, and a shell reports status 141 (128 + 13). Node
// ignores SIGPIPE and raises EPIPE on the stream instead, which unhandled would end the run
// with a stack trace: end it as the real tools end.
const SIGPIPE_STATUS = 128 + 13;
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error && error.code === 'EPIPE') process.exit(SIGPIPE_STATUS);
    throw error;
  });
}

async function run() {
  try {
    const { main } = loadBundle().exports;
    const status = await main(process.argv.slice(2));
    // Exit as soon as everything is printed rather than by a natural exit, which first tears
    // the whole heap down (some 35 ms after a 1,000-Service run). Writes to a file or a
    // terminal are done at once; to a pipe they complete as the reader takes them, and an
    // empty write's callback runs after the writes queued before it.
    process.exitCode = status;
    const unwritten = [process.stdout, process.stderr].filter((s) => s.writableLength > 0);
    if (unwritten.length === 0) process.exit(status);
    let left = unwritten.length;
    for (const stream of unwritten) {
      stream.write('', () => {
        if (--left === 0) process.exit(status);
      });
    }
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
