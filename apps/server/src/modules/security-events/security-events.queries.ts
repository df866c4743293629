import { count, desc, eq, lt } from 'drizzle-orm';
import { englishOf, storedSaid, type Said } from '@harvest/shared/said';
import type { SecurityEventType } from '@harvest/shared/schemas/security';
import type { Db } from '../../db/client.ts';
import { securityEvents } from '../../db/schema.ts';

export interface NewSecurityEvent {
  userId: string;
  type: SecurityEventType;
  at: Date;
  ip?: string | null;
  device?: string | null;
  /** In words; a text with values keeps them too (docs/decisions/0084). */
  detail?: string | Said | null;
}

/** Appends one event to the account's security timeline, in the transaction of the change it records. */
export async function recordSecurityEvent(db: Db, e: NewSecurityEvent): Promise<void> {
  await db.insert(securityEvents).values({
    userId: e.userId,
    type: e.type,
    ip: e.ip ?? null,
    device: e.device ?? null,
    detail: e.detail ? englishOf(e.detail) : null,
    detailSaid: e.detail ? storedSaid(e.detail) : null,
    createdAt: e.at,
  });
}

/** One page of the account's events, newest first, and how many there are. */
export async function securityEventsPage(db: Db, userId: string, page: { page: number; pageSize: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(securityEvents)
      .where(eq(securityEvents.userId, userId))
      .orderBy(desc(securityEvents.createdAt), desc(securityEvents.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    db.select({ n: count() }).from(securityEvents).where(eq(securityEvents.userId, userId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Events older than `before` (housekeeping keeps a year). */
export async function purgeOldSecurityEvents(db: Db, before: Date): Promise<void> {
  await db.delete(securityEvents).where(lt(securityEvents.createdAt, before));
}
