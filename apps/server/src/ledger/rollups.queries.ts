import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rawRows } from '../db/raw.ts';
import { inTransaction } from '../db/tx.ts';
import { rebuildLedgerFigures } from './figures.ts';
import { LEDGER_FIGURES, PLATFORM_TZ } from './ledger.ts';

/**
 * The daily money rollups (table `rollups`: `<ledger kind>.count` and `.amount` per platform day and slot) and
 * the user totals are written by ledger.ts's postMany with each posting (LEDGER_FIGURES); days are platform days
 * in the time zone recorded in settings (`rollup_timezone`). Counts that are not money are counted on indexes.
 */

/**
 * Records the platform time zone the rollups are dated in and the LEDGER_FIGURES they were summed by; when
 * either changes (or on a first start), the totals and rollups are rebuilt from the postings in the same
 * transaction. Several instances starting at once queue on an advisory lock; the second finds both set.
 */
export async function syncRollupTimezone(db: Db, tz: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    // A database not migrated yet has nothing to date (its readiness check says so).
    const [ready] = await rawRows<{ ok: boolean }>(tx, sql`SELECT to_regclass('public.rollups') IS NOT NULL AS ok`);
    if (!ready?.ok) return false;
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7261002)`);
    const figures = JSON.stringify(LEDGER_FIGURES);
    const [row] = await rawRows<{ tz: string | null; figures: string | null }>(
      tx,
      sql`SELECT (SELECT value FROM settings WHERE key = 'rollup_timezone') AS tz,
                 (SELECT value FROM settings WHERE key = 'ledger_figures') AS figures`,
    );
    if (row?.tz === tz && row.figures === figures) return false;
    await tx.execute(
      sql`INSERT INTO settings (key, value) VALUES ('rollup_timezone', ${tz}), ('ledger_figures', ${figures})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    await rebuildLedgerFigures(tx);
    return true;
  });
}

/** Rebuilds the rollups and each user's totals from the postings (after a bulk load of the ledger). */
export async function rebuildRollups(db: Db): Promise<void> {
  await inTransaction(db, (tx) => rebuildLedgerFigures(tx));
}

/** Rollup metrics summed over the platform days `days` (every day if absent); a metric never booked is 0. */
export async function rollupSums(
  db: Db,
  metrics: string[],
  days?: { from: string; to: string },
): Promise<Record<string, bigint>> {
  const rows = await rawRows<{ metric: string; n: string }>(
    db,
    sql`SELECT metric, sum(n)::text AS n FROM rollups WHERE metric IN (${sql.join(
      metrics.map((m) => sql`${m}`),
      sql`, `,
    )}) ${days ? sql`AND day BETWEEN ${days.from}::date AND ${days.to}::date` : sql``} GROUP BY metric`,
  );
  const got = new Map(rows.map((r) => [r.metric, BigInt(r.n)]));
  return Object.fromEntries(metrics.map((m) => [m, got.get(m) ?? 0n]));
}

/**
 * Rows per status, counted on the table's (status, ...) index: every row of the table, or only those of `status`
 * (the pending few, where that is all a screen shows).
 */
export async function statusCounts(
  db: Db,
  table: 'deposits' | 'withdrawals',
  status?: string,
): Promise<Map<string, number>> {
  const rows = await rawRows<{ k: string; n: number }>(
    db,
    sql`SELECT status AS k, count(*)::int AS n FROM ${sql.identifier(table)}
        ${status ? sql`WHERE status = ${status}` : sql``} GROUP BY 1`,
  );
  return new Map(rows.map((r) => [r.k, Number(r.n)]));
}

/** Registered users in all. */
export async function userCount(db: Db): Promise<number> {
  const [row] = await rawRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM users`);
  return Number(row?.n ?? 0);
}

/** Registrations per platform day of `from`..`to` (users_created_at_idx). */
export async function registrationsPerDay(db: Db, from: string, to: string): Promise<Map<string, bigint>> {
  const rows = await rawRows<{ day: string; n: string }>(
    db,
    sql`SELECT to_char((created_at AT TIME ZONE ${PLATFORM_TZ})::date, 'YYYY-MM-DD') AS day, count(*)::text AS n FROM users
        WHERE created_at >= (${from}::date::timestamp AT TIME ZONE ${PLATFORM_TZ})
          AND created_at < ((${to}::date + 1)::timestamp AT TIME ZONE ${PLATFORM_TZ}) GROUP BY 1`,
  );
  return new Map(rows.map((r) => [r.day, BigInt(r.n)]));
}
