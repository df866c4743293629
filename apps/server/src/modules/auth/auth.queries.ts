import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailCodes } from '../../db/schema.ts';

export async function findEmailCode(db: Db, email: string) {
  const [row] = await db.select().from(emailCodes).where(eq(emailCodes.email, email)).limit(1);
  return row;
}

/**
 * Stores a new code unless one was sent less than `resendAfter` ago; returns false when
 * the resend wait is not over. One statement, so parallel requests cannot both send.
 */
export async function upsertEmailCode(
  db: Db,
  email: string,
  codeHash: string,
  now: Date,
  expiresAt: Date,
  resendAfter: Date,
): Promise<boolean> {
  const rows = await db
    .insert(emailCodes)
    .values({ email, codeHash, sentAt: now, expiresAt, attempts: 0 })
    .onConflictDoUpdate({
      target: emailCodes.email,
      set: { codeHash, sentAt: now, expiresAt, attempts: 0 },
      setWhere: lt(emailCodes.sentAt, resendAfter),
    })
    .returning({ email: emailCodes.email });
  return rows.length > 0;
}

/** Counts one wrong try atomically; returns the tries now used, or null if the code is gone or used up. */
export async function countWrongTry(db: Db, email: string, maxTries: number): Promise<number | null> {
  const [row] = await db
    .update(emailCodes)
    .set({ attempts: sql`${emailCodes.attempts} + 1` })
    .where(and(eq(emailCodes.email, email), lt(emailCodes.attempts, maxTries)))
    .returning({ attempts: emailCodes.attempts });
  return row?.attempts ?? null;
}

/** Consumes the code if it is still the same one: a code signs up exactly one account. */
export async function consumeEmailCode(db: Db, email: string, codeHash: string, maxTries: number): Promise<boolean> {
  const rows = await db
    .delete(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.codeHash, codeHash), lt(emailCodes.attempts, maxTries)))
    .returning({ email: emailCodes.email });
  return rows.length > 0;
}
