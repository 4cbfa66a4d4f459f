import { defineConfig } from 'vitest/config';
import { readmeTitle } from './vite.config.ts';

export default defineConfig({
  plugins: [readmeTitle()],
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
