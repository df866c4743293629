import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { investments, payoutTransactions, users, withdrawals } from '../../db/schema.ts';

export type WithdrawalRow = typeof withdrawals.$inferSelect;

/** Whether Withdraw All would find anything: an unrequested earning, rewards or balance (no lock). */
export async function hasAvailableFunds(db: Db, userId: string): Promise<boolean> {
  const [r] = await rawRows<{ any: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM cycle_earnings WHERE user_id = ${userId}::uuid AND NOT withdrawal_requested AND gross_amount > 0)
        OR EXISTS (SELECT 1 FROM ledger_accounts WHERE user_id = ${userId}::uuid AND kind IN ('rewards', 'balance') AND balance > 0) AS any`,
  );
  return Boolean(r?.any);
}

/**
 * One statement for a Withdraw All (the user's accounts already locked): marks every unrequested
 * cycle earning requested, inserts one withdrawal per earning (fee: floor(gross * feePercent / 100))
 * and one per non-zero rewards and balance amount (no fee), and records the wallet on the user.
 */
export async function insertWithdrawAll(
  tx: Db,
  o: {
    userId: string;
    requestId: string;
    walletAddress: string;
    requestedAt: Date;
    rewards: bigint;
    balance: bigint;
    feePercent: bigint;
  },
): Promise<{ count: number; gross: bigint; fee: bigint }> {
  const at = sql`${o.requestedAt.toISOString()}::timestamptz`;
  const [r] = await rawRows<{ n: number; gross: bigint | string | null; fee: bigint | string | null }>(
    tx,
    sql`WITH earned AS (
          UPDATE cycle_earnings SET withdrawal_requested = true
          WHERE user_id = ${o.userId}::uuid AND NOT withdrawal_requested AND gross_amount > 0
          RETURNING id, investment_id, cycle_number, gross_amount, created_at),
        rows AS (
          SELECT 'earning' AS source, gross_amount AS amount, gross_amount * ${o.feePercent}::bigint / 100 AS fee,
                 id AS cycle_earning_id, investment_id, cycle_number, created_at AS ord
          FROM earned
          UNION ALL
          SELECT s.source, s.amount, 0::bigint, NULL::uuid, NULL::uuid, NULL::int, NULL::timestamptz
          FROM (VALUES ('rewards', ${o.rewards.toString()}::bigint), ('balance', ${o.balance.toString()}::bigint)) AS s(source, amount)
          WHERE s.amount > 0),
        ins AS (
          INSERT INTO withdrawals (id, user_id, request_id, source, status, amount, fee_amount, net_amount,
                                   cycle_earning_id, investment_id, cycle_number, wallet_address, requested_at)
          SELECT gen_random_uuid(), ${o.userId}::uuid, ${o.requestId}::uuid, source, 'pending', amount, fee, amount - fee,
                 cycle_earning_id, investment_id, cycle_number, ${o.walletAddress}, ${at}
          FROM rows ORDER BY ord NULLS LAST, cycle_number
          RETURNING amount, fee_amount),
        wallet AS (UPDATE users SET withdrawal_wallet = ${o.walletAddress} WHERE id = ${o.userId}::uuid AND EXISTS (SELECT 1 FROM rows))
        SELECT count(*)::int AS n, sum(amount)::text AS gross, sum(fee_amount)::text AS fee FROM ins`,
  );
  return { count: Number(r?.n ?? 0), gross: BigInt(r?.gross ?? 0), fee: BigInt(r?.fee ?? 0) };
}

export async function markEarningsRequested(tx: Db, ids: string[], requested: boolean): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(
    sql`UPDATE cycle_earnings SET withdrawal_requested = ${requested} WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
  );
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
