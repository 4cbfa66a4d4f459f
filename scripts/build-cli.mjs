// Bundles the CLI (src/cli) into dist-cli/ so `npx kube-proxy-lab` runs plain JavaScript on
// Node 20 (which cannot run TypeScript by itself), then makes V8's code cache of it. Runs on
// `npm ci` through `prepare`.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};

// The command's bundle is CommonJS: bin/load-cli.cjs compiles it with node:vm, which can use
// a code cache (Node 20 has none for ES modules). It is written inside the function Node wraps
// a CommonJS module in, so the loader compiles the file's text as it is read: wrapped at each
// start, the 1.6 MB source was one more string, which V8 then copied whole to compile it.
await build({
  ...common,
  entryPoints: { 'kube-proxy-lab': 'src/cli/bundle.ts' },
  outdir: 'dist-cli',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
  footer: { js: '})' },
});
asciiOnly('dist-cli/kube-proxy-lab.cjs');

await build({
  ...common,
  entryPoints: { bench: 'bench/run.ts', 'bench-connections': 'bench/connections-only.ts' },
  outdir: 'dist-cli',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  // CommonJS dependencies (yaml's Node build) call require(); give the ES module one.
  banner: {
    js: "import { createRequire as __kplCreateRequire } from 'node:module'; const require = __kplCreateRequire(import.meta.url);",
  },
});

// The bench's load run for a Web Worker in headless Chromium (scripts/bench-load-browser.mjs).
await build({
  ...common,
  platform: 'browser',
  target: 'es2022',
  sourcemap: false,
  entryPoints: { 'bench-connections-worker': 'bench/connections-worker.ts' },
  outdir: 'dist-cli',
  format: 'iife',
});

// A cache of an earlier bundle is never used (the loader checks its digest), but leave none.
rmSync('dist-cli/kube-proxy-lab.cjs.v8cache', { force: true });
const cache = spawnSync(process.execPath, ['scripts/write-code-cache.mjs'], { stdio: 'inherit' });
if (cache.status !== 0) {
  process.stderr.write('build-cli: making the code cache failed (the warm-up run broke)\n');
  process.exit(1);
}

/**
 * esbuild escapes non-ASCII characters in strings but leaves those in the comments it keeps
 * and in regular expressions (`µs` in a duration). One such character makes V8 hold the whole
 * bundle's source, which it keeps for as long as the command runs, as a two-byte string: twice
 * the memory, and a slower decode of the file at every start. Escaped, the code means the same
 * (`\u00b5` in a regular expression or a string is that character; in a comment it is text);
 * only the source map's columns on those few lines move.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const escaped = text.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (escaped !== text) writeFileSync(file, escaped);
}
