import { and, asc, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { challenges, passkeys } from '../../db/schema.ts';

export type PasskeyRow = typeof passkeys.$inferSelect;

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export async function countPasskeys(db: Db, userId: string): Promise<number> {
  const [r] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return r?.n ?? 0;
}

export async function findByCredentialId(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
  return row;
}

export async function insertPasskey(db: Db, row: typeof passkeys.$inferInsert): Promise<PasskeyRow | undefined> {
  const [made] = await db.insert(passkeys).values(row).onConflictDoNothing().returning();
  return made;
}

/** Every passkey of the account, removed ("this wasn't me": a thief's passkey would sign them in again). */
export async function deleteAllPasskeys(db: Db, userId: string): Promise<number> {
  return (await db.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id })).length;
}

export async function deletePasskey(db: Db, userId: string, id: string): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .delete(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning();
  return row;
}

/** A use: the authenticator's new counter (it never goes back) and when. */
export async function markUsed(db: Db, id: string, counter: number, at: Date): Promise<void> {
  await db
    .update(passkeys)
    .set({ counter: sql`GREATEST(${passkeys.counter}, ${counter})`, lastUsedAt: at })
    .where(eq(passkeys.id, id));
}

export async function insertChallenge(db: Db, row: typeof challenges.$inferInsert): Promise<void> {
  await db.insert(challenges).values(row);
}

/**
 * Uses a challenge: deleted only when it is live and was issued for this user, purpose and payload, so one statement
 * decides it and a second use (or a use for something else) finds nothing.
 */
export async function takeChallenge(
  db: Db,
  c: { challenge: string; userId: string | null; purpose: string; payloadHash: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .delete(challenges)
    .where(
      and(
        eq(challenges.challenge, c.challenge),
        c.userId === null ? sql`${challenges.userId} IS NULL` : eq(challenges.userId, c.userId),
        eq(challenges.purpose, c.purpose),
        eq(challenges.payloadHash, c.payloadHash),
        gt(challenges.expiresAt, c.now),
      ),
    )
    .returning({ challenge: challenges.challenge });
  return rows.length > 0;
}

/** Expired challenges (run by the housekeeping job). */
export async function purgeExpiredChallenges(db: Db, now: Date): Promise<void> {
  await db.delete(challenges).where(lt(challenges.expiresAt, now));
}
