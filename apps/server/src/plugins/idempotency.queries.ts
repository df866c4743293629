import { and, eq, lt } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/** Forgets this user's key if it expired, so it can be used afresh. */
export async function deleteExpiredKey(db: Db, userId: string, key: string, now: Date): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), lt(idempotencyKeys.expiresAt, now)));
}

/** Claims a key as `running`; false when the user already holds it (the unique key decides, not a look-up). */
export async function insertRunningKey(
  db: Db,
  v: { userId: string; key: string; route: string; requestHash: string; now: Date; expiresAt: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values({
      userId: v.userId,
      key: v.key,
      route: v.route,
      requestHash: v.requestHash,
      status: 'running',
      createdAt: v.now,
      expiresAt: v.expiresAt,
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length > 0;
}

export async function findKey(db: Db, userId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row;
}

/** Takes over a `running` key whose lease ran out (its process died before committing); false if none. */
export async function takeOverStaleKey(
  db: Db,
  userId: string,
  key: string,
  now: Date,
  leaseMs: number,
): Promise<boolean> {
  const taken = await db
    .update(idempotencyKeys)
    .set({ createdAt: now })
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.status, 'running'),
        lt(idempotencyKeys.createdAt, new Date(now.getTime() - leaseMs)),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return taken.length > 0;
}

/** Marks the key `committed` inside the business transaction; false if it is no longer `running`. */
export async function markKeyCommitted(tx: Tx, userId: string, key: string): Promise<boolean> {
  const rows = await tx
    .update(idempotencyKeys)
    .set({ status: 'committed' })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.status, 'running')))
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** Frees a key whose request failed before committing anything. */
export async function deleteRunningKey(db: Db, userId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.status, 'running')),
    );
}

/** Stores the answer a retry with this key replays. */
export async function storeAnswer(db: Db, userId: string, key: string, status: number, body: unknown): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: 'done', responseStatus: status, responseBody: body })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/** Removes expired keys (run by a background job). */
export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now));
}
