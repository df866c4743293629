import { and, asc, desc, eq, gt, isNotNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chainCheckpoints, chainCursors, deposits } from '../../db/schema.ts';
import { MSG } from '@harvest/shared/messages';
import type { DepositRow } from './deposits.queries.ts';

export type CursorRow = typeof chainCursors.$inferSelect;

export async function findCursor(db: Db, name: string): Promise<CursorRow | undefined> {
  const [row] = await db.select().from(chainCursors).where(eq(chainCursors.name, name)).limit(1);
  return row;
}

/** First start: the cursor is created once (a racing instance's row wins). */
export async function createCursor(db: Db, name: string, blockNumber: bigint, blockHash: string): Promise<void> {
  await db.insert(chainCursors).values({ name, blockNumber, blockHash }).onConflictDoNothing();
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

/** Checkpoints at or below a block, newest first (to walk back to the fork point). */
export async function checkpointsBelow(db: Db, name: string, blockNumber: bigint, limit: number) {
  return db
    .select()
    .from(chainCheckpoints)
    .where(and(eq(chainCheckpoints.name, name), lte(chainCheckpoints.blockNumber, blockNumber)))
    .orderBy(desc(chainCheckpoints.blockNumber))
    .limit(limit);
}

export async function dropCheckpointsAbove(db: Db, name: string, blockNumber: bigint) {
  await db
    .delete(chainCheckpoints)
    .where(and(eq(chainCheckpoints.name, name), gt(chainCheckpoints.blockNumber, blockNumber)));
}

/** One Transfer log to an investor's address, as a deposit row to record. */
export type WatchedInsert = Required<
  Pick<
    typeof deposits.$inferInsert,
    | 'userId'
    | 'amount'
    | 'status'
    | 'txHash'
    | 'logIndex'
    | 'fromAddress'
    | 'toAddress'
    | 'blockNumber'
    | 'blockHash'
    | 'confirmations'
    | 'failureReason'
    | 'createdAt'
  >
>;

/**
 * Records transfers found on chain, once per (tx hash, log index): a log read again (a second
 * pass, a claim, another instance) changes nothing, except that a deposit failed as dropped by a
 * re-organisation comes back to pending when its transaction is mined again.
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
      setWhere: and(eq(deposits.status, 'failed'), eq(deposits.failureReason, MSG.depositDroppedByReorg)),
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

/** Pending watched deposits read in blocks after `blockNumber` (a re-organisation may have dropped them). */
export async function pendingWatchedAbove(db: Db, blockNumber: bigint): Promise<DepositRow[]> {
  return db
    .select()
    .from(deposits)
    .where(and(eq(deposits.status, 'pending'), isNotNull(deposits.toAddress), gt(deposits.blockNumber, blockNumber)))
    .orderBy(asc(deposits.blockNumber));
}
