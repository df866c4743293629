import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { userFilter } from './admin-users.queries.ts';

/** The CSV exports' rows: keyset batches in (time, id) order, fetched as the reader asks for more. */

export interface DepositRow {
  id: string;
  amount: bigint;
  status: 'pending' | 'confirmed' | 'failed';
  type: 'demo' | 'real' | 'admin_credit';
  txHash: string | null;
  fromAddress: string | null;
  confirmations: number;
  failureReason: string | null;
  note: string | null;
  createdAt: string;
  processedAt: string | null;
  user: { id: string; firstName: string; lastName: string; email: string };
  /** Exact created_at text, for keyset cursors (JS dates drop microseconds). */
  cursor: string;
}

interface RawDeposit {
  id: string;
  amount: bigint;
  status: DepositRow['status'];
  type: DepositRow['type'];
  tx_hash: string | null;
  from_address: string | null;
  confirmations: number;
  failure_reason: string | null;
  note: string | null;
  created_at: Date;
  processed_at: Date | null;
  cur: string;
  user_id: string;
  first_name: string;
  last_name: string;
  email: string;
}

const DEPOSIT_COLUMNS = sql`d.id, d.amount, d.status, d.type, d.tx_hash, d.from_address, d.confirmations, d.failure_reason, d.note,
  d.created_at, d.processed_at, d.created_at::text AS cur, u.id AS user_id, u.first_name, u.last_name, u.email`;

function toDeposit(r: RawDeposit): DepositRow {
  return {
    id: r.id,
    amount: r.amount,
    status: r.status,
    type: r.type,
    txHash: r.tx_hash,
    fromAddress: r.from_address,
    confirmations: Number(r.confirmations),
    failureReason: r.failure_reason,
    note: r.note,
    createdAt: r.created_at.toISOString(),
    processedAt: r.processed_at?.toISOString() ?? null,
    user: { id: r.user_id, firstName: r.first_name, lastName: r.last_name, email: r.email },
    cursor: r.cur,
  };
}

/** One keyset batch of deposits in (created_at, id) order, optionally of one status. */
export async function depositBatch(
  db: Db,
  status: string | null,
  after: { cursor: string; id: string } | null,
  limit: number,
): Promise<DepositRow[]> {
  const where: SQL[] = [];
  if (status) where.push(sql`d.status = ${status}`);
  if (after) where.push(sql`(d.created_at, d.id) > (${after.cursor}::timestamptz, ${after.id}::uuid)`);
  const rows = await rawRows<RawDeposit>(
    db,
    sql`SELECT ${DEPOSIT_COLUMNS} FROM deposits d JOIN users u ON u.id = d.user_id
        ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
        ORDER BY d.created_at, d.id LIMIT ${limit}`,
  );
  return rows.map(toDeposit);
}

export interface WithdrawalRow {
  id: string;
  status: 'pending' | 'approved' | 'rejected';
  source: 'earning' | 'rewards' | 'balance';
  amount: bigint;
  feeAmount: bigint;
  netAmount: bigint;
  cycleNumber: number | null;
  walletAddress: string;
  requestedAt: string;
  processedAt: string | null;
  txHash: string | null;
  notes: string | null;
  requestId: string;
  user: { id: string; firstName: string; lastName: string; email: string };
  cursor: string;
}

interface RawWithdrawal {
  id: string;
  status: WithdrawalRow['status'];
  source: WithdrawalRow['source'];
  amount: bigint;
  fee_amount: bigint;
  net_amount: bigint;
  cycle_number: number | null;
  wallet_address: string;
  requested_at: Date;
  processed_at: Date | null;
  tx_hash: string | null;
  notes: string | null;
  request_id: string;
  cur: string;
  user_id: string;
  first_name: string;
  last_name: string;
  email: string;
}

const WITHDRAWAL_COLUMNS = sql`w.id, w.status, w.source, w.amount, w.fee_amount, w.net_amount, w.cycle_number, w.wallet_address,
  w.requested_at, w.processed_at, w.tx_hash, w.notes, w.request_id, w.requested_at::text AS cur,
  u.id AS user_id, u.first_name, u.last_name, u.email`;

function toWithdrawal(r: RawWithdrawal): WithdrawalRow {
  return {
    id: r.id,
    status: r.status,
    source: r.source,
    amount: r.amount,
    feeAmount: r.fee_amount,
    netAmount: r.net_amount,
    cycleNumber: r.cycle_number === null ? null : Number(r.cycle_number),
    walletAddress: r.wallet_address,
    requestedAt: r.requested_at.toISOString(),
    processedAt: r.processed_at?.toISOString() ?? null,
    txHash: r.tx_hash,
    notes: r.notes,
    requestId: r.request_id,
    user: { id: r.user_id, firstName: r.first_name, lastName: r.last_name, email: r.email },
    cursor: r.cur,
  };
}

export async function withdrawalBatch(
  db: Db,
  status: string | null,
  after: { cursor: string; id: string } | null,
  limit: number,
): Promise<WithdrawalRow[]> {
  const where: SQL[] = [];
  if (status) where.push(sql`w.status = ${status}`);
  if (after) where.push(sql`(w.requested_at, w.id) > (${after.cursor}::timestamptz, ${after.id}::uuid)`);
  const rows = await rawRows<RawWithdrawal>(
    db,
    sql`SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals w JOIN users u ON u.id = w.user_id
        ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
        ORDER BY w.requested_at, w.id LIMIT ${limit}`,
  );
  return rows.map(toWithdrawal);
}

/** Rows an export will hold (the same filters as the batches), for its audit entry. */
export async function exportRowCount(
  db: Db,
  what: 'deposits' | 'withdrawals' | 'users',
  filter: { status?: string | null; search?: string | undefined },
): Promise<number> {
  const query =
    what === 'users'
      ? sql`SELECT count(*)::int AS n FROM users u WHERE ${userFilter(filter.search)}`
      : what === 'deposits'
        ? sql`SELECT count(*)::int AS n FROM deposits d ${filter.status ? sql`WHERE d.status = ${filter.status}` : sql``}`
        : sql`SELECT count(*)::int AS n FROM withdrawals w ${filter.status ? sql`WHERE w.status = ${filter.status}` : sql``}`;
  const [row] = await rawRows<{ n: number }>(db, query);
  return Number(row?.n ?? 0);
}
