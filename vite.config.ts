import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The lab is a static, offline single-page app: everything it needs is bundled, nothing is
// fetched from elsewhere at run time.
export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  server: { host: '127.0.0.1', port: 5173 },
});
