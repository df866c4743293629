import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { payoutBatches, withdrawals } from '../../db/schema.ts';

export type BatchRow = typeof payoutBatches.$inferSelect;

export async function insertBatch(
  db: Db,
  values: typeof payoutBatches.$inferInsert & { createdAt: Date },
): Promise<BatchRow> {
  const [row] = await db.insert(payoutBatches).values(values).returning();
  if (!row) throw new Error('payout batch not inserted');
  return row;
}

const uuids = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** SQL: the withdrawal's batch holds it in payment at `now` (open, or cancelled and inside its grace). */
const heldByBatch = (now: Date) =>
  sql`EXISTS (SELECT 1 FROM payout_batches b WHERE b.id = ${withdrawals.batchId}
              AND (b.status = 'open' OR (b.status = 'cancelled' AND b.grace_until > ${now.toISOString()}::timestamptz)))`;

/** Locks the owners' rows (shared): a freeze waits for the export, or the export sees it. */
export async function lockOwners(db: Db, ids: string[]): Promise<void> {
  await db.execute(
    sql`SELECT u.id FROM users u WHERE u.id IN (SELECT user_id FROM withdrawals WHERE id IN (${uuids(ids)})) ORDER BY u.id FOR SHARE`,
  );
}

/**
 * Puts payable pending withdrawals into this batch: pending, in no batch that holds them in payment, of an account
 * not frozen, to a wallet the token does not refuse. Answers those it took (any other is left out).
 */
export async function takeIntoBatch(db: Db, batchId: string, ids: string[], now: Date) {
  return db
    .update(withdrawals)
    .set({ batchId })
    .where(
      and(
        inArray(withdrawals.id, ids),
        eq(withdrawals.status, 'pending'),
        isNull(withdrawals.payeeRefusedAt),
        sql`NOT EXISTS (SELECT 1 FROM users u WHERE u.id = ${withdrawals.userId} AND u.withdrawals_frozen)`,
        sql`NOT (${withdrawals.batchId} IS NOT NULL AND ${heldByBatch(now)})`,
      ),
    )
    .returning();
}

/** Why withdrawals could not be taken: how many of them belong to frozen accounts, and how many pay refused wallets. */
export async function whyNotTaken(db: Db, ids: string[]): Promise<{ frozen: number; refused: number }> {
  const [r] = await rawRows<{ frozen: number; refused: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE u.withdrawals_frozen)::int AS frozen,
               count(*) FILTER (WHERE w.payee_refused_at IS NOT NULL)::int AS refused
        FROM withdrawals w JOIN users u ON u.id = w.user_id
        WHERE w.id IN (${uuids(ids)}) AND w.status = 'pending'`,
  );
  return { frozen: r?.frozen ?? 0, refused: r?.refused ?? 0 };
}

export async function findBatch(db: Db, id: string): Promise<BatchRow | undefined> {
  const [row] = await db.select().from(payoutBatches).where(eq(payoutBatches.id, id)).limit(1);
  return row;
}

/**
 * The withdrawals a batch's file pays: still pending, of accounts not frozen, to wallets the token does not refuse;
 * oldest request first.
 */
export async function payableOfBatch(db: Db, batchId: string) {
  return db
    .select()
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.batchId, batchId),
        eq(withdrawals.status, 'pending'),
        isNull(withdrawals.payeeRefusedAt),
        sql`NOT EXISTS (SELECT 1 FROM users u WHERE u.id = ${withdrawals.userId} AND u.withdrawals_frozen)`,
      ),
    )
    .orderBy(withdrawals.requestedAt, withdrawals.id);
}

/** Records the first download of an open batch's file (later ones keep it); false when the batch is not open. */
export async function markDownloaded(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(payoutBatches)
    .set({ downloadedAt: sql`coalesce(${payoutBatches.downloadedAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(payoutBatches.id, id), eq(payoutBatches.status, 'open')))
    .returning({ id: payoutBatches.id });
  return rows.length > 0;
}

/** A batch, locked (a download waits for a cancel, or the cancel sees the download). */
export async function lockBatch(db: Db, id: string): Promise<BatchRow | undefined> {
  const [row] = await db.select().from(payoutBatches).where(eq(payoutBatches.id, id)).for('update');
  return row;
}

export interface BatchFigures {
  id: string;
  withdrawals: number;
  pending: number;
  requests: number;
  total: string;
  paid: string;
  frozen: number;
  refused: number;
}

/**
 * Open batches first, then the newest closed ones, each with its figures (micro-USDC): what it asks for (its
 * withdrawals not rejected), what it paid (completed), and the pending ones its file leaves out (frozen, refused).
 */
export async function listBatches(db: Db, limit: number) {
  const rows = await rawRows<BatchFigures>(
    db,
    sql`SELECT b.id, count(w.id) FILTER (WHERE w.status <> 'rejected')::int AS withdrawals,
               count(w.id) FILTER (WHERE w.status = 'pending')::int AS pending,
               count(DISTINCT w.request_id) FILTER (WHERE w.status <> 'rejected')::int AS requests,
               COALESCE(sum(w.net_amount) FILTER (WHERE w.status <> 'rejected'), 0)::text AS total,
               COALESCE(sum(w.net_amount) FILTER (WHERE w.status = 'approved'), 0)::text AS paid,
               count(w.id) FILTER (WHERE w.status = 'pending' AND u.withdrawals_frozen)::int AS frozen,
               count(w.id) FILTER (WHERE w.status = 'pending' AND w.payee_refused_at IS NOT NULL)::int AS refused
        FROM payout_batches b LEFT JOIN withdrawals w ON w.batch_id = b.id LEFT JOIN users u ON u.id = w.user_id
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

/**
 * open -> cancelled (once). Without `graceUntil` its pending withdrawals leave it at once (they can be exported
 * again); with it they stay in it, in payment, until then.
 */
export async function cancelBatch(
  db: Db,
  id: string,
  o: { by: string; at: Date; graceUntil: Date | null },
): Promise<BatchRow | undefined> {
  const [row] = await db
    .update(payoutBatches)
    .set({ status: 'cancelled', closedAt: o.at, closedBy: o.by, graceUntil: o.graceUntil })
    .where(and(eq(payoutBatches.id, id), eq(payoutBatches.status, 'open')))
    .returning();
  if (row && !o.graceUntil)
    await db
      .update(withdrawals)
      .set({ batchId: null })
      .where(and(eq(withdrawals.batchId, id), eq(withdrawals.status, 'pending')));
  return row;
}

const payee = {
  id: withdrawals.id,
  userId: withdrawals.userId,
  walletAddress: withdrawals.walletAddress,
  netAmount: withdrawals.netAmount,
  payeeRefusedAt: withdrawals.payeeRefusedAt,
};

/** Pending withdrawals' wallets, oldest first (the payee check). */
export async function pendingPayees(db: Db, limit: number) {
  return db
    .select(payee)
    .from(withdrawals)
    .where(eq(withdrawals.status, 'pending'))
    .orderBy(withdrawals.requestedAt, withdrawals.id)
    .limit(limit);
}

/** These withdrawals' wallets, for a batch about to be made. */
export async function payeesOf(db: Db, ids: string[]) {
  return db.select(payee).from(withdrawals).where(inArray(withdrawals.id, ids));
}

/** Marks pending withdrawals whose wallet the token refuses; answers the ones newly marked. */
export async function markPayeesRefused(db: Db, ids: string[], at: Date) {
  if (ids.length === 0) return [];
  return db
    .update(withdrawals)
    .set({ payeeRefusedAt: at })
    .where(and(inArray(withdrawals.id, ids), eq(withdrawals.status, 'pending'), isNull(withdrawals.payeeRefusedAt)))
    .returning(payee);
}

export async function clearPayeesRefused(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.update(withdrawals).set({ payeeRefusedAt: null }).where(inArray(withdrawals.id, ids));
}
