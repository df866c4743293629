import { defineConfig } from 'vitest/config';

/**
 * Sets of tests, chosen by the environment:
 * - `npm test`: the fast suites (under 3 minutes on two cores); `npm run test:pg` (FAST_TESTS=pg, with DATABASE_URL)
 *   the ones among them whose subject is PostgreSQL;
 * - `npm run test:system` (SYSTEM_TESTS=1): the long ones that start real processes (anvil, nginx, Redis, whole
 *   server processes), the seeded simulation and the fuzz over every route; `npm run test:system:pg`
 *   (SYSTEM_TESTS=pg, with DATABASE_URL) the ones among them whose subject is PostgreSQL;
 * - `npm run test:crash` (CRASH_TESTS=1): the crash tests, on a throwaway cluster of their own.
 */
const SYSTEM = [
  'test/system/**/*.test.ts',
  'test/simulation/**/*.test.ts',
  '**/*.anvil.test.ts',
  '**/*.redis.test.ts',
  'src/modules/deposits/deposits.chain.test.ts',
  'test/ops/deployment.test.ts',
  'test/ops/backup.test.ts',
  'test/ops/backup-trust.test.ts',
  'test/ops/logs.test.ts',
  'test/ops/shutdown.test.ts',
  'test/security/first-start.test.ts',
  'test/security/revocation-frozen.test.ts',
  'test/security/fuzz.test.ts',
];
/**
 * The system files whose subject is PostgreSQL itself (concurrent transactions, locks, pg_dump): `.ci/run` runs them a
 * second time on it (`npm run test:system:pg`). The others start their own PostgreSQL where they need one
 * (backup-trust.test.ts restores into a throwaway cluster on either run, so it runs once).
 */
const SYSTEM_PG = [
  'test/simulation/**/*.test.ts',
  'src/modules/deposits/deposit-watcher.anvil.test.ts',
  'src/modules/deposits/deposits.chain.test.ts',
  'test/ops/backup.test.ts',
];
/**
 * The fast files whose subject is PostgreSQL (parallel requests that move money, locks, SQL functions and triggers,
 * SQL that sums, pages or times rows, the driver's row types): `.ci/run` runs them a second time on it
 * (`npm run test:pg`). The rest check the app's rules, which PGlite (the same PostgreSQL, one connection) decides
 * alike.
 */
const FAST_PG = [
  'src/db/**/*.test.ts',
  'src/ledger/**/*.test.ts',
  '**/*.race.test.ts',
  'src/mail/outbox.test.ts',
  'src/modules/admin/*.test.ts',
  'src/modules/auth/auth.test.ts',
  'src/modules/history/history.test.ts',
  'src/modules/investments/cycle-reminders.test.ts',
  'src/modules/proof-of-reserves/por.test.ts',
  'src/modules/solvency/solvency.test.ts',
  'src/modules/statements/statements.test.ts',
  'test/account/address-book.test.ts',
  'test/account/sessions.test.ts',
  'test/ops/row-times.test.ts',
  'test/security/balance-update.test.ts',
  'test/security/idempotency.test.ts',
  'test/security/revocation.test.ts',
  'test/security/throttle-races.test.ts',
];
const CRASH = ['test/crash/**/*.test.ts'];
const set =
  process.env.CRASH_TESTS === '1'
    ? 'crash'
    : process.env.SYSTEM_TESTS === 'pg'
      ? 'system-pg'
      : process.env.SYSTEM_TESTS === '1'
        ? 'system'
        : process.env.FAST_TESTS === 'pg'
          ? 'fast-pg'
          : 'fast';

export default defineConfig({
  test: {
    include:
      set === 'crash'
        ? CRASH
        : set === 'system'
          ? SYSTEM
          : set === 'system-pg'
            ? SYSTEM_PG
            : set === 'fast-pg'
              ? FAST_PG
              : ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: set === 'fast' || set === 'fast-pg' ? [...SYSTEM, ...CRASH, '**/node_modules/**'] : ['**/node_modules/**'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/setup-console.ts', './test/setup-cheap-hashes.ts'],
    // System tests start processes (servers, CLIs, anvil, clusters) on a shared two-core machine.
    testTimeout: set.startsWith('fast') ? 30_000 : 120_000,
    hookTimeout: 60_000,
    // Two cores: PGlite files run in parallel workers, each on its own copy of the template. In the fast set a
    // worker keeps the modules it loaded from one file to the next (the app's graph is loaded twice, not per file).
    maxWorkers: 2,
    isolate: !set.startsWith('fast'),
  },
});
