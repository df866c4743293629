import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';

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
  const rows = await rawRows<{ at: string | number | bigint | null }>(
    db,
    sql`SELECT max(created_at) AS at FROM drizzle.__drizzle_migrations`,
  );
  const at = rows[0]?.at;
  return at === null || at === undefined ? null : Number(at);
}

/**
 * Deposits and withdrawals an operator or the chain still has to settle, and e-mails still to send
 * (the metrics' pending gauges).
 */
export async function pendingCounts(db: Db): Promise<{ deposits: number; withdrawals: number; mails: number }> {
  const rows = await rawRows<{ deposits: number; withdrawals: number; mails: number }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM deposits WHERE status = 'pending') AS deposits,
               (SELECT count(*)::int FROM withdrawals WHERE status = 'pending') AS withdrawals,
               (SELECT count(*)::int FROM mail_outbox WHERE sent_at IS NULL) AS mails`,
  );
  return {
    deposits: Number(rows[0]?.deposits ?? 0),
    withdrawals: Number(rows[0]?.withdrawals ?? 0),
    mails: Number(rows[0]?.mails ?? 0),
  };
}
