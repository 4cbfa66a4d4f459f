import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

// The lab is a static, offline single-page app: everything it needs (Monaco, its workers, the
// scenario schema, the experiments) is bundled; nothing is fetched from elsewhere at run time.
const monacoEsm = fileURLToPath(new URL('./node_modules/monaco-editor/esm/vs/', import.meta.url));
const previewPort = Number(process.env.LAB_PORT ?? 4173);

/**
 * `import … from './README.md?title'`: the file's first `# heading` alone, as a string. The
 * experiment picker shows the READMEs' titles; bundling the whole READMEs for that put some
 * 15 kB (gzip) of prose in the app shell.
 */
export function readmeTitle(): Plugin {
  return {
    name: 'kpl-readme-title',
    enforce: 'pre',
    load(id) {
      const [file, query] = id.split('?', 2);
      if (query !== 'title' || file === undefined) return null;
      this.addWatchFile(file);
      const heading = /^#\s+(.+)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
      return `export default ${JSON.stringify(heading)};`;
    },
  };
}

export default defineConfig({
  plugins: [react(), readmeTitle()],
  resolve: {
    // monaco-worker-manager (monaco-yaml) imports monaco-editor/esm/vs/…, which monaco-editor
    // 0.56+'s exports map hides: point the deep path at the files.
    alias: [{ find: /^monaco-editor\/esm\/vs\/(.*)$/, replacement: `${monacoEsm}$1` }],
  },
  // Dependencies first reached from workers: without this the dev server reloads twice.
  optimizeDeps: { include: ['yaml', 'comlink', 'monaco-yaml', 'monaco-yaml/yaml.worker.js'] },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 5000 },
  preview: { host: '127.0.0.1', port: previewPort, strictPort: true },
  server: { host: '127.0.0.1', port: 5173 },
});
