import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { payoutBatches, withdrawals } from '../../db/schema.ts';

export type BatchRow = typeof payoutBatches.$inferSelect;

export async function insertBatch(db: Db, values: typeof payoutBatches.$inferInsert): Promise<BatchRow> {
  const [row] = await db.insert(payoutBatches).values(values).returning();
  if (!row) throw new Error('payout batch not inserted');
  return row;
}

/** Puts pending withdrawals in no batch yet into this one; answers those it took (a changed one is left out). */
export async function takeIntoBatch(db: Db, batchId: string, ids: string[]) {
  return db
    .update(withdrawals)
    .set({ batchId })
    .where(and(inArray(withdrawals.id, ids), eq(withdrawals.status, 'pending'), isNull(withdrawals.batchId)))
    .returning();
}

export async function findBatch(db: Db, id: string): Promise<BatchRow | undefined> {
  const [row] = await db.select().from(payoutBatches).where(eq(payoutBatches.id, id)).limit(1);
  return row;
}

/** The withdrawals of a batch still pending (the ones its file pays), oldest request first. */
export async function pendingOfBatch(db: Db, batchId: string) {
  return db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.batchId, batchId), eq(withdrawals.status, 'pending')))
    .orderBy(withdrawals.requestedAt, withdrawals.id);
}

/** Open batches first, then the newest closed ones, each with its counts and total (micro-USDC). */
export async function listBatches(db: Db, limit: number) {
  const rows = await rawRows<{
    id: string;
    withdrawals: number;
    pending: number;
    requests: number;
    total: string;
  }>(
    db,
    sql`SELECT b.id, count(w.id)::int AS withdrawals, count(w.id) FILTER (WHERE w.status = 'pending')::int AS pending,
               count(DISTINCT w.request_id)::int AS requests, COALESCE(sum(w.net_amount), 0)::text AS total
        FROM payout_batches b LEFT JOIN withdrawals w ON w.batch_id = b.id
        GROUP BY b.id`,
  );
  const figures = new Map(rows.map((r) => [r.id, r]));
  const batches = await db
    .select()
    .from(payoutBatches)
    .orderBy(sql`${payoutBatches.status} = 'open' DESC`, desc(payoutBatches.createdAt))
    .limit(limit);
  return batches.map((b) => ({ batch: b, figures: figures.get(b.id) }));
}

/** open -> cancelled (once); its pending withdrawals leave it (they can be exported again). */
export async function cancelBatch(db: Db, id: string, by: string, at: Date): Promise<BatchRow | undefined> {
  const [row] = await db
    .update(payoutBatches)
    .set({ status: 'cancelled', closedAt: at, closedBy: by })
    .where(and(eq(payoutBatches.id, id), eq(payoutBatches.status, 'open')))
    .returning();
  if (row)
    await db
      .update(withdrawals)
      .set({ batchId: null })
      .where(and(eq(withdrawals.batchId, id), eq(withdrawals.status, 'pending')));
  return row;
}
