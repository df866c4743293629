import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { chainReconciliations, depositAddresses, deposits } from '../../db/schema.ts';

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

/** Per payout transaction and wallet the chain proved at approval: the net amounts approved with it. */
export async function provenPayouts(db: Db) {
  return rawRows<{ tx_hash: string; wallet_address: string; approved: string }>(
    db,
    sql`SELECT p.tx_hash, p.wallet_address, COALESCE(sum(w.net_amount), 0)::text AS approved
        FROM payout_transactions p
        JOIN withdrawals w ON w.tx_hash = p.tx_hash AND w.wallet_address = p.wallet_address AND w.status = 'approved'
        WHERE p.chain_value IS NOT NULL
        GROUP BY p.tx_hash, p.wallet_address`,
  );
}
