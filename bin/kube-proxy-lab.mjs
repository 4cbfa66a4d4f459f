#!/usr/bin/env node
// The `kube-proxy-lab` command: runs the bundled CLI (built by `npm ci` / `npm run build:cli`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// A run is short, and most of it used to go by before V8's optimising compiler had finished
// the hot functions: with inlining, one compile of the restore-line parser took longer than
// the whole sync it parses for, and on two cores the compiler thread took CPU from the run.
// Without inlining each compile costs a fraction, the optimised code arrives sooner, and a
// 1,000-Service run takes about 15% less CPU (10,000 Services: no slower). Set here, before
// the bundle is loaded, so it holds however the command is started. Compiler flags only:
// the same work is done, the same bytes printed.
try {
  setFlagsFromString('--no-turbo-inlining');
} catch {
  // An engine that refuses the flag runs as it is.
}

const bundle = fileURLToPath(new URL('../dist-cli/kube-proxy-lab.mjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write(
    'kube-proxy-lab: the CLI is not built yet; run `npm ci` or `npm run build:cli`.\n',
  );
  process.exit(1);
}
try {
  const { main } = await import(bundle);
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // A bug in the lab, never the user's input: say so in one line instead of a stack trace
  // (set KUBE_PROXY_LAB_DEBUG=1 to see the trace).
  if (process.env.KUBE_PROXY_LAB_DEBUG) throw error;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`kube-proxy-lab: internal error: ${message} (please report it)\n`);
  process.exitCode = 70;
}
