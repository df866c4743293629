import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { chainReconciliations, depositAddresses, deposits, payoutTransfers } from '../../db/schema.ts';

export type RunRow = typeof chainReconciliations.$inferSelect;

/** Every handed-out deposit address, with the block from which it counts. */
export async function handedOutAddresses(db: Db) {
  return db
    .select({
      address: depositAddresses.address,
      userId: depositAddresses.userId,
      fromBlock: depositAddresses.fromBlock,
    })
    .from(depositAddresses)
    .orderBy(depositAddresses.childIndex);
}

/** The deposits a chain read recorded (to an investor's own address), every status. */
export async function watchedDeposits(db: Db) {
  return db
    .select({
      id: deposits.id,
      userId: deposits.userId,
      status: deposits.status,
      failureReason: deposits.failureReason,
      amount: deposits.amount,
      txHash: deposits.txHash,
      logIndex: deposits.logIndex,
      fromAddress: deposits.fromAddress,
      toAddress: deposits.toAddress,
      blockNumber: deposits.blockNumber,
    })
    .from(deposits)
    .where(isNotNull(deposits.toAddress));
}

/** Credited on-chain deposits claimed against the shared address (no address of their own). */
export async function creditedSharedClaims(db: Db) {
  return db
    .select({
      id: deposits.id,
      userId: deposits.userId,
      amount: deposits.amount,
      txHash: deposits.txHash,
      logIndex: deposits.logIndex,
      fromAddress: deposits.fromAddress,
    })
    .from(deposits)
    .where(and(eq(deposits.type, 'real'), eq(deposits.status, 'confirmed'), isNull(deposits.toAddress)));
}

export async function startRun(
  db: Db,
  values: { trigger: string; requestedBy: string | null; at: Date },
): Promise<RunRow> {
  const [row] = await db
    .insert(chainReconciliations)
    .values({ trigger: values.trigger, requestedBy: values.requestedBy, startedAt: values.at, status: 'running' })
    .returning();
  if (!row) throw new Error('reconciliation run not recorded');
  return row;
}

export async function finishRun(
  db: Db,
  id: string,
  values: Pick<
    typeof chainReconciliations.$inferInsert,
    | 'status'
    | 'finishedAt'
    | 'throughBlock'
    | 'checkedDeposits'
    | 'checkedTransfers'
    | 'checkedAddresses'
    | 'checkedPayouts'
    | 'differenceCount'
    | 'differences'
    | 'error'
  >,
): Promise<RunRow> {
  const [row] = await db.update(chainReconciliations).set(values).where(eq(chainReconciliations.id, id)).returning();
  if (!row) throw new Error('reconciliation run vanished');
  return row;
}

export async function lastRun(db: Db): Promise<RunRow | undefined> {
  const [row] = await db.select().from(chainReconciliations).orderBy(desc(chainReconciliations.startedAt)).limit(1);
  return row;
}

/** A run still going (started after `since`, not finished): one at a time. */
export async function runningSince(db: Db, since: Date): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(chainReconciliations)
    .where(
      and(
        isNull(chainReconciliations.finishedAt),
        sql`${chainReconciliations.startedAt} > ${since.toISOString()}::timestamptz`,
      ),
    )
    .limit(1);
  return row;
}

/** Per payout transaction and wallet: the net amounts of the withdrawals approved with it (micro-USDC). */
export async function approvedPayouts(db: Db): Promise<{ txHash: string; wallet: string; approved: bigint }[]> {
  const rows = await rawRows<{ tx_hash: string; wallet_address: string; approved: string }>(
    db,
    sql`SELECT tx_hash, wallet_address, sum(net_amount)::text AS approved FROM withdrawals
        WHERE status = 'approved' AND tx_hash IS NOT NULL GROUP BY tx_hash, wallet_address`,
  );
  return rows.map((r) => ({ txHash: r.tx_hash, wallet: r.wallet_address, approved: BigInt(r.approved) }));
}

/** What the watcher made of each transfer out of the payout address it read (matched, held, dismissed...). */
export async function payoutTransferStates(db: Db) {
  return db
    .select({ txHash: payoutTransfers.txHash, logIndex: payoutTransfers.logIndex, status: payoutTransfers.status })
    .from(payoutTransfers);
}

/** Net amounts of the rejected withdrawals to a wallet, one by one and per request (what a stale payout file paid). */
export async function rejectedNetTo(db: Db, wallet: string): Promise<bigint[]> {
  const rows = await rawRows<{ net: string }>(
    db,
    sql`SELECT net_amount::text AS net FROM withdrawals WHERE wallet_address = ${wallet} AND status = 'rejected'
        UNION SELECT sum(net_amount)::text FROM withdrawals WHERE wallet_address = ${wallet} AND status = 'rejected'
        GROUP BY request_id`,
  );
  return rows.map((r) => BigInt(r.net));
}
