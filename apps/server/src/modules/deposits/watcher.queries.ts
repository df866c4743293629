import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chainCheckpoints, chainCursors, depositAddresses, deposits } from '../../db/schema.ts';
import { MSG } from '@harvest/shared/messages';
import { failedClaimOf, type DepositRow } from './deposits.queries.ts';

export type CursorRow = typeof chainCursors.$inferSelect;

export async function findCursor(db: Db, name: string): Promise<CursorRow | undefined> {
  const [row] = await db.select().from(chainCursors).where(eq(chainCursors.name, name)).limit(1);
  return row;
}

/** First start: the cursor is created once (a racing instance's row wins). */
export async function createCursor(
  db: Db,
  name: string,
  blockNumber: bigint,
  blockHash: string,
  now: Date,
): Promise<void> {
  await db.insert(chainCursors).values({ name, blockNumber, blockHash, updatedAt: now }).onConflictDoNothing();
}

/** Takes or renews the lease: only when free, expired, or already ours. */
export async function takeLease(db: Db, name: string, owner: string, now: Date, until: Date): Promise<boolean> {
  const rows = await db
    .update(chainCursors)
    .set({ leaseOwner: owner, leaseUntil: until })
    .where(
      and(
        eq(chainCursors.name, name),
        or(
          sql`${chainCursors.leaseOwner} IS NULL`,
          eq(chainCursors.leaseOwner, owner),
          lt(chainCursors.leaseUntil, now),
        ),
      ),
    )
    .returning({ name: chainCursors.name });
  return rows.length > 0;
}

export async function releaseLease(db: Db, name: string, owner: string): Promise<void> {
  await db
    .update(chainCursors)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(chainCursors.name, name), eq(chainCursors.leaseOwner, owner)));
}

/** A pass of the lease holder read the chain up to its target: when, and the head it saw. */
export async function markChecked(db: Db, name: string, owner: string, head: bigint, now: Date): Promise<void> {
  await db
    .update(chainCursors)
    .set({ checkedAt: now, headBlock: head })
    .where(and(eq(chainCursors.name, name), eq(chainCursors.leaseOwner, owner)));
}

/**
 * Moves the cursor from exactly `from` to `to`, only for the lease holder: a cursor someone else
 * moved (or a lost lease) changes nothing and the caller's transaction is rolled back.
 */
export async function advanceCursor(
  db: Db,
  name: string,
  owner: string,
  from: { blockNumber: bigint; blockHash: string },
  to: { blockNumber: bigint; blockHash: string },
  now: Date,
  leaseUntil: Date,
): Promise<boolean> {
  const rows = await db
    .update(chainCursors)
    .set({ blockNumber: to.blockNumber, blockHash: to.blockHash, updatedAt: now, leaseUntil })
    .where(
      and(
        eq(chainCursors.name, name),
        eq(chainCursors.leaseOwner, owner),
        eq(chainCursors.blockNumber, from.blockNumber),
        eq(chainCursors.blockHash, from.blockHash),
      ),
    )
    .returning({ name: chainCursors.name });
  return rows.length > 0;
}

export async function addCheckpoint(db: Db, name: string, blockNumber: bigint, blockHash: string, keepFrom: bigint) {
  await db
    .insert(chainCheckpoints)
    .values({ name, blockNumber, blockHash })
    .onConflictDoUpdate({ target: [chainCheckpoints.name, chainCheckpoints.blockNumber], set: { blockHash } });
  await db
    .delete(chainCheckpoints)
    .where(and(eq(chainCheckpoints.name, name), lt(chainCheckpoints.blockNumber, keepFrom)));
}

/** Every checkpoint at or below a block, newest first (the window keeps them few), to find the fork point. */
export async function checkpointsBelow(db: Db, name: string, blockNumber: bigint) {
  return db
    .select()
    .from(chainCheckpoints)
    .where(and(eq(chainCheckpoints.name, name), lte(chainCheckpoints.blockNumber, blockNumber)))
    .orderBy(desc(chainCheckpoints.blockNumber));
}

export async function dropCheckpointsAbove(db: Db, name: string, blockNumber: bigint) {
  await db
    .delete(chainCheckpoints)
    .where(and(eq(chainCheckpoints.name, name), gt(chainCheckpoints.blockNumber, blockNumber)));
}

/** One Transfer log to an investor's address, as a deposit row to record (every fact from the chain). */
export interface WatchedInsert {
  userId: string;
  amount: bigint;
  status: 'pending' | 'failed';
  txHash: string;
  logIndex: number;
  fromAddress: string;
  toAddress: string;
  blockNumber: bigint;
  blockHash: string;
  confirmations: number;
  failureReason: string | null;
  createdAt: Date;
}

/**
 * Records transfers found on chain, once per (tx hash, log index). The same transfer read again (a later
 * read, a claim, another instance) refreshes where a pending deposit sits (its block may have changed in a
 * re-organisation) and brings back one failed as dropped by a re-organisation; a confirmed deposit, or
 * another transfer at that log index, is left as it is.
 */
export async function recordTransfers(db: Db, rows: WatchedInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(deposits)
    .values(rows.map((r) => ({ ...r, type: 'real' })))
    .onConflictDoUpdate({
      target: [deposits.txHash, deposits.logIndex],
      set: {
        status: sql`excluded.status`,
        failureReason: sql`excluded.failure_reason`,
        blockNumber: sql`excluded.block_number`,
        blockHash: sql`excluded.block_hash`,
        confirmations: sql`excluded.confirmations`,
        processedAt: null,
      },
      setWhere: and(
        sql`${deposits.toAddress} = excluded.to_address`,
        sql`${deposits.fromAddress} = excluded.from_address`,
        sql`${deposits.amount} = excluded.amount`,
        or(
          eq(deposits.status, 'pending'),
          and(eq(deposits.status, 'failed'), eq(deposits.failureReason, MSG.depositDroppedByReorg)),
        ),
      ),
    });
}

export async function findByLog(db: Db, txHash: string, logIndex: number): Promise<DepositRow | undefined> {
  const [row] = await db
    .select()
    .from(deposits)
    .where(and(eq(deposits.txHash, txHash), eq(deposits.logIndex, logIndex)))
    .limit(1);
  return row;
}

/** Confirmations of every pending watched deposit, counted at `head`. */
export async function countConfirmations(db: Db, head: bigint): Promise<void> {
  await db
    .update(deposits)
    .set({ confirmations: sql`GREATEST(0, ${head.toString()}::bigint - ${deposits.blockNumber} + 1)::int` })
    .where(and(eq(deposits.status, 'pending'), isNotNull(deposits.toAddress)));
}

/** Pending watched deposits in blocks up to `maxBlock` (deep enough to credit), oldest first. */
export async function pendingWatchedUpTo(db: Db, maxBlock: bigint, limit: number): Promise<DepositRow[]> {
  return db
    .select()
    .from(deposits)
    .where(and(eq(deposits.status, 'pending'), isNotNull(deposits.toAddress), lte(deposits.blockNumber, maxBlock)))
    .orderBy(asc(deposits.blockNumber))
    .limit(limit);
}

/**
 * Below-minimum transfers (failed, never credited) in blocks up to `maxBlock` whose block has not been checked
 * yet: the preview shows them before they are deep, and a re-organisation may still drop or move them.
 */
export async function uncheckedBelowUpTo(db: Db, maxBlock: bigint, limit: number): Promise<DepositRow[]> {
  return db
    .select()
    .from(deposits)
    .where(
      and(
        eq(deposits.status, 'failed'),
        isNotNull(deposits.toAddress),
        isNull(deposits.processedAt),
        lte(deposits.blockNumber, maxBlock),
      ),
    )
    .orderBy(asc(deposits.blockNumber))
    .limit(limit);
}

/** Below-minimum transfers whose block was found on the chain at their depth: decided, not checked again. */
export async function markBelowChecked(db: Db, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(deposits)
    .set({ processedAt: at })
    .where(and(inArray(deposits.id, ids), eq(deposits.status, 'failed'), isNull(deposits.processedAt)));
}

/** Transactions of watched deposits read in blocks after `blockNumber` (a re-organisation may have moved or dropped them). */
export async function watchedTxsAbove(db: Db, blockNumber: bigint): Promise<string[]> {
  const rows = await db
    .selectDistinct({ txHash: deposits.txHash })
    .from(deposits)
    .where(and(isNotNull(deposits.toAddress), gt(deposits.blockNumber, blockNumber)));
  return rows.flatMap((r) => (r.txHash ? [r.txHash] : []));
}

/**
 * The watched deposits of one transaction, locked, in the order they keep a transfer when a transaction is
 * matched again: credited ones first, then pending, then failed; within each by log index.
 */
export async function lockWatchedOfTx(db: Db, txHash: string): Promise<DepositRow[]> {
  return db
    .select()
    .from(deposits)
    .where(and(eq(deposits.txHash, txHash), isNotNull(deposits.toAddress)))
    .orderBy(
      sql`CASE ${deposits.status} WHEN 'confirmed' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END`,
      asc(deposits.logIndex),
    )
    .for('update');
}

/** Frees the log indexes of these deposits (each to -1 - itself) before they are given their new ones. */
export async function parkLogIndexes(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(deposits)
    .set({ logIndex: sql`-1 - ${deposits.logIndex}` })
    .where(and(inArray(deposits.id, ids), isNotNull(deposits.logIndex)));
}

/** Addresses handed out before they were given a first block (before that was recorded): how many. */
export async function countUnstartedAddresses(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(depositAddresses)
    .where(isNull(depositAddresses.fromBlock));
  return Number(row?.n ?? 0);
}

/** Gives those addresses their first block. */
export async function startUnstartedAddresses(db: Db, fromBlock: bigint): Promise<number> {
  const rows = await db
    .update(depositAddresses)
    .set({ fromBlock })
    .where(isNull(depositAddresses.fromBlock))
    .returning({ userId: depositAddresses.userId });
  return rows.length;
}

/**
 * A failed claim corrected with a transfer to the owner's own address (DEPOSIT_XPUB): it becomes that
 * transfer, every fact from the chain, pending until the chain watcher credits it.
 */
export async function adoptTransfer(
  db: Db,
  id: string,
  userId: string,
  t: Omit<WatchedInsert, 'userId' | 'createdAt'> & { now: Date },
): Promise<DepositRow | undefined> {
  const [row] = await db
    .update(deposits)
    .set({
      type: 'real',
      status: t.status,
      failureReason: t.failureReason,
      failureSaid: null,
      failureKind: null,
      dismissedAt: null,
      txHash: t.txHash,
      logIndex: t.logIndex,
      fromAddress: t.fromAddress,
      toAddress: t.toAddress,
      amount: t.amount,
      blockNumber: t.blockNumber,
      blockHash: t.blockHash,
      confirmations: t.confirmations,
      checkAttempts: 0,
      nextCheckAt: null,
      processedAt: t.status === 'failed' ? t.now : null,
      processedBy: null,
    })
    .where(failedClaimOf(id, userId))
    .returning();
  return row;
}
