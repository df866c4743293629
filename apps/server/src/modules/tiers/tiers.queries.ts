import { asc, eq, and, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { tiers } from '../../db/schema.ts';

export type TierRow = typeof tiers.$inferSelect;

/** Active tiers in display order (sort order, then amount). */
export async function listActiveTiers(db: Db): Promise<TierRow[]> {
  return db
    .select()
    .from(tiers)
    .where(eq(tiers.active, true))
    .orderBy(asc(tiers.sortOrder), asc(tiers.amount), asc(tiers.createdAt));
}

/** The active tier whose amount equals this one (the first in display order if several do). */
export async function findActiveTierByAmount(db: Db, amount: bigint): Promise<TierRow | undefined> {
  const [row] = await db
    .select()
    .from(tiers)
    .where(and(eq(tiers.active, true), eq(tiers.amount, amount)))
    .orderBy(asc(tiers.sortOrder), asc(tiers.createdAt))
    .limit(1);
  return row;
}

export async function countTiers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(tiers);
  return Number(row?.n ?? 0);
}

export async function insertTiers(db: Db, rows: (typeof tiers.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(tiers).values(rows);
}

/** Locks the tiers table against other writers until the transaction ends (seeding once across instances). */
export async function lockTiers(tx: Tx): Promise<void> {
  await tx.execute(sql`LOCK TABLE tiers IN SHARE ROW EXCLUSIVE MODE`);
}
