import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { HealthFailure, HealthResponse } from '@harvest/shared/schemas/health';
import type { AppContext, ReadinessCheck } from '../../context.ts';
import { MIGRATIONS_DIR } from '../../lib/paths.ts';
import * as q from './health.queries.ts';

/** The newest committed migration (its journal time), read once: the code this process runs needs it applied. */
let newestCommitted: number | undefined;
function newestCommittedMigration(): number {
  newestCommitted ??= Math.max(
    0,
    ...readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).map((m) => m.folderMillis),
  );
  return newestCommitted;
}

/** The database answers and every committed migration is applied. */
export const databaseChecks: ReadinessCheck[] = [
  {
    name: 'database',
    async run(ctx) {
      await q.ping(ctx.db);
      return null;
    },
  },
  {
    name: 'migrations',
    async run(ctx) {
      const applied = await q.latestAppliedMigration(ctx.db);
      return applied !== null && applied >= newestCommittedMigration() ? null : 'not every migration is applied';
    },
  },
];

/**
 * Ready to take traffic: not shutting down, then every check (the database ones and those modules
 * registered in `ctx.readiness`, e.g. the deposit watcher's lag). Checks run in parallel; one that
 * throws counts as failed under its name only: the error (a failed query's text, a host name) goes to
 * the log, never to the unauthenticated probe.
 */
export async function readiness(ctx: AppContext): Promise<HealthResponse> {
  if (ctx.lifecycle.shuttingDown)
    return { status: 'unavailable', failed: [{ check: 'shutdown', detail: 'shutting down' }] };
  const results = await Promise.all(
    ctx.readiness.map(async (c): Promise<HealthFailure | null> => {
      try {
        const detail = await c.run(ctx);
        return detail === null ? null : { check: c.name, detail };
      } catch (err) {
        ctx.log.warn({ err, check: c.name }, 'readiness check failed');
        return { check: c.name };
      }
    }),
  );
  const failed = results.filter((r): r is HealthFailure => r !== null);
  return failed.length === 0 ? { status: 'ok' } : { status: 'unavailable', failed };
}
