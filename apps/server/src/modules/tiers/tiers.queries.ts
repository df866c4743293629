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

/** The active tiers whose amount equals this one (two are enough to know the amount is ambiguous). */
export async function findActiveTiersByAmount(db: Db | Tx, amount: bigint): Promise<TierRow[]> {
  return db
    .select()
    .from(tiers)
    .where(and(eq(tiers.active, true), eq(tiers.amount, amount)))
    .orderBy(asc(tiers.sortOrder), asc(tiers.createdAt))
    .limit(2);
}

/** A tier by id, share-locked until the buying transaction ends: an edit of it waits, or came first. */
export async function lockTierForInvest(tx: Tx, id: string): Promise<TierRow | undefined> {
  const [row] = await tx.select().from(tiers).where(eq(tiers.id, id)).for('share');
  return row;
}

export async function countTiers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(tiers);
  return Number(row?.n ?? 0);
}

export async function insertTiers(
  db: Db,
  rows: (typeof tiers.$inferInsert & { createdAt: Date; updatedAt: Date })[],
): Promise<void> {
  if (rows.length > 0) await db.insert(tiers).values(rows);
}

/** Locks the tiers table against other writers until the transaction ends (seeding once across instances). */
export async function lockTiers(tx: Tx): Promise<void> {
  await tx.execute(sql`LOCK TABLE tiers IN SHARE ROW EXCLUSIVE MODE`);
}
