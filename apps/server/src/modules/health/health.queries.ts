import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import type { PendingCounts } from '../../lib/metrics.ts';

/** A round trip to the database and nothing else. */
export async function ping(db: Db): Promise<void> {
  await rawRows(db, sql`SELECT 1 AS ok`);
}

/** The creation time (the journal's `when`) of the newest applied migration, or null if none is. */
export async function latestAppliedMigration(db: Db): Promise<number | null> {
  const exists = await rawRows<{ t: string | null }>(
    db,
    sql`SELECT to_regclass('drizzle.__drizzle_migrations')::text AS t`,
  );
  if (!exists[0]?.t) return null;
  const rows = await rawRows<{ at: bigint | null }>(
    db,
    sql`SELECT max(created_at) AS at FROM drizzle.__drizzle_migrations`,
  );
  const at = rows[0]?.at;
  return at == null ? null : Number(at);
}

/**
 * Deposits and withdrawals an operator or the chain still has to settle, e-mails still to send, and what
 * the chain checks left for an operator (the metrics' gauges).
 */
export async function pendingCounts(db: Db): Promise<PendingCounts> {
  const [r] = await rawRows<Record<keyof PendingCounts, number>>(
    db,
    sql`SELECT (SELECT count(*)::int FROM deposits WHERE status = 'pending') AS deposits,
               (SELECT count(*)::int FROM withdrawals WHERE status = 'pending') AS withdrawals,
               (SELECT count(*)::int FROM mail_outbox WHERE sent_at IS NULL) AS mails,
               (SELECT COALESCE((SELECT difference_count FROM chain_reconciliations WHERE finished_at IS NOT NULL
                                 ORDER BY started_at DESC LIMIT 1), 0)) AS unreconciled,
               (SELECT count(*)::int FROM chain_alarms WHERE acknowledged_at IS NULL) AS "chainAlarms"`,
  );
  return {
    deposits: Number(r?.deposits ?? 0),
    withdrawals: Number(r?.withdrawals ?? 0),
    mails: Number(r?.mails ?? 0),
    unreconciled: Number(r?.unreconciled ?? 0),
    chainAlarms: Number(r?.chainAlarms ?? 0),
  };
}
