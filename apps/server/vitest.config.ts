import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/setup-console.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: PGlite files run in parallel workers, each on its own copy of the template.
    maxWorkers: 2,
  },
});
