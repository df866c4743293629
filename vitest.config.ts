import { defineConfig } from 'vitest/config';

/**
 * `npm test`: the shared, server and web suites in one run, so the two workers of a two-core machine stay busy from
 * the first file to the last (run one after the other, the short web suite waited for the long server one).
 */
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web', 'verifier'],
    maxWorkers: 2,
  },
});
