import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

export async function staffMembers(db: Db) {
  return db.select().from(users).where(eq(users.isAdmin, true)).orderBy(asc(users.createdAt), asc(users.id));
}

/** Owners other than `exceptId`, counted under the caller's lock of every owner row (no two demotions pass at once). */
export async function otherOwners(db: Db, exceptId: string): Promise<number> {
  const locked = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'owner'), ne(users.id, exceptId)))
    .for('update');
  return locked.length;
}

export async function ownerCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, 'owner'));
  return row?.n ?? 0;
}
