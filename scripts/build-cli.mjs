// Bundles the CLI (src/cli) into dist-cli/ so `npx kube-proxy-lab` runs plain JavaScript on
// Node 20 (which cannot run TypeScript by itself). Runs on `npm ci` through `prepare`.
import { build } from 'esbuild';

await build({
  entryPoints: { 'kube-proxy-lab': 'src/cli/main.ts', bench: 'bench/run.ts' },
  outdir: 'dist-cli',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
