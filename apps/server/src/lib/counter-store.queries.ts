import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { throttleCounters } from '../db/schema.ts';

/**
 * Counts one in the key's window and answers the count after it, in one statement: a new key
 * or an expired window starts at 1, an open window adds 1. Parallel hits on one key queue on
 * its row (ON CONFLICT DO UPDATE locks it), so every caller sees a distinct count.
 */
export async function hitCounter(db: Db, key: string, now: Date, resetAt: Date) {
  const expired = sql`${throttleCounters.resetAt} <= ${now}`;
  const [row] = await db
    .insert(throttleCounters)
    .values({ key, count: 1, resetAt })
    .onConflictDoUpdate({
      target: throttleCounters.key,
      set: {
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${throttleCounters.count} + 1 END`,
        resetAt: sql`CASE WHEN ${expired} THEN excluded.reset_at ELSE ${throttleCounters.resetAt} END`,
      },
    })
    .returning({ count: throttleCounters.count, resetAt: throttleCounters.resetAt });
  if (!row) throw new Error('throttle counter upsert returned no row');
  return row;
}

export async function releaseCounter(db: Db, key: string, now: Date): Promise<void> {
  await db
    .update(throttleCounters)
    .set({ count: sql`${throttleCounters.count} - 1` })
    .where(and(eq(throttleCounters.key, key), gt(throttleCounters.count, 0), gt(throttleCounters.resetAt, now)));
}

export async function peekCounter(db: Db, key: string, now: Date) {
  const [row] = await db
    .select({ count: throttleCounters.count, resetAt: throttleCounters.resetAt })
    .from(throttleCounters)
    .where(and(eq(throttleCounters.key, key), gt(throttleCounters.resetAt, now)))
    .limit(1);
  return row;
}

export async function markCounter(db: Db, key: string, resetAt: Date): Promise<void> {
  await db
    .insert(throttleCounters)
    .values({ key, count: 1, resetAt })
    .onConflictDoUpdate({ target: throttleCounters.key, set: { count: 1, resetAt } });
}

export async function deleteCounter(db: Db, key: string): Promise<void> {
  await db.delete(throttleCounters).where(eq(throttleCounters.key, key));
}

/** Drops closed windows (run by the housekeeping job). */
export async function purgeExpiredCounters(db: Db, now: Date): Promise<void> {
  await db.delete(throttleCounters).where(lte(throttleCounters.resetAt, now));
}
