import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';

export interface HistoryRow {
  kind: string;
  id: string;
  amount: bigint;
  fee: bigint | null;
  status: string;
  tx_hash: string | null;
  address: string | null;
  at: Date;
  processed_at: Date | null;
}

export interface HistoryFilter {
  userId: string;
  status?: string;
  /** Lower-case; a hash or address starting with it matches. */
  search?: string;
}

/** The owner's deposits and withdrawals as one list (the owner's condition sits in each half, on its index). */
function history(f: HistoryFilter): SQL {
  const where: SQL[] = [sql`TRUE`];
  if (f.status) where.push(sql`h.status = ${f.status}`);
  // starts_with, not LIKE: a typed % or _ is a character to find, never a wildcard.
  if (f.search)
    where.push(sql`(starts_with(lower(h.tx_hash), ${f.search}) OR starts_with(lower(h.address), ${f.search}))`);
  return sql`(
      SELECT 'deposit' AS kind, d.id, d.amount, NULL::bigint AS fee, d.status, d.tx_hash,
             d.from_address AS address, d.created_at AS at, d.processed_at
        FROM deposits d WHERE d.user_id = ${f.userId}::uuid
      UNION ALL
      SELECT 'withdrawal', w.id, w.amount, w.fee_amount, w.status, w.tx_hash,
             w.wallet_address, w.requested_at, w.processed_at
        FROM withdrawals w WHERE w.user_id = ${f.userId}::uuid
    ) h WHERE ${sql.join(where, sql` AND `)}`;
}

/** One page, newest first; rows at the same moment (one Withdraw All) in a fixed order by id. */
export async function historyPage(db: Db, f: HistoryFilter, page: number, pageSize: number): Promise<HistoryRow[]> {
  return rawRows<HistoryRow>(
    db,
    sql`SELECT h.* FROM ${history(f)} ORDER BY h.at DESC, h.id DESC
        LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
  );
}

export async function historyCount(db: Db, f: HistoryFilter): Promise<number> {
  const [row] = await rawRows<{ n: bigint }>(db, sql`SELECT count(*) AS n FROM ${history(f)}`);
  return Number(row?.n ?? 0);
}
