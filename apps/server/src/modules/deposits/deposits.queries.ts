import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { deposits, users } from '../../db/schema.ts';
import type { AdminDepositFilter, DepositCounts, DepositFailureKind } from '@harvest/shared/schemas/deposits';

export type DepositRow = typeof deposits.$inferSelect;
export type DepositUser = Pick<typeof users.$inferSelect, 'id' | 'firstName' | 'lastName' | 'email'>;

export async function insertDeposit(db: Db, values: typeof deposits.$inferInsert): Promise<DepositRow> {
  const [row] = await db.insert(deposits).values(values).returning();
  if (!row) throw new Error('deposit not inserted');
  return row;
}

export async function findDeposit(db: Db, id: string): Promise<DepositRow | undefined> {
  const [row] = await db.select().from(deposits).where(eq(deposits.id, id)).limit(1);
  return row;
}

export async function lockDeposit(db: Db, id: string): Promise<DepositRow | undefined> {
  const [row] = await db.select().from(deposits).where(eq(deposits.id, id)).for('update').limit(1);
  return row;
}

export async function updateDeposit(
  db: Db,
  id: string,
  values: Partial<typeof deposits.$inferInsert>,
): Promise<DepositRow | undefined> {
  const [row] = await db.update(deposits).set(values).where(eq(deposits.id, id)).returning();
  return row;
}

/** pending -> confirmed, only from pending: a second racer gets nothing back. */
export async function confirmIfPending(
  db: Db,
  id: string,
  values: { processedAt: Date; processedBy?: string | null; logIndex?: number | null; confirmations?: number },
): Promise<DepositRow | undefined> {
  const [row] = await db
    .update(deposits)
    .set({ status: 'confirmed', nextCheckAt: null, ...values })
    .where(and(eq(deposits.id, id), eq(deposits.status, 'pending')))
    .returning();
  return row;
}

/** pending -> confirmed for many watched deposits at once, confirmations counted at `head`. */
export async function confirmManyIfPending(
  db: Db,
  ids: string[],
  values: { processedAt: Date; head: bigint },
): Promise<DepositRow[]> {
  return db
    .update(deposits)
    .set({
      status: 'confirmed',
      nextCheckAt: null,
      processedAt: values.processedAt,
      confirmations: sql`GREATEST(0, ${values.head.toString()}::bigint - ${deposits.blockNumber} + 1)::int`,
    })
    .where(and(inArray(deposits.id, ids), eq(deposits.status, 'pending')))
    .returning();
}

/** pending -> failed with the reason, only from pending: a second racer (or an approval) gets nothing back. */
export async function failIfPending(
  db: Db,
  id: string,
  values: { failureReason: string; failureKind: DepositFailureKind; processedAt: Date; processedBy?: string | null },
): Promise<DepositRow | undefined> {
  const [row] = await db
    .update(deposits)
    .set({ status: 'failed', logIndex: null, nextCheckAt: null, ...values })
    .where(and(eq(deposits.id, id), eq(deposits.status, 'pending')))
    .returning();
  return row;
}

/** The owner takes a failed deposit off the failed-deposits list (once; it stays in the history). */
export async function dismissIfFailed(db: Db, id: string, userId: string, now: Date): Promise<DepositRow | undefined> {
  const [row] = await db
    .update(deposits)
    .set({ dismissedAt: now })
    .where(
      and(
        eq(deposits.id, id),
        eq(deposits.userId, userId),
        eq(deposits.status, 'failed'),
        isNull(deposits.dismissedAt),
      ),
    )
    .returning();
  return row;
}

/**
 * failed -> pending with a new hash and amount (and from-address, when given), only the owner's
 * failed deposit.
 */
export async function resubmitIfFailed(
  db: Db,
  id: string,
  userId: string,
  values: { txHash: string; amount: bigint; fromAddress: string | null; type: 'demo' | 'real'; now: Date },
): Promise<DepositRow | undefined> {
  const [row] = await db
    .update(deposits)
    .set({
      txHash: values.txHash,
      amount: values.amount,
      ...(values.fromAddress ? { fromAddress: values.fromAddress } : {}),
      type: values.type,
      status: 'pending',
      failureReason: null,
      failureKind: null,
      dismissedAt: null,
      logIndex: null,
      confirmations: 0,
      checkAttempts: 0,
      nextCheckAt: values.now,
      processedAt: null,
      processedBy: null,
    })
    .where(and(eq(deposits.id, id), eq(deposits.userId, userId), eq(deposits.status, 'failed')))
    .returning();
  return row;
}

export async function listUserDeposits(
  db: Db,
  userId: string,
  opts: { status?: 'failed'; limit: number },
): Promise<DepositRow[]> {
  // The failed-deposits list leaves out what its owner dismissed; the history shows everything.
  return db
    .select()
    .from(deposits)
    .where(
      opts.status
        ? and(eq(deposits.userId, userId), eq(deposits.status, opts.status), isNull(deposits.dismissedAt))
        : eq(deposits.userId, userId),
    )
    .orderBy(desc(deposits.createdAt), desc(deposits.id))
    .limit(opts.limit);
}

/** Which deposits an admin list shows: one status (or all), optionally of one user. */
export interface DepositFilter {
  status: AdminDepositFilter;
  userId?: string;
}

function depositWhere(f: DepositFilter) {
  return and(
    f.status === 'all' ? undefined : eq(deposits.status, f.status),
    f.userId ? eq(deposits.userId, f.userId) : undefined,
  );
}

/** Newest first, with the depositor. */
export async function listDepositsWithUsers(
  db: Db,
  f: DepositFilter,
  page: { limit: number; offset: number },
): Promise<{ deposit: DepositRow; user: DepositUser }[]> {
  return db
    .select({
      deposit: deposits,
      user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
    })
    .from(deposits)
    .innerJoin(users, eq(users.id, deposits.userId))
    .where(depositWhere(f))
    .orderBy(desc(deposits.createdAt), desc(deposits.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countDeposits(db: Db, f: DepositFilter): Promise<number> {
  const [t] = await db.select({ n: count() }).from(deposits).where(depositWhere(f));
  return Number(t?.n ?? 0);
}

export async function depositCounts(db: Db): Promise<DepositCounts> {
  const rows = await db.select({ status: deposits.status, n: count() }).from(deposits).groupBy(deposits.status);
  const out: DepositCounts = { all: 0, pending: 0, confirmed: 0, failed: 0 };
  for (const r of rows) {
    const n = Number(r.n);
    out.all += n;
    if (r.status === 'pending' || r.status === 'confirmed' || r.status === 'failed') out[r.status] += n;
  }
  return out;
}

/**
 * Claims pending real deposits that are due for a chain check. Rows another instance is
 * claiming right now are skipped (FOR UPDATE SKIP LOCKED), and each claimed row gets a lease
 * (next_check_at moved ahead) so no other instance checks it while this one does.
 */
export async function claimDueDeposits(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<string[]> {
  const rows = await rawRows<{ id: string }>(
    db,
    sql`UPDATE deposits SET next_check_at = ${leaseUntil.toISOString()}::timestamptz
      WHERE id IN (
        SELECT id FROM deposits
        WHERE status = 'pending' AND type = 'real' AND to_address IS NULL AND (next_check_at IS NULL OR next_check_at <= ${now.toISOString()}::timestamptz)
        ORDER BY next_check_at NULLS FIRST, created_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id`,
  );
  return rows.map((r) => r.id);
}
