import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
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
    .select({
      id: cycleEarnings.id,
      investmentId: cycleEarnings.investmentId,
      cycleNumber: cycleEarnings.cycleNumber,
      grossAmount: cycleEarnings.grossAmount,
    })
    .from(cycleEarnings)
    .where(
      and(
        eq(cycleEarnings.userId, userId),
        eq(cycleEarnings.withdrawalRequested, false),
        sql`${cycleEarnings.grossAmount} > 0`,
      ),
    )
    .orderBy(cycleEarnings.createdAt, cycleEarnings.cycleNumber, cycleEarnings.id)
    .for('update');
}

/** Inserts a Withdraw All's rows in one statement (rows travel as one JSON parameter; amounts as exact text). */
export async function insertWithdrawals(tx: Db, rows: NewWithdrawal[]): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      user_id: r.userId,
      request_id: r.requestId,
      source: r.source,
      status: r.status ?? 'pending',
      amount: r.amount.toString(),
      fee_amount: r.feeAmount.toString(),
      net_amount: r.netAmount.toString(),
      cycle_earning_id: r.cycleEarningId ?? null,
      investment_id: r.investmentId ?? null,
      cycle_number: r.cycleNumber ?? null,
      wallet_address: r.walletAddress,
      requested_at: (r.requestedAt ?? new Date()).toISOString(),
    })),
  );
  await tx.execute(sql`INSERT INTO withdrawals (id, user_id, request_id, source, status, amount, fee_amount, net_amount, cycle_earning_id, investment_id, cycle_number, wallet_address, requested_at)
    SELECT w.id, w.user_id, w.request_id, w.source, w.status, w.amount::bigint, w.fee_amount::bigint, w.net_amount::bigint, w.cycle_earning_id, w.investment_id, w.cycle_number, w.wallet_address, w.requested_at
    FROM jsonb_to_recordset(${json}::jsonb) AS w(id uuid, user_id uuid, request_id uuid, source text, status text, amount text, fee_amount text, net_amount text,
      cycle_earning_id uuid, investment_id uuid, cycle_number int, wallet_address text, requested_at timestamptz)`);
}

export async function markEarningsRequested(tx: Db, ids: string[], requested: boolean): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(
    sql`UPDATE cycle_earnings SET withdrawal_requested = ${requested} WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
  );
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
  values: {
    status: 'approved' | 'rejected';
    processedAt: Date;
    processedBy: string;
    txHash?: string | null;
    notes: string | null;
  },
): Promise<WithdrawalRow | undefined> {
  const [w] = await tx
    .update(withdrawals)
    .set(values)
    .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 'pending')))
    .returning();
  return w;
}

export async function startCooldown(tx: Db, investmentId: string, approvedAt: Date, nextCycleAt: Date): Promise<void> {
  await tx
    .update(investments)
    .set({ withdrawalApprovedAt: approvedAt, nextCycleAvailableAt: nextCycleAt })
    .where(eq(investments.id, investmentId));
}

export type PayoutTxRow = typeof payoutTransactions.$inferSelect;

/** Claims a payout hash for a request and wallet (first use) and locks its row. */
export async function claimPayoutTx(
  tx: Db,
  v: { txHash: string; requestId: string; walletAddress: string; chainValue: bigint | null },
): Promise<PayoutTxRow> {
  await tx.insert(payoutTransactions).values(v).onConflictDoNothing();
  const [row] = await tx.select().from(payoutTransactions).where(eq(payoutTransactions.txHash, v.txHash)).for('update');
  if (!row) throw new Error('payout transaction row missing');
  if (v.chainValue !== null && row.chainValue !== v.chainValue) {
    await tx
      .update(payoutTransactions)
      .set({ chainValue: v.chainValue })
      .where(eq(payoutTransactions.txHash, v.txHash));
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

const requester = { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email };

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
    .select({ ...populatedColumns, user: requester })
    .from(withdrawals)
    .leftJoin(investments, eq(investments.id, withdrawals.investmentId))
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(where)
    .orderBy(desc(withdrawals.requestedAt), desc(withdrawals.cycleNumber), withdrawals.id)
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return rows;
}

export async function adminOne(db: Db, id: string) {
  const [row] = await db
    .select({ ...populatedColumns, user: requester })
    .from(withdrawals)
    .leftJoin(investments, eq(investments.id, withdrawals.investmentId))
    .innerJoin(users, eq(users.id, withdrawals.userId))
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
