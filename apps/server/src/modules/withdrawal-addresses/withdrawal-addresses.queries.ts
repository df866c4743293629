import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountLinks, users, withdrawalAddresses } from '../../db/schema.ts';

export type AddressRow = typeof withdrawalAddresses.$inferSelect;

const live = (userId: string) => and(eq(withdrawalAddresses.userId, userId), isNull(withdrawalAddresses.removedAt));

export async function insertAddress(db: Db, row: typeof withdrawalAddresses.$inferInsert): Promise<AddressRow> {
  const [r] = await db.insert(withdrawalAddresses).values(row).returning();
  if (!r) throw new Error('address not inserted');
  return r;
}

export async function countLive(db: Db, userId: string): Promise<number> {
  const [r] = await db.select({ n: count() }).from(withdrawalAddresses).where(live(userId));
  return r?.n ?? 0;
}

/** One page of the user's book (removed ones left out), newest first, and its size. */
export async function liveAddressesPage(db: Db, userId: string, page: { page: number; pageSize: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(withdrawalAddresses)
      .where(live(userId))
      .orderBy(desc(withdrawalAddresses.createdAt), desc(withdrawalAddresses.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    db.select({ n: count() }).from(withdrawalAddresses).where(live(userId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** One page of every address the user ever saved, removed ones included: the back office's view. */
export async function allAddressesPage(db: Db, userId: string, page: { page: number; pageSize: number }) {
  const mine = eq(withdrawalAddresses.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(withdrawalAddresses)
      .where(mine)
      .orderBy(desc(withdrawalAddresses.createdAt), desc(withdrawalAddresses.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    db.select({ n: count() }).from(withdrawalAddresses).where(mine),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** One of the user's addresses by id, removed or not. */
export async function findAddress(db: Db, userId: string, id: string): Promise<AddressRow | undefined> {
  const [r] = await db
    .select()
    .from(withdrawalAddresses)
    .where(and(eq(withdrawalAddresses.id, id), eq(withdrawalAddresses.userId, userId)))
    .limit(1);
  return r;
}

/** Confirms a live, unconfirmed address; false when it was removed (or confirmed) meanwhile. */
export async function confirmAddress(db: Db, id: string, now: Date): Promise<AddressRow | undefined> {
  const [r] = await db
    .update(withdrawalAddresses)
    .set({ confirmedAt: now })
    .where(
      and(
        eq(withdrawalAddresses.id, id),
        isNull(withdrawalAddresses.removedAt),
        isNull(withdrawalAddresses.confirmedAt),
      ),
    )
    .returning();
  return r;
}

/** Removes a live address of the user at once; undefined when there is none (not theirs, already removed). */
export async function removeAddress(db: Db, userId: string, id: string, now: Date): Promise<AddressRow | undefined> {
  const [r] = await db
    .update(withdrawalAddresses)
    .set({ removedAt: now })
    .where(and(eq(withdrawalAddresses.id, id), live(userId)))
    .returning();
  return r;
}

/**
 * The live book entry for `address`, share-locked until the Withdraw All transaction ends: a removal waits for it,
 * or (first) makes it miss the entry. Undefined when the address is not in the book.
 */
export async function lockBookEntry(db: Db, userId: string, address: string): Promise<AddressRow | undefined> {
  const [r] = await db
    .select()
    .from(withdrawalAddresses)
    .where(and(live(userId), eq(withdrawalAddresses.address, address)))
    .for('share')
    .limit(1);
  return r;
}

/**
 * The user's withdrawal settings, the row locked until the transaction ends: a freeze ("this wasn't me", an
 * administrator) or a lock change in parallel waits for a Withdraw All, or that Withdraw All sees it.
 */
export async function lockWithdrawalGate(db: Db, userId: string) {
  const [r] = await db
    .select({
      withdrawalsFrozen: users.withdrawalsFrozen,
      withdrawalLock: users.withdrawalLock,
      withdrawalLockEndsAt: users.withdrawalLockEndsAt,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update')
    .limit(1);
  return r;
}

export async function setLock(db: Db, userId: string, on: boolean, endsAt: Date | null): Promise<void> {
  await db.update(users).set({ withdrawalLock: on, withdrawalLockEndsAt: endsAt }).where(eq(users.id, userId));
}

/** Unused lock-off confirmations of the user are void (the lock was turned on again, or reported). */
export async function voidLockOffLinks(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(accountLinks)
    .set({ usedAt: now })
    .where(
      and(eq(accountLinks.userId, userId), eq(accountLinks.kind, 'confirm_lock_off'), isNull(accountLinks.usedAt)),
    );
}

/** The live book entry for `address`, read without a lock (Withdraw All's early answer). */
export async function findBookEntry(db: Db, userId: string, address: string): Promise<AddressRow | undefined> {
  const [r] = await db
    .select()
    .from(withdrawalAddresses)
    .where(and(live(userId), eq(withdrawalAddresses.address, address)))
    .limit(1);
  return r;
}
