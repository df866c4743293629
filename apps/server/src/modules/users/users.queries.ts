import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { oncePerDb } from '../../db/raw.ts';
import { users } from '../../db/schema.ts';

/**
 * The session's user read on every authenticated request: built once per database handle and
 * prepared (a named statement on PostgreSQL), so no query is assembled per request.
 */
const byIdStatement = oncePerDb((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('hf_user_by_id'),
);

export async function findUserById(db: Db, id: string) {
  const [u] = await byIdStatement(db).execute({ id });
  return u;
}

const sessionUser = alias(users, 'u');

const prepareWith = (db: Db, extra: SQL, name: string) =>
  db
    .select({ user: sessionUser, extra: sql<unknown>`${extra}` })
    .from(sessionUser)
    .where(eq(sessionUser.id, sql.placeholder('id')))
    .limit(1)
    .prepare(name);
const withStatements = oncePerDb(() => new Map<SQL, ReturnType<typeof prepareWith>>());

/**
 * The user row and, in the same statement, `extra`: SQL over that row (aliased `u`), e.g. a
 * screen's data. One round trip for an authenticated read (plugins/auth.ts, requireUserReading),
 * prepared once per database handle and screen.
 */
export async function findUserWith(db: Db, id: string, extra: SQL, name: string) {
  const byExtra = withStatements(db);
  let statement = byExtra.get(extra);
  if (!statement) {
    statement = prepareWith(db, extra, name);
    byExtra.set(extra, statement);
  }
  const [r] = await statement.execute({ id });
  return r;
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

export async function insertUser(db: Db, values: typeof users.$inferInsert) {
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
