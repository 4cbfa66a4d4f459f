#!/usr/bin/env node
// The `kube-proxy-lab` command: runs the bundled CLI (built by `npm ci` / `npm run build:cli`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
