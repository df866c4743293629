import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { chainCursors, depositAddresses } from '../../db/schema.ts';

export type DepositAddressRow = typeof depositAddresses.$inferSelect;

export async function findAddressOf(db: Db, userId: string): Promise<DepositAddressRow | undefined> {
  const [row] = await db.select().from(depositAddresses).where(eq(depositAddresses.userId, userId)).limit(1);
  return row;
}

/** The next investor number: a sequence, so a number is never handed out twice (even after a rollback). */
export async function nextChildIndex(db: Db): Promise<number> {
  const [row] = await rawRows<{ k: string }>(db, sql`SELECT nextval('deposit_address_seq')::text AS k`);
  if (!row) throw new Error('deposit_address_seq gave nothing');
  return Number(row.k);
}

/** Inserts the user's address unless they already have one (a racing request won): undefined then. */
export async function insertAddress(
  db: Db,
  values: typeof depositAddresses.$inferInsert & { createdAt: Date },
): Promise<DepositAddressRow | undefined> {
  const [row] = await db.insert(depositAddresses).values(values).onConflictDoNothing().returning();
  return row;
}

/**
 * The owners of those addresses (lowercase hex) among investors' deposit addresses. One text parameter
 * split in the database (`= ANY(...)` on the unique index): a range of a busy chain has tens of thousands
 * of recipients, past the 65,535 bind parameters of one statement and slow to bind one by one.
 */
export async function ownersOf(db: Db, addresses: string[]): Promise<DepositAddressRow[]> {
  // Only addresses can match (and none holds the separator).
  const list = addresses.map((a) => a.toLowerCase()).filter((a) => /^0x[0-9a-f]{40}$/.test(a));
  if (list.length === 0) return [];
  return db
    .select()
    .from(depositAddresses)
    .where(sql`${depositAddresses.address} = ANY(string_to_array(${list.join(',')}, ','))`);
}

export async function allAddresses(db: Db): Promise<{ address: string; childIndex: number; userId: string }[]> {
  return db
    .select({
      address: depositAddresses.address,
      childIndex: depositAddresses.childIndex,
      userId: depositAddresses.userId,
    })
    .from(depositAddresses)
    .orderBy(depositAddresses.childIndex);
}

/** The watcher's next block, if it has started: a new address counts transfers from there on. */
export async function watcherNextBlock(db: Db, name: string): Promise<bigint | null> {
  const [row] = await db
    .select({ n: chainCursors.blockNumber })
    .from(chainCursors)
    .where(eq(chainCursors.name, name))
    .limit(1);
  return row ? row.n + 1n : null;
}
