import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { tiers } from '../../db/schema.ts';

export type TierRow = typeof tiers.$inferSelect;

/** Every tier, inactive ones included, in display order. */
export function allTiers(db: Db): Promise<TierRow[]> {
  return db.select().from(tiers).orderBy(asc(tiers.sortOrder), asc(tiers.amount), asc(tiers.createdAt));
}

export async function tierById(db: Db, id: string): Promise<TierRow | undefined> {
  const [t] = await db.select().from(tiers).where(eq(tiers.id, id)).limit(1);
  return t;
}

export async function lockTier(db: Db, id: string): Promise<TierRow | undefined> {
  const [t] = await db.select().from(tiers).where(eq(tiers.id, id)).for('update').limit(1);
  return t;
}

export async function insertTier(
  db: Db,
  values: typeof tiers.$inferInsert & { createdAt: Date; updatedAt: Date },
): Promise<TierRow> {
  const [t] = await db.insert(tiers).values(values).returning();
  if (!t) throw new Error('tier not inserted');
  return t;
}

export async function updateTier(
  db: Db,
  id: string,
  values: Partial<typeof tiers.$inferInsert>,
): Promise<TierRow | undefined> {
  const [t] = await db.update(tiers).set(values).where(eq(tiers.id, id)).returning();
  return t;
}

/**
 * Another active tier of this amount, after waiting for any other tier change to commit: the lock serialises them,
 * so two administrators cannot both add the same amount.
 */
export async function activeTierWithAmount(db: Db, amount: bigint, exceptId?: string): Promise<TierRow | undefined> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(7261003)`);
  const [t] = await db
    .select()
    .from(tiers)
    .where(
      and(
        eq(tiers.active, true),
        eq(tiers.amount, amount),
        exceptId === undefined ? undefined : ne(tiers.id, exceptId),
      ),
    )
    .limit(1);
  return t;
}
