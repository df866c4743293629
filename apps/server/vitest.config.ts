import { defineConfig } from 'vitest/config';

/** `npm test` runs the fast suites; `npm run test:system` (SYSTEM_TESTS=1) the ones that start real processes for long. */
const system = process.env.SYSTEM_TESTS === '1';

export default defineConfig({
  test: {
    include: system ? ['test/system/**/*.test.ts'] : ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: system ? [] : ['test/system/**', '**/node_modules/**'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/setup-console.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: PGlite files run in parallel workers, each on its own copy of the template.
    maxWorkers: 2,
  },
});
