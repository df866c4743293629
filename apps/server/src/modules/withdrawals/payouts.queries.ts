import { and, asc, desc, eq, gt, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { depositSweeps, payoutBatches, payoutTransfers, withdrawals } from '../../db/schema.ts';

export type PayoutTransferRow = typeof payoutTransfers.$inferSelect;
export type PayoutInsert = Pick<
  typeof payoutTransfers.$inferInsert,
  'txHash' | 'logIndex' | 'toAddress' | 'amount' | 'blockNumber' | 'blockHash' | 'createdAt'
>;
export type SweepInsert = typeof depositSweeps.$inferInsert & { createdAt: Date };

/** Records transfers out of the payout address (once per log; read again: nothing changes). */
export async function recordPayoutTransfers(db: Db, rows: PayoutInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(payoutTransfers).values(rows).onConflictDoNothing();
}

export async function recordSweeps(db: Db, rows: SweepInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(depositSweeps).values(rows).onConflictDoNothing();
}

/** Payout transfers not looked at yet, in blocks up to `maxBlock`, oldest first. */
export async function pendingPayoutTransfers(db: Db, maxBlock: bigint, limit: number): Promise<PayoutTransferRow[]> {
  return db
    .select()
    .from(payoutTransfers)
    .where(and(eq(payoutTransfers.status, 'pending'), lte(payoutTransfers.blockNumber, maxBlock)))
    .orderBy(asc(payoutTransfers.blockNumber), asc(payoutTransfers.logIndex))
    .limit(limit);
}

/** Payout transfers an administrator has to look at (ambiguous, unmatched or held), newest first. */
export async function openPayoutTransfers(db: Db): Promise<PayoutTransferRow[]> {
  return db
    .select()
    .from(payoutTransfers)
    .where(inArray(payoutTransfers.status, ['ambiguous', 'unmatched', 'held']))
    .orderBy(desc(payoutTransfers.blockNumber), desc(payoutTransfers.logIndex))
    .limit(200);
}

export async function findPayoutTransfer(db: Db, id: string): Promise<PayoutTransferRow | undefined> {
  const [row] = await db.select().from(payoutTransfers).where(eq(payoutTransfers.id, id)).limit(1);
  return row;
}

/** Settles a payout transfer's state from `from` (compare-and-set: two instances or an admin never both). */
export async function settlePayoutTransfer(
  db: Db,
  id: string,
  from: string[],
  values: {
    status: string;
    withdrawalIds?: string[] | null;
    detail?: string | null;
    resolvedAt?: Date;
    resolvedBy?: string | null;
  },
): Promise<boolean> {
  const rows = await db
    .update(payoutTransfers)
    .set(values)
    .where(and(eq(payoutTransfers.id, id), inArray(payoutTransfers.status, from)))
    .returning({ id: payoutTransfers.id });
  return rows.length > 0;
}

/** Pending withdrawals to a wallet, with the batch each was exported in (null: none), oldest first. */
export async function pendingToWallet(db: Db, wallet: string) {
  return db
    .select({
      w: withdrawals,
      batchGrouped: payoutBatches.grouped,
      batchStatus: payoutBatches.status,
      graceUntil: payoutBatches.graceUntil,
    })
    .from(withdrawals)
    .leftJoin(payoutBatches, eq(payoutBatches.id, withdrawals.batchId))
    .where(and(eq(withdrawals.walletAddress, wallet), eq(withdrawals.status, 'pending')))
    .orderBy(asc(withdrawals.requestedAt), asc(withdrawals.id));
}

/**
 * Withdrawals to this wallet already approved with this hash (by hand, before the watcher read the transfer), and
 * whether their net amounts account for everything the transaction carried to the wallet (its transfers read).
 */
export async function approvedWith(
  db: Db,
  txHash: string,
  wallet: string,
): Promise<{ ids: string[]; covers: boolean }> {
  const [r] = await rawRows<{ ids: string[] | null; approved: bigint; carried: bigint }>(
    db,
    sql`SELECT (SELECT array_agg(id::text) FROM withdrawals
                WHERE tx_hash = ${txHash} AND wallet_address = ${wallet} AND status = 'approved') AS ids,
               (SELECT COALESCE(sum(net_amount), 0) FROM withdrawals
                WHERE tx_hash = ${txHash} AND wallet_address = ${wallet} AND status = 'approved')::bigint AS approved,
               (SELECT COALESCE(sum(amount), 0) FROM payout_transfers
                WHERE tx_hash = ${txHash} AND to_address = ${wallet})::bigint AS carried`,
  );
  const ids = r?.ids ?? [];
  return { ids, covers: ids.length > 0 && (r?.approved ?? 0n) >= (r?.carried ?? 0n) };
}

/** After a re-organisation: what was read above the fork point and not acted on is read again. */
export async function dropUnsettledAbove(db: Db, blockNumber: bigint): Promise<void> {
  await db
    .delete(payoutTransfers)
    .where(and(gt(payoutTransfers.blockNumber, blockNumber), ne(payoutTransfers.status, 'matched')));
  await db.delete(depositSweeps).where(gt(depositSweeps.blockNumber, blockNumber));
}

/** Matched payout transfers read above a block (a re-organisation may have taken them away). */
export async function matchedAbove(db: Db, blockNumber: bigint): Promise<PayoutTransferRow[]> {
  return db
    .select()
    .from(payoutTransfers)
    .where(and(gt(payoutTransfers.blockNumber, blockNumber), eq(payoutTransfers.status, 'matched')));
}

export async function moveMatched(
  db: Db,
  id: string,
  to: { blockNumber: bigint; blockHash: string; logIndex: number },
) {
  await db.update(payoutTransfers).set(to).where(eq(payoutTransfers.id, id));
}

/**
 * The newest sweep: the transfers to the treasury read within the hour before the newest one (a sweep's
 * authorizations are sent one after another, into several blocks): how many addresses, how much, up to which block,
 * when.
 */
export async function lastSweep(db: Db, treasury: string) {
  const [row] = await rawRows<{
    block_number: bigint | null;
    addresses: number;
    total: string | null;
    at: Date | null;
  }>(
    db,
    sql`SELECT max(block_number) AS block_number, count(DISTINCT from_address)::int AS addresses,
               sum(amount)::text AS total, max(created_at) AS at
        FROM deposit_sweeps WHERE to_address = ${treasury}
          AND created_at >= (SELECT max(created_at) FROM deposit_sweeps WHERE to_address = ${treasury}) - interval '1 hour'`,
  );
  if (row?.block_number == null || row.at === null) return undefined;
  return {
    blockNumber: row.block_number,
    addresses: row.addresses,
    total: row.total ?? '0',
    at: row.at,
  };
}

/**
 * Money that left without the books releasing it, as the watcher read it (micro-USDC): transfers out of the payout
 * address that no withdrawal accounts for yet (unmatched, ambiguous, held; not the ones to the treasury), and
 * transfers out of deposit addresses to anywhere but the treasury.
 */
export async function unexplainedOutflow(db: Db, treasury: string | null) {
  const [row] = await rawRows<{ payout: bigint; deposits: bigint }>(
    db,
    sql`SELECT (SELECT COALESCE(sum(amount), 0) FROM payout_transfers
                WHERE status IN ('unmatched', 'ambiguous', 'held') AND to_address IS DISTINCT FROM ${treasury})::bigint AS payout,
               (SELECT COALESCE(sum(amount), 0) FROM deposit_sweeps
                WHERE to_address IS DISTINCT FROM ${treasury})::bigint AS deposits`,
  );
  return { payoutWallet: row?.payout ?? 0n, depositAddresses: row?.deposits ?? 0n };
}
