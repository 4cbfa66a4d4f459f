import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The lab is a static, offline single-page app: everything it needs (Monaco, its workers, the
// scenario schema, the experiments) is bundled; nothing is fetched from elsewhere at run time.
const monacoEsm = fileURLToPath(new URL('./node_modules/monaco-editor/esm/vs/', import.meta.url));
const previewPort = Number(process.env.LAB_PORT ?? 4173);

export default defineConfig({
  plugins: [react()],
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
