// Bundles the CLI (src/cli) into dist-cli/ so `npx kube-proxy-lab` runs plain JavaScript on
// Node 20 (which cannot run TypeScript by itself). Runs on `npm ci` through `prepare`.
import { build } from 'esbuild';

await build({
  entryPoints: {
    'kube-proxy-lab': 'src/cli/main.ts',
    bench: 'bench/run.ts',
    'bench-connections': 'bench/connections-only.ts',
  },
  outdir: 'dist-cli',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // CommonJS dependencies (yaml's Node build) call require(); give the ES module one.
  banner: {
    js: "import { createRequire as __kplCreateRequire } from 'node:module'; const require = __kplCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
