import { and, count, desc, eq, gt, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { oncePerDb } from '../../db/raw.ts';
import { sessions, userDevices, users } from '../../db/schema.ts';

export type SessionRow = typeof sessions.$inferSelect;

/**
 * The request's user and session in one round trip, prepared (every authenticated request runs it): two
 * primary-key reads (the user's row, its session row by the token's `sid`), plus `screen`, a column a polled
 * route reads in the same statement (its data, for the user `users.id` of the row), so that its poll is one round
 * trip. `session` is null when the id is not a session of this user.
 */
function sessionUserStatement(name: string, screen: SQL<unknown>) {
  return oncePerDb((db) =>
    db
      .select({
        user: users,
        revokedAt: sessions.revokedAt,
        expiresAt: sessions.expiresAt,
        lastSeenAt: sessions.lastSeenAt,
        device: sessions.device,
        screen,
      })
      .from(users)
      .leftJoin(sessions, and(eq(sessions.id, sql.placeholder('sessionId')), eq(sessions.userId, users.id)))
      .where(eq(users.id, sql.placeholder('userId')))
      .limit(1)
      .prepare(name),
  );
}

export type SessionRead = ReturnType<typeof sessionRead>;

/** A reader of the session's user and row, with `screen` read alongside (null: nothing more). */
export function sessionRead(name: string, screen: SQL<unknown> = sql`null`) {
  const statement = sessionUserStatement(name, screen);
  return async (db: Db, userId: string, sessionId: string) => {
    const [row] = await statement(db).execute({ userId, sessionId });
    if (!row) return undefined;
    const { user, revokedAt, expiresAt, lastSeenAt, device } = row;
    const session = lastSeenAt && device && expiresAt ? { revokedAt, expiresAt, lastSeenAt, device } : null;
    return { user, session, screen: row.screen };
  };
}

export const findSessionUser = sessionRead('hf_session_user');

/** Moves last-seen forward only if it is older than `staleBefore`: at most one write a minute per session. */
export async function touchSession(db: Db, sessionId: string, now: Date, staleBefore: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, staleBefore)));
}

export async function insertSession(db: Db, row: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(row);
}

export async function findSession(db: Db, userId: string, sessionId: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .limit(1);
  return row;
}

/** A reissued token lives longer: its session's expiry follows. */
export async function extendSession(db: Db, sessionId: string, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, sessionId));
}

/**
 * Ends one live session of the user; false when it was not live (already ended, expired, not theirs). Its own
 * sign-out (`own`) also ends its life, so its token reads as over rather than as signed out from elsewhere.
 */
export async function revokeSession(
  db: Db,
  userId: string,
  sessionId: string,
  now: Date,
  own = false,
): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set(own ? { revokedAt: now, expiresAt: now } : { revokedAt: now })
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    )
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Ends every live session of the user but `except`; answers how many it ended. */
export async function revokeSessions(db: Db, userId: string, now: Date, except?: string): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        except ? ne(sessions.id, except) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}

const live = (userId: string, now: Date) =>
  and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now));

/** One page of the user's live sessions, newest first, and how many there are. */
export async function liveSessionsPage(db: Db, userId: string, now: Date, page: { page: number; pageSize: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(sessions)
      .where(live(userId, now))
      .orderBy(desc(sessions.createdAt), desc(sessions.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    db.select({ n: count() }).from(sessions).where(live(userId, now)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** One page of every session the user had (live, signed out, expired), newest first: the back office's view. */
export async function allSessionsPage(db: Db, userId: string, page: { page: number; pageSize: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.createdAt), desc(sessions.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Records the device for the account; true when it had not been seen before (one statement: parallel sign-ins agree). */
export async function rememberDevice(db: Db, userId: string, deviceKey: string, now: Date): Promise<boolean> {
  const rows = await db
    .insert(userDevices)
    .values({ userId, deviceKey, firstSeenAt: now })
    .onConflictDoNothing()
    .returning({ key: userDevices.deviceKey });
  return rows.length > 0;
}

/** Whether the account has any device on record (accounts from before sessions existed have none). */
export async function hasDevices(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(userDevices)
    .where(eq(userDevices.userId, userId))
    .limit(1);
  return Boolean(row);
}

/** Forgets a device ("this wasn't me" about its sign-in): its next sign-in alerts again. */
export async function forgetDevice(db: Db, userId: string, deviceKey: string): Promise<void> {
  await db.delete(userDevices).where(and(eq(userDevices.userId, userId), eq(userDevices.deviceKey, deviceKey)));
}

/** Sessions that ended more than `before` ago (expired or signed out): removed by housekeeping. */
export async function purgeEndedSessions(db: Db, before: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, before));
}
