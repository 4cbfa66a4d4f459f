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
const { main } = await import(bundle);
process.exitCode = await main(process.argv.slice(2));
