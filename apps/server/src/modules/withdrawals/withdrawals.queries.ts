import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { cycleEarnings, investments, payoutTransactions, users, withdrawals } from '../../db/schema.ts';

export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type NewWithdrawal = typeof withdrawals.$inferInsert & { id: string };

export interface UnrequestedEarning {
  id: string;
  investmentId: string;
  cycleNumber: number;
  grossAmount: bigint;
}

/** The user's cycle earnings not yet requested, locked until the transaction ends. */
export async function lockUnrequestedEarnings(tx: Db, userId: string): Promise<UnrequestedEarning[]> {
  return tx
    .select({ id: cycleEarnings.id, investmentId: cycleEarnings.investmentId, cycleNumber: cycleEarnings.cycleNumber, grossAmount: cycleEarnings.grossAmount })
    .from(cycleEarnings)
    .where(and(eq(cycleEarnings.userId, userId), eq(cycleEarnings.withdrawalRequested, false), sql`${cycleEarnings.grossAmount} > 0`))
    .orderBy(cycleEarnings.createdAt, cycleEarnings.cycleNumber, cycleEarnings.id)
    .for('update');
}

const CHUNK = 1000;
function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function insertWithdrawals(tx: Db, rows: NewWithdrawal[]): Promise<void> {
  for (const part of chunks(rows, 500)) await tx.insert(withdrawals).values(part);
}

export async function markEarningsRequested(tx: Db, ids: string[], requested: boolean): Promise<void> {
  for (const part of chunks(ids)) await tx.update(cycleEarnings).set({ withdrawalRequested: requested }).where(inArray(cycleEarnings.id, part));
}

export async function setWithdrawalWallet(tx: Db, userId: string, wallet: string): Promise<void> {
  await tx.update(users).set({ withdrawalWallet: wallet }).where(eq(users.id, userId));
}

export async function findWithdrawal(db: Db, id: string): Promise<WithdrawalRow | undefined> {
  const [w] = await db.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1);
  return w;
}

/**
 * Decides a pending withdrawal: only one caller can move it out of `pending` (the second
 * racer's UPDATE matches no row once the first commits).
 */
export async function decidePending(
  tx: Db,
  id: string,
  values: { status: 'approved' | 'rejected'; processedAt: Date; processedBy: string; txHash?: string | null; notes: string | null },
): Promise<WithdrawalRow | undefined> {
  const [w] = await tx
    .update(withdrawals)
    .set(values)
    .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 'pending')))
    .returning();
  return w;
}

export async function startCooldown(tx: Db, investmentId: string, approvedAt: Date, nextCycleAt: Date): Promise<void> {
  await tx.update(investments).set({ withdrawalApprovedAt: approvedAt, nextCycleAvailableAt: nextCycleAt }).where(eq(investments.id, investmentId));
}

export type PayoutTxRow = typeof payoutTransactions.$inferSelect;

/** Claims a payout hash for a request and wallet (first use) and locks its row. */
export async function claimPayoutTx(tx: Db, v: { txHash: string; requestId: string; walletAddress: string; chainValue: bigint | null }): Promise<PayoutTxRow> {
  await tx.insert(payoutTransactions).values(v).onConflictDoNothing();
  const [row] = await tx.select().from(payoutTransactions).where(eq(payoutTransactions.txHash, v.txHash)).for('update');
  if (!row) throw new Error('payout transaction row missing');
  if (v.chainValue !== null && row.chainValue !== v.chainValue) {
    await tx.update(payoutTransactions).set({ chainValue: v.chainValue }).where(eq(payoutTransactions.txHash, v.txHash));
  }
  return row;
}

/** Net amount of the approved withdrawals paid by this hash. */
export async function approvedNetForHash(tx: Db, txHash: string): Promise<bigint> {
  const [r] = await rawRows<{ total: bigint | string | null }>(
    tx,
    sql`SELECT COALESCE(SUM(net_amount), 0) AS total FROM withdrawals WHERE tx_hash = ${txHash} AND status = 'approved'`,
  );
  return BigInt(r?.total ?? 0);
}

// ---------------------------------------------------------------- reads

const populatedColumns = {
  w: withdrawals,
  invId: investments.id,
  invTier: investments.tierName,
  invAmount: investments.amount,
};

export async function listForUser(db: Db, userId: string) {
  return db
    .select(populatedColumns)
    .from(withdrawals)
    .leftJoin(investments, eq(investments.id, withdrawals.investmentId))
    .where(eq(withdrawals.userId, userId))
    .orderBy(desc(withdrawals.requestedAt), desc(withdrawals.cycleNumber), withdrawals.id);
}

export async function listForAdmin(db: Db, opts: { status?: string; page: number; pageSize: number }) {
  const where: SQL | undefined = opts.status ? eq(withdrawals.status, opts.status) : undefined;
  const rows = await db
    .select({ ...populatedColumns, uId: users.id, uFirst: users.firstName, uLast: users.lastName, uEmail: users.email })
    .from(withdrawals)
    .leftJoin(investments, eq(investments.id, withdrawals.investmentId))
    .leftJoin(users, eq(users.id, withdrawals.userId))
    .where(where)
    .orderBy(desc(withdrawals.requestedAt), desc(withdrawals.cycleNumber), withdrawals.id)
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return rows;
}

export async function adminOne(db: Db, id: string) {
  const [row] = await db
    .select({ ...populatedColumns, uId: users.id, uFirst: users.firstName, uLast: users.lastName, uEmail: users.email })
    .from(withdrawals)
    .leftJoin(investments, eq(investments.id, withdrawals.investmentId))
    .leftJoin(users, eq(users.id, withdrawals.userId))
    .where(eq(withdrawals.id, id))
    .limit(1);
  return row;
}

export async function counts(db: Db, status?: string): Promise<{ pending: number; total: number; matching: number }> {
  const [r] = await rawRows<{ pending: number | string; total: number | string; matching: number | string }>(
    db,
    sql`SELECT COUNT(*) FILTER (WHERE status = 'pending') AS pending, COUNT(*) AS total,
        COUNT(*) FILTER (WHERE ${status ?? null}::text IS NULL OR status = ${status ?? null}::text) AS matching FROM withdrawals`,
  );
  return { pending: Number(r?.pending ?? 0), total: Number(r?.total ?? 0), matching: Number(r?.matching ?? 0) };
}
