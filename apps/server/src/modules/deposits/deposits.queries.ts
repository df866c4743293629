import { and, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { StoredSaid } from '@harvest/shared/said';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { constraintName, sqlState } from '../../db/tx.ts';
import { keysetPage, type PageRequest } from '../../db/keyset.ts';
import { statusCounts } from '../../ledger/rollups.queries.ts';
import { balanceAdjustments, deposits, users } from '../../db/schema.ts';
import type { AdminDepositFilter, DepositCounts, DepositFailureKind } from '@harvest/shared/schemas/deposits';

export type DepositRow = typeof deposits.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A deposit id to look up (anything else is not found, without asking the database). */
export const isUuid = (id: string) => UUID.test(id);

const LIVE_HASH_CONSTRAINTS = new Set(['deposits_live_tx_hash_key', 'deposits_tx_log_key']);
/** The insert or update failed because another live deposit holds the same transfer. */
export const isHashTaken = (err: unknown) =>
  sqlState(err) === '23505' && LIVE_HASH_CONSTRAINTS.has(constraintName(err) ?? '');
export type DepositUser = Pick<typeof users.$inferSelect, 'id' | 'firstName' | 'lastName' | 'email'>;

export async function insertDeposit(
  db: Db,
  values: typeof deposits.$inferInsert & { createdAt: Date },
): Promise<DepositRow> {
  const [row] = await db.insert(deposits).values(values).returning();
  if (!row) throw new Error('deposit not inserted');
  return row;
}

/** An administrator's balance change (signed), in the caller's transaction. */
export async function insertAdjustment(
  db: Db,
  values: typeof balanceAdjustments.$inferInsert & { createdAt: Date },
): Promise<void> {
  await db.insert(balanceAdjustments).values(values);
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
  values: {
    failureReason: string;
    failureSaid: StoredSaid | null;
    failureKind: DepositFailureKind;
    processedAt: Date;
    processedBy?: string | null;
  },
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
 * failed -> pending with a new hash and amount (and from-address, when given), only the owner's failed
 * deposit that no chain read recorded. What the chain said of the old claim is cleared with it.
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
      failureSaid: null,
      failureKind: null,
      dismissedAt: null,
      logIndex: null,
      blockNumber: null,
      blockHash: null,
      confirmations: 0,
      checkAttempts: 0,
      nextCheckAt: values.now,
      processedAt: null,
      processedBy: null,
    })
    .where(failedClaimOf(id, userId))
    .returning();
  return row;
}

/** The owner's failed deposit that is a claim (no chain read recorded it): the only kind a correction may change. */
export const failedClaimOf = (id: string, userId: string) =>
  and(eq(deposits.id, id), eq(deposits.userId, userId), eq(deposits.status, 'failed'), isNull(deposits.toAddress));

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

interface RawDepositWithUser {
  id: string;
  user_id: string;
  amount: bigint;
  status: string;
  type: string;
  tx_hash: string | null;
  log_index: number | null;
  from_address: string | null;
  confirmations: number;
  failure_reason: string | null;
  failure_said: StoredSaid | null;
  note: string | null;
  check_attempts: number;
  next_check_at: Date | null;
  created_at: Date;
  processed_at: Date | null;
  processed_by: string | null;
  failure_kind: string | null;
  dismissed_at: Date | null;
  to_address: string | null;
  block_number: bigint | null;
  block_hash: string | null;
  u_first_name: string;
  u_last_name: string;
  u_email: string;
  k: string[];
}

function toDepositWithUser(r: RawDepositWithUser): { deposit: DepositRow; user: DepositUser } {
  return {
    deposit: {
      id: r.id,
      userId: r.user_id,
      amount: r.amount,
      status: r.status,
      type: r.type,
      txHash: r.tx_hash,
      logIndex: r.log_index === null ? null : Number(r.log_index),
      fromAddress: r.from_address,
      confirmations: Number(r.confirmations),
      failureReason: r.failure_reason,
      failureSaid: r.failure_said,
      note: r.note,
      checkAttempts: Number(r.check_attempts),
      nextCheckAt: r.next_check_at,
      createdAt: r.created_at,
      processedAt: r.processed_at,
      processedBy: r.processed_by,
      failureKind: r.failure_kind,
      dismissedAt: r.dismissed_at,
      toAddress: r.to_address,
      blockNumber: r.block_number,
      blockHash: r.block_hash,
    },
    user: { id: r.user_id, firstName: r.u_first_name, lastName: r.u_last_name, email: r.u_email },
  };
}

function depositWhereSql(f: DepositFilter): SQL {
  const parts: SQL[] = [sql`TRUE`];
  if (f.status !== 'all') parts.push(sql`d.status = ${f.status}`);
  if (f.userId) parts.push(sql`d.user_id = ${f.userId}::uuid`);
  return sql.join(parts, sql` AND `);
}

/** Newest first, with the depositor: one keyset page (docs/decisions/0036-keyset-paging.md). */
export async function depositsPage(db: Db, f: DepositFilter, page: PageRequest, total: number) {
  const res = await keysetPage<RawDepositWithUser>(
    db,
    {
      from: sql`deposits d`,
      where: depositWhereSql(f),
      key: [
        { expr: sql`d.created_at`, type: 'timestamptz' },
        { expr: sql`d.id`, type: 'uuid' },
      ],
      rows: sql`SELECT d.*, u.first_name AS u_first_name, u.last_name AS u_last_name, u.email AS u_email, pk.k
                FROM page_keys pk JOIN deposits d ON d.id = pk.k1 JOIN users u ON u.id = d.user_id ORDER BY pk.ord`,
    },
    page,
    total,
  );
  return { ...res, rows: res.rows.map(toDepositWithUser) };
}

/** Deposits per status, counted on the status index. */
export async function depositCounts(db: Db): Promise<DepositCounts> {
  const c = await statusCounts(db, 'deposits');
  const out = {
    all: 0,
    pending: c.get('pending') ?? 0,
    confirmed: c.get('confirmed') ?? 0,
    failed: c.get('failed') ?? 0,
  };
  out.all = out.pending + out.confirmed + out.failed;
  return out;
}

/** Rows a filter matches: the counters, or one user's deposits counted on their index. */
export async function countDeposits(db: Db, f: DepositFilter, counts?: DepositCounts): Promise<number> {
  if (!f.userId) return (counts ?? (await depositCounts(db)))[f.status];
  const [t] = await db
    .select({ n: count() })
    .from(deposits)
    .where(and(f.status === 'all' ? undefined : eq(deposits.status, f.status), eq(deposits.userId, f.userId)));
  return Number(t?.n ?? 0);
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
