import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { chainAlarms, onchainBalances, users } from '../../db/schema.ts';

export type BalanceKind = 'deposit' | 'shared' | 'payout' | 'treasury';

/**
 * What the platform owes each user (rows user_id, amount): the sum of their ledger accounts (balance, rewards,
 * earnings, invested, pending withdrawal). The one definition of liabilities: the solvency view sums it, and each
 * proof-of-reserves snapshot publishes it per user.
 */
export const USER_LIABILITIES = sql`SELECT user_id, sum(balance)::bigint AS amount FROM ledger_accounts
  WHERE user_id IS NOT NULL GROUP BY user_id`;

/** Everything users' accounts hold. */
export async function userLiabilities(db: Db): Promise<bigint> {
  const [row] = await rawRows<{ total: string }>(
    db,
    sql`SELECT coalesce(sum(amount), 0)::text AS total FROM (${USER_LIABILITIES}) l`,
  );
  return BigInt(row?.total ?? 0);
}

/** Per kind: the USDC last read on chain and when the oldest of those readings was taken. */
export async function onchainTotals(db: Db): Promise<{ kind: string; total: bigint; oldest: Date }[]> {
  const rows = await rawRows<{ kind: string; total: bigint; oldest: Date }>(
    db,
    sql`SELECT kind, SUM(balance)::bigint AS total, MIN(read_at) AS oldest FROM onchain_balances GROUP BY kind`,
  );
  return rows.map((r) => ({ kind: r.kind, total: r.total, oldest: r.oldest }));
}

/** Stores one reading (per address, replacing the previous one). */
export async function saveBalances(
  db: Db,
  rows: { address: string; kind: BalanceKind; balance: bigint }[],
  readAt: Date,
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    await db
      .insert(onchainBalances)
      .values(chunk.map((r) => ({ ...r, readAt })))
      .onConflictDoUpdate({
        target: onchainBalances.address,
        set: { kind: sql`excluded.kind`, balance: sql`excluded.balance`, readAt: sql`excluded.read_at` },
      });
  }
}

/** Chain alarms nobody has acknowledged yet, newest first. */
export async function openAlarms(db: Db) {
  return db
    .select()
    .from(chainAlarms)
    .where(isNull(chainAlarms.acknowledgedAt))
    .orderBy(desc(chainAlarms.createdAt))
    .limit(50);
}

/** Marks an open alarm acknowledged; undefined when there is no such open alarm. */
export async function acknowledgeAlarm(db: Db, id: string, by: string, at: Date) {
  const [row] = await db
    .update(chainAlarms)
    .set({ acknowledgedAt: at, acknowledgedBy: by })
    .where(and(eq(chainAlarms.id, id), isNull(chainAlarms.acknowledgedAt)))
    .returning();
  return row;
}

/** Whether a full reading of the platform's addresses has happened (the only other writer adds to one). */
export async function anyBalanceRead(db: Db): Promise<boolean> {
  const [row] = await db.select({ address: onchainBalances.address }).from(onchainBalances).limit(1);
  return row !== undefined;
}

/** Records an alarm for an operator, unless the same one is already open; true when it is new. */
export async function insertAlarm(
  db: Db,
  alarm: { kind: string; detail: string; blockNumber: bigint | null; at: Date },
): Promise<boolean> {
  const open = await db
    .select({ id: chainAlarms.id })
    .from(chainAlarms)
    .where(
      and(eq(chainAlarms.kind, alarm.kind), eq(chainAlarms.detail, alarm.detail), isNull(chainAlarms.acknowledgedAt)),
    )
    .limit(1);
  if (open.length > 0) return false;
  await db.insert(chainAlarms).values({
    kind: alarm.kind,
    detail: alarm.detail,
    blockNumber: alarm.blockNumber,
    createdAt: alarm.at,
  });
  return true;
}

/** Every administrator (they are told of chain alarms). */
export async function adminIds(db: Db): Promise<string[]> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true))).map((u) => u.id);
}
