import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { inTransaction } from '../../db/tx.ts';

/**
 * The rollups (table `rollups`, kept by statement triggers in the same transaction as the business
 * rows: db/functions.sql, docs/decisions/0035-rollups-by-trigger.md). Days are platform days in the
 * time zone recorded in settings (`rollup_timezone`); counters sit on the fixed day 1970-01-01.
 */

export const COUNTER_DAY = '1970-01-01';

/**
 * Records the platform time zone the rollups are dated in; when it changes (or on a first start),
 * the rollups are rebuilt from the raw rows in the same transaction. Several instances starting
 * at once queue on an advisory lock; the second finds the zone already set.
 */
export async function syncRollupTimezone(db: Db, tz: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    // A database not migrated yet has nothing to date (its readiness check says so).
    const [ready] = await rawRows<{ ok: boolean }>(tx, sql`SELECT to_regclass('public.rollups') IS NOT NULL AS ok`);
    if (!ready?.ok) return false;
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7261002)`);
    const [row] = await rawRows<{ value: string }>(tx, sql`SELECT value FROM settings WHERE key = 'rollup_timezone'`);
    if (row?.value === tz) return false;
    await tx.execute(
      sql`INSERT INTO settings (key, value) VALUES ('rollup_timezone', ${tz}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    await tx.execute(sql`SELECT hf_rebuild_rollups()`);
    return true;
  });
}

/** Rebuilds every rollup and each user's totals from the raw rows (after a bulk load that ran with the triggers off). */
export async function rebuildRollups(db: Db): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT hf_rebuild_rollups()`);
    await tx.execute(sql`SELECT hf_rebuild_user_totals()`);
  });
}

/** Counter values by name (summed over slots); a name never written is 0. */
export function counterSql(names: string[]) {
  return sql`(SELECT coalesce(jsonb_object_agg(metric, n), '{}'::jsonb) FROM (
      SELECT metric, sum(n)::text AS n FROM rollups
      WHERE metric IN (${sql.join(
        names.map((n) => sql`${n}`),
        sql`, `,
      )}) AND day = ${COUNTER_DAY}::date GROUP BY metric) c)`;
}

export async function counters(db: Db, names: string[]): Promise<Record<string, bigint>> {
  const [row] = await rawRows<{ c: Record<string, string> | string }>(db, sql`SELECT ${counterSql(names)} AS c`);
  const c = typeof row?.c === 'string' ? (JSON.parse(row.c) as Record<string, string>) : (row?.c ?? {});
  return Object.fromEntries(names.map((n) => [n, BigInt(c[n] ?? 0)]));
}

/** Rollups that differ from what the raw rows imply (ledger:check), as readable lines. */
export const ROLLUP_CHECK = sql`SELECT d AS detail FROM hf_rollup_diff() AS d`;

/** Users whose `user_totals` row differs from the sums of their raw rows, as readable lines. */
export const USER_TOTALS_CHECK = sql`SELECT d AS detail FROM hf_user_totals_diff() AS d`;
