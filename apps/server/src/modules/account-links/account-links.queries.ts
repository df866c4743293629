import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountLinks } from '../../db/schema.ts';

export type AccountLinkRow = typeof accountLinks.$inferSelect;
export type LinkKind = 'confirm_address' | 'confirm_lock_off' | 'not_me' | 'staff_invite';

export async function insertLink(db: Db, row: typeof accountLinks.$inferInsert): Promise<void> {
  await db.insert(accountLinks).values(row);
}

export async function findLink(db: Db, kind: LinkKind, tokenHash: string): Promise<AccountLinkRow | undefined> {
  const [row] = await db
    .select()
    .from(accountLinks)
    .where(and(eq(accountLinks.tokenHash, tokenHash), eq(accountLinks.kind, kind)))
    .limit(1);
  return row;
}

/** Uses the link once: false when it was used (by a parallel request too) or has expired. */
export async function useLink(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(accountLinks)
    .set({ usedAt: now })
    .where(and(eq(accountLinks.id, id), isNull(accountLinks.usedAt), gt(accountLinks.expiresAt, now)))
    .returning({ id: accountLinks.id });
  return rows.length > 0;
}

/** Links that expired before `before` (housekeeping). */
export async function purgeExpiredLinks(db: Db, before: Date): Promise<void> {
  await db.delete(accountLinks).where(lt(accountLinks.expiresAt, before));
}
