import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recoveryCodes, users } from '../../db/schema.ts';

/**
 * Records an authenticator time step as used, only if it is newer than the last one (a conditional
 * update, so two parallel uses of one code cannot both pass). False when it was not newer.
 */
export async function markTotpStepUsed(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Every sealed authenticator seed (enrolled or being set up), for re-sealing after a secret rotation. */
export async function listSealedTotpSeeds(db: Db): Promise<{ id: string; totpSecret: string }[]> {
  const rows = await db
    .select({ id: users.id, totpSecret: users.totpSecret })
    .from(users)
    .where(isNotNull(users.totpSecret));
  return rows.flatMap((r) => (r.totpSecret ? [{ id: r.id, totpSecret: r.totpSecret }] : []));
}

/** Replaces a sealed seed only if it is still the one read (an enrolment in between wins). */
export async function replaceSealedTotpSeed(db: Db, userId: string, was: string, sealed: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpSecret: sealed })
    .where(and(eq(users.id, userId), eq(users.totpSecret, was)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Uses a recovery code once: false when it is unknown or already used. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

/** The user's recovery codes become exactly these (none when `codeHashes` is empty). */
export async function replaceRecoveryCodes(tx: Tx, userId: string, codeHashes: string[]): Promise<void> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (codeHashes.length > 0)
    await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}
