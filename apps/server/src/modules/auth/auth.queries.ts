import { and, desc, eq, gt, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailCodes, emailVerifications } from '../../db/schema.ts';

export async function findVerification(db: Db, email: string) {
  const [row] = await db.select().from(emailVerifications).where(eq(emailVerifications.email, email)).limit(1);
  return row;
}

/**
 * Takes the address's send slot: none sent within `resendAfter`, and not locked. One
 * statement, so parallel requests cannot both send. Returns false when refused.
 */
export async function claimSend(db: Db, email: string, now: Date, resendAfter: Date): Promise<boolean> {
  const rows = await db
    .insert(emailVerifications)
    .values({ email, lastSentAt: now })
    .onConflictDoUpdate({
      target: emailVerifications.email,
      set: { lastSentAt: now },
      setWhere: and(
        or(isNull(emailVerifications.lastSentAt), lt(emailVerifications.lastSentAt, resendAfter)),
        or(isNull(emailVerifications.lockedUntil), lte(emailVerifications.lockedUntil, now)),
      ),
    })
    .returning({ email: emailVerifications.email });
  return rows.length > 0;
}

/** Stores a new code and drops the address's expired codes and all but its newest `keep`. */
export async function insertCode(
  tx: Db,
  v: { email: string; codeHash: string; sentAt: Date; expiresAt: Date },
  keep: number,
): Promise<void> {
  await tx.insert(emailCodes).values(v);
  const newest = tx
    .select({ id: emailCodes.id })
    .from(emailCodes)
    .where(and(eq(emailCodes.email, v.email), gt(emailCodes.expiresAt, v.sentAt)))
    .orderBy(desc(emailCodes.id))
    .limit(keep);
  await tx.delete(emailCodes).where(and(eq(emailCodes.email, v.email), notInArray(emailCodes.id, newest)));
}

/**
 * Counts one try at the address's codes before any is compared, in one statement: refused
 * (null) while the address is locked or has no code row. A window of `windowMs` opens at the
 * first try; the `maxTries`-th try in it locks the address for `lockMs`. Parallel tries queue
 * on the row, so however many arrive at once, at most `maxTries` are compared.
 */
export async function reserveCodeTry(
  db: Db,
  email: string,
  now: Date,
  opts: { windowMs: number; maxTries: number; lockMs: number },
): Promise<number | null> {
  const v = emailVerifications;
  const fresh = sql`(${v.windowStart} IS NULL OR ${v.windowStart} <= ${new Date(now.getTime() - opts.windowMs)})`;
  const tries = sql`CASE WHEN ${fresh} THEN 1 ELSE ${v.wrongTries} + 1 END`;
  const [row] = await db
    .update(v)
    .set({
      wrongTries: tries,
      windowStart: sql`CASE WHEN ${fresh} THEN ${now}::timestamptz ELSE ${v.windowStart} END`,
      lockedUntil: sql`CASE WHEN ${tries} >= ${opts.maxTries} THEN ${new Date(now.getTime() + opts.lockMs)}::timestamptz ELSE NULL END`,
    })
    .where(and(eq(v.email, email), or(isNull(v.lockedUntil), lte(v.lockedUntil, now))))
    .returning({ tries: v.wrongTries });
  return row?.tries ?? null;
}

export async function liveCodes(db: Db, email: string, now: Date) {
  return db
    .select({ id: emailCodes.id, codeHash: emailCodes.codeHash })
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), gt(emailCodes.expiresAt, now)));
}

/**
 * Uses the code: the address's codes and its counters go (the address now has an account).
 * False if another request used it first: a code signs up exactly one account.
 */
export async function consumeCode(tx: Db, email: string, codeId: number): Promise<boolean> {
  const used = await tx
    .delete(emailCodes)
    .where(and(eq(emailCodes.email, email), inArray(emailCodes.id, [codeId])))
    .returning({ id: emailCodes.id });
  if (used.length === 0) return false;
  await tx.delete(emailCodes).where(eq(emailCodes.email, email));
  await tx.delete(emailVerifications).where(eq(emailVerifications.email, email));
  return true;
}

/** Addresses with nothing sent for a day and no lock running (run by the housekeeping job). */
export async function purgeStaleVerifications(db: Db, sentBefore: Date): Promise<void> {
  const v = emailVerifications;
  await db
    .delete(v)
    .where(
      and(
        or(isNull(v.lastSentAt), lt(v.lastSentAt, sentBefore)),
        or(isNull(v.lockedUntil), lt(v.lockedUntil, sentBefore)),
      ),
    );
}
