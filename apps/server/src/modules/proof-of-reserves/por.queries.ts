import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { porNodes, porReserves, porSnapshots } from '../../db/schema.ts';
import { USER_LIABILITIES } from '../solvency/solvency.queries.ts';

export type SnapshotRow = typeof porSnapshots.$inferSelect;
export type ReserveRow = typeof porReserves.$inferSelect;

export async function insertSnapshot(db: Db, row: typeof porSnapshots.$inferInsert): Promise<void> {
  await db.insert(porSnapshots).values(row);
}

/**
 * The snapshot's one consistent read, in one statement: every user's liability becomes a leaf (in user id order),
 * and the ledger chain's head is read with it. Returns the number of leaves, how many are investors' (not staff),
 * their total and that head.
 */
export async function insertLeaves(
  db: Db,
  snapshotId: string,
): Promise<{ leaves: number; investors: number; total: bigint; headId: number | null; headHash: string | null }> {
  const [row] = await rawRows<{
    leaves: number;
    investors: number;
    total: string;
    head_id: string | null;
    head_hash: string | null;
  }>(
    db,
    sql`WITH ins AS (
          INSERT INTO por_leaves (snapshot_id, idx, user_id, amount)
          SELECT ${snapshotId}::uuid, (row_number() OVER (ORDER BY user_id) - 1)::int, user_id, amount
          FROM (${USER_LIABILITIES}) l RETURNING user_id, amount)
        SELECT (SELECT count(*) FROM ins)::int AS leaves, (SELECT coalesce(sum(amount), 0) FROM ins)::text AS total,
          (SELECT count(*) FROM ins JOIN users u ON u.id = ins.user_id WHERE NOT u.is_admin)::int AS investors,
          (SELECT nullif(head_id, 0)::text FROM ledger_chain_state WHERE id = 1) AS head_id,
          (SELECT head_hash FROM ledger_chain_state WHERE id = 1 AND head_id > 0) AS head_hash`,
  );
  return {
    leaves: row?.leaves ?? 0,
    investors: row?.investors ?? 0,
    total: BigInt(row?.total ?? 0),
    headId: row?.head_id ? Number(row.head_id) : null,
    headHash: row?.head_hash ?? null,
  };
}

/** Leaves from..to-1 in tree order. */
export async function leavesBetween(
  db: Db,
  snapshotId: string,
  from: number,
  to: number,
): Promise<{ userId: string; amount: bigint }[]> {
  const rows = await rawRows<{ user_id: string; amount: string }>(
    db,
    sql`SELECT user_id::text, amount::text FROM por_leaves WHERE snapshot_id = ${snapshotId}::uuid
        AND idx >= ${from} AND idx < ${to} ORDER BY idx`,
  );
  return rows.map((r) => ({ userId: r.user_id, amount: BigInt(r.amount) }));
}

export async function leafOf(db: Db, snapshotId: string, userId: string): Promise<{ idx: number } | undefined> {
  const [row] = await rawRows<{ idx: number }>(
    db,
    sql`SELECT idx FROM por_leaves WHERE snapshot_id = ${snapshotId}::uuid AND user_id = ${userId}::uuid`,
  );
  return row;
}

export async function insertNodes(
  db: Db,
  rows: { snapshotId: string; level: number; idx: number; hash: string; sum: bigint }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await db.insert(porNodes).values(rows.slice(i, i + 1000));
}

/** The stored nodes at these (level, idx) places, keyed "level:idx". */
export async function nodesAt(
  db: Db,
  snapshotId: string,
  places: { level: number; idx: number }[],
): Promise<Map<string, { hash: string; sum: bigint }>> {
  if (places.length === 0) return new Map();
  const rows = await rawRows<{ level: number; idx: number; hash: string; sum: string }>(
    db,
    sql`SELECT n.level, n.idx, n.hash, n.sum::text FROM por_nodes n
        JOIN jsonb_to_recordset(${JSON.stringify(places)}::jsonb) AS p(level int, idx int) ON p.level = n.level AND p.idx = n.idx
        WHERE n.snapshot_id = ${snapshotId}::uuid`,
  );
  return new Map(rows.map((r) => [`${r.level}:${r.idx}`, { hash: r.hash, sum: BigInt(r.sum) }]));
}

export async function completeSnapshot(
  db: Db,
  id: string,
  done: {
    root: string;
    total: bigint;
    leaves: number;
    investors: number;
    ledgerTxId: number | null;
    ledgerHead: string | null;
  },
): Promise<void> {
  await db.update(porSnapshots).set(done).where(eq(porSnapshots.id, id));
}

export async function insertReserves(db: Db, rows: (typeof porReserves.$inferInsert)[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await db.insert(porReserves).values(rows.slice(i, i + 1000));
}

export async function snapshotById(db: Db, id: string): Promise<SnapshotRow | undefined> {
  const [row] = await db.select().from(porSnapshots).where(eq(porSnapshots.id, id));
  return row;
}

/** The newest snapshots first. */
export async function latestSnapshots(db: Db, limit: number): Promise<SnapshotRow[]> {
  return db.select().from(porSnapshots).orderBy(desc(porSnapshots.takenAt)).limit(limit);
}

/** Per snapshot: the reserves' total, and the total of those whose signature verified. */
export async function reserveTotals(db: Db, ids: string[]): Promise<Map<string, { counted: bigint; listed: bigint }>> {
  if (ids.length === 0) return new Map();
  const rows = await rawRows<{ id: string; counted: string; listed: string }>(
    db,
    sql`SELECT snapshot_id::text AS id, coalesce(sum(balance) FILTER (WHERE verified), 0)::text AS counted,
          sum(balance)::text AS listed
        FROM por_reserves WHERE snapshot_id IN (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) GROUP BY snapshot_id`,
  );
  return new Map(rows.map((r) => [r.id, { counted: BigInt(r.counted), listed: BigInt(r.listed) }]));
}

export async function reservesOf(db: Db, snapshotId: string): Promise<ReserveRow[]> {
  return db
    .select()
    .from(porReserves)
    .where(eq(porReserves.snapshotId, snapshotId))
    .orderBy(porReserves.kind, porReserves.address);
}

export async function setSignature(
  db: Db,
  snapshotId: string,
  address: string,
  signature: string,
  verdict: { verified: boolean; reason: string | null },
): Promise<void> {
  // A verified signature is final: a published snapshot's counted reserves never go down (or change) afterwards.
  await db
    .update(porReserves)
    .set({ signature, ...verdict })
    .where(
      and(eq(porReserves.snapshotId, snapshotId), eq(porReserves.address, address), eq(porReserves.verified, false)),
    );
}
