import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

export async function findUserById(db: Db, id: string) {
  const [u] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return u;
}

export async function findUserByEmail(db: Db, email: string) {
  const [u] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return u;
}

export async function findUserByInvitationCode(db: Db, code: string) {
  const [u] = await db.select().from(users).where(eq(users.invitationCode, code)).limit(1);
  return u;
}

export async function lockUser(db: Db, id: string) {
  const [u] = await db.select().from(users).where(eq(users.id, id)).for('update').limit(1);
  return u;
}

/**
 * These users' rows as committed, share-locked until the transaction ends (in id order): a role change of any of
 * them waits, so a decision taken on a staff member's role cannot race the role's change.
 */
export async function lockUsersShared(db: Db, ids: string[]) {
  const rows = await db.select().from(users).where(inArray(users.id, ids)).orderBy(users.id).for('share');
  return new Map(rows.map((r) => [r.id, r]));
}

export async function insertUser(db: Db, values: typeof users.$inferInsert & { createdAt: Date }) {
  const [u] = await db.insert(users).values(values).returning();
  if (!u) throw new Error('user not inserted');
  return u;
}

export async function updateUser(db: Db, id: string, values: Partial<typeof users.$inferInsert>) {
  const [u] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return u;
}

/** Ends every token issued so far (logout, password change, block). */
export async function bumpTokenVersion(db: Db, id: string) {
  const [u] = await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, id))
    .returning();
  return u;
}

/** Sets the invitation code only if the user has none yet (stable, reusable code). */
export async function setInvitationCodeIfMissing(db: Db, id: string, code: string) {
  const [u] = await db
    .update(users)
    .set({ invitationCode: code })
    .where(and(eq(users.id, id), isNull(users.invitationCode)))
    .returning();
  return u;
}

export async function countAdmins(db: Db): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.isAdmin, true));
  return r?.n ?? 0;
}
