import { and, eq, inArray, ne, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import {
  jsonAmount,
  jsonAmountOrNull,
  jsonText,
  jsonTextOrNull,
  jsonTime,
  jsonTimeOrNull,
  type JsonRow,
} from '../../db/row-types.ts';
import { sessionRead } from '../sessions/sessions.queries.ts';
import { keysetPage, type PageRequest } from '../../db/keyset.ts';
import { statusCounts } from '../../ledger/rollups.queries.ts';
import { investments, payoutBatches, payoutTransactions, users, withdrawals } from '../../db/schema.ts';

export type WithdrawalRow = typeof withdrawals.$inferSelect;

/** Whether Withdraw All would find anything: an unrequested earning, rewards or balance (no lock). */
export async function hasAvailableFunds(db: Db, userId: string): Promise<boolean> {
  const [r] = await rawRows<{ any: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM cycle_earnings WHERE user_id = ${userId}::uuid AND NOT withdrawal_requested AND gross_amount > 0)
        OR EXISTS (SELECT 1 FROM ledger_accounts WHERE user_id = ${userId}::uuid AND kind IN ('rewards', 'balance') AND balance > 0) AS any`,
  );
  return Boolean(r?.any);
}

/** What a Withdraw All would take now (no lock): each unrequested earning, the rewards and the balance. */
export async function availableItems(
  db: Db,
  userId: string,
): Promise<{ source: 'earning' | 'rewards' | 'balance'; id: string | null; amount: bigint }[]> {
  const rows = await rawRows<{ source: string; id: string | null; amount: bigint }>(
    db,
    sql`SELECT 'earning' AS source, id::text AS id, gross_amount AS amount FROM cycle_earnings
        WHERE user_id = ${userId}::uuid AND NOT withdrawal_requested AND gross_amount > 0
        UNION ALL
        SELECT kind, NULL, balance FROM ledger_accounts
        WHERE user_id = ${userId}::uuid AND kind IN ('rewards', 'balance') AND balance > 0
        ORDER BY 1, 2`,
  );
  return rows.map((r) => ({
    source: r.source === 'earning' || r.source === 'rewards' ? r.source : 'balance',
    id: r.id,
    amount: BigInt(r.amount),
  }));
}

/** What one Withdraw All wrote: its withdrawals, their sums, and what it took from each source account. */
export interface WithdrawAllMade {
  count: number;
  gross: bigint;
  fee: bigint;
  held: { earnings: bigint; rewards: bigint; balance: bigint };
}

/**
 * One statement for a Withdraw All (the user's accounts already locked): marks every unrequested
 * cycle earning requested, inserts one withdrawal per earning (fee: floor(gross * feePercent / 100))
 * and one per non-zero rewards and balance amount (no fee), and records the wallet on the user.
 * The sums per source come from the rows inserted: they are what the request's hold moves.
 */
export async function insertWithdrawAll(
  tx: Db,
  o: {
    userId: string;
    requestId: string;
    sessionId: string | null;
    walletAddress: string;
    requestedAt: Date;
    rewards: bigint;
    balance: bigint;
    feePercent: bigint;
  },
): Promise<WithdrawAllMade> {
  const at = sql`${o.requestedAt.toISOString()}::timestamptz`;
  const [r] = await rawRows<{
    n: number;
    gross: bigint;
    fee: bigint;
    earnings: bigint;
    rewards: bigint;
    balance: bigint;
  }>(
    tx,
    sql`WITH earned AS (
          UPDATE cycle_earnings SET withdrawal_requested = true
          WHERE user_id = ${o.userId}::uuid AND NOT withdrawal_requested AND gross_amount > 0
          RETURNING id, investment_id, cycle_number, gross_amount, created_at),
        rows AS (
          SELECT 'earning' AS source, gross_amount AS amount, gross_amount * ${o.feePercent}::bigint / 100 AS fee,
                 id AS cycle_earning_id, investment_id, cycle_number, created_at AS ord
          FROM earned
          UNION ALL
          SELECT s.source, s.amount, 0::bigint, NULL::uuid, NULL::uuid, NULL::int, NULL::timestamptz
          FROM (VALUES ('rewards', ${o.rewards.toString()}::bigint), ('balance', ${o.balance.toString()}::bigint)) AS s(source, amount)
          WHERE s.amount > 0),
        ins AS (
          INSERT INTO withdrawals (id, user_id, request_id, source, status, amount, fee_amount, net_amount,
                                   cycle_earning_id, investment_id, cycle_number, wallet_address, requested_at, session_id)
          SELECT hf_uuid7(), ${o.userId}::uuid, ${o.requestId}::uuid, source, 'pending', amount, fee, amount - fee,
                 cycle_earning_id, investment_id, cycle_number, ${o.walletAddress}, ${at}, ${o.sessionId}::uuid
          FROM rows ORDER BY ord NULLS LAST, cycle_number
          RETURNING source, amount, fee_amount),
        wallet AS (UPDATE users SET withdrawal_wallet = ${o.walletAddress} WHERE id = ${o.userId}::uuid AND EXISTS (SELECT 1 FROM rows))
        SELECT count(*)::int AS n, coalesce(sum(amount), 0)::bigint AS gross, coalesce(sum(fee_amount), 0)::bigint AS fee,
               coalesce(sum(amount) FILTER (WHERE source = 'earning'), 0)::bigint AS earnings,
               coalesce(sum(amount) FILTER (WHERE source = 'rewards'), 0)::bigint AS rewards,
               coalesce(sum(amount) FILTER (WHERE source = 'balance'), 0)::bigint AS balance
        FROM ins`,
  );
  if (!r) throw new Error('withdraw-all summary row missing');
  return {
    count: r.n,
    gross: r.gross,
    fee: r.fee,
    held: { earnings: r.earnings, rewards: r.rewards, balance: r.balance },
  };
}

export async function markEarningsRequested(tx: Db, ids: string[], requested: boolean): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(
    sql`UPDATE cycle_earnings SET withdrawal_requested = ${requested} WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
  );
}

/** A withdrawal as a decision sees it: locked, with the state of the batch it was exported in. */
export interface LockedWithdrawal {
  w: WithdrawalRow;
  batchStatus: string | null;
  graceUntil: Date | null;
}

/**
 * Locks what a decision on these withdrawals reads (after their owners' ledger accounts: the order every money path
 * takes): the owners' rows (a freeze waits, or is seen) and the withdrawals (a batch export waits, or is seen).
 * Answers whose withdrawals are frozen, and each withdrawal with its batch.
 */
export async function lockForDecision(
  tx: Db,
  ids: string[],
  ownerIds: string[],
): Promise<{ frozen: Set<string>; rows: LockedWithdrawal[] }> {
  const owners = await rawRows<{ id: string; frozen: boolean }>(
    tx,
    sql`SELECT id, withdrawals_frozen AS frozen FROM users WHERE id IN (${sql.join(
      [...new Set(ownerIds)].map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) ORDER BY id FOR SHARE`,
  );
  const rows = await tx
    .select({ w: withdrawals, batchStatus: payoutBatches.status, graceUntil: payoutBatches.graceUntil })
    .from(withdrawals)
    .leftJoin(payoutBatches, eq(payoutBatches.id, withdrawals.batchId))
    .where(inArray(withdrawals.id, ids))
    .orderBy(withdrawals.id)
    .for('update', { of: withdrawals });
  return { frozen: new Set(owners.filter((u) => u.frozen).map((u) => u.id)), rows };
}

/** The pending withdrawals a "this wasn't me" report takes back: asked for by the reported session, or to the reported address. */
export async function pendingOfReport(tx: Db, userId: string, report: { sessionId?: string; wallet?: string }) {
  const by = [
    ...(report.sessionId ? [eq(withdrawals.sessionId, report.sessionId)] : []),
    ...(report.wallet ? [eq(withdrawals.walletAddress, report.wallet)] : []),
  ];
  if (by.length === 0) return [];
  return tx
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), eq(withdrawals.status, 'pending'), or(...by)));
}

export async function findWithdrawal(db: Db, id: string): Promise<WithdrawalRow | undefined> {
  const [w] = await db.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1);
  return w;
}

/**
 * Decides a pending withdrawal: only one caller can move it out of `pending` (the second
 * racer's UPDATE matches no row once the first commits).
 */
export async function decidePending(
  tx: Db,
  id: string,
  values: {
    status: 'approved' | 'rejected';
    processedAt: Date;
    processedBy: string | null;
    txHash?: string | null;
    notes: string | null;
  },
): Promise<WithdrawalRow | undefined> {
  const [w] = await tx
    .update(withdrawals)
    .set(values)
    .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 'pending')))
    .returning();
  return w;
}

/** Every withdrawal of one Withdraw All request (its rows share owner and request time: the owner's index finds them). */
export async function requestWithdrawals(tx: Db, w: Pick<WithdrawalRow, 'userId' | 'requestedAt' | 'requestId'>) {
  return tx
    .select()
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.userId, w.userId),
        eq(withdrawals.requestedAt, w.requestedAt),
        eq(withdrawals.requestId, w.requestId),
      ),
    )
    .orderBy(withdrawals.processedAt, withdrawals.id);
}

export async function startCooldown(tx: Db, investmentId: string, approvedAt: Date, nextCycleAt: Date): Promise<void> {
  await tx
    .update(investments)
    .set({ withdrawalApprovedAt: approvedAt, nextCycleAvailableAt: nextCycleAt })
    .where(eq(investments.id, investmentId));
}

export type PayoutTxRow = typeof payoutTransactions.$inferSelect;

/** Claims a payout hash for a wallet (first use: with the request it paid) and locks the row. */
export async function claimPayoutTx(
  tx: Db,
  v: { txHash: string; requestId: string; walletAddress: string; chainValue: bigint | null; createdAt: Date },
): Promise<PayoutTxRow> {
  await tx.insert(payoutTransactions).values(v).onConflictDoNothing();
  const key = and(eq(payoutTransactions.txHash, v.txHash), eq(payoutTransactions.walletAddress, v.walletAddress));
  const [row] = await tx.select().from(payoutTransactions).where(key).for('update');
  if (!row) throw new Error('payout transaction row missing');
  if (v.chainValue !== null && row.chainValue !== v.chainValue)
    await tx.update(payoutTransactions).set({ chainValue: v.chainValue }).where(key);
  return row;
}

/** Net amount of the approved withdrawals to this wallet paid by this hash. */
export async function approvedNetFor(tx: Db, txHash: string, wallet: string): Promise<bigint> {
  const [r] = await rawRows<{ total: bigint }>(
    tx,
    sql`SELECT COALESCE(SUM(net_amount), 0)::bigint AS total FROM withdrawals
        WHERE tx_hash = ${txHash} AND wallet_address = ${wallet} AND status = 'approved'`,
  );
  return r?.total ?? 0n;
}

/** Whether another wallet was paid with this hash already (without a chain, a hash pays one wallet). */
export async function hashUsedForOtherWallet(tx: Db, txHash: string, wallet: string): Promise<boolean> {
  const rows = await tx
    .select({ w: payoutTransactions.walletAddress })
    .from(payoutTransactions)
    .where(and(eq(payoutTransactions.txHash, txHash), ne(payoutTransactions.walletAddress, wallet)))
    .limit(1);
  return rows.length > 0;
}

/** Batches whose every withdrawal is decided are completed (in the transaction that decided the last). */
export async function completeBatchesOf(tx: Db, decided: WithdrawalRow[], now: Date): Promise<void> {
  const ids = [...new Set(decided.flatMap((w) => (w.batchId ? [w.batchId] : [])))];
  if (ids.length === 0) return;
  await tx
    .update(payoutBatches)
    .set({ status: 'completed', closedAt: now })
    .where(
      and(
        inArray(payoutBatches.id, ids),
        eq(payoutBatches.status, 'open'),
        sql`NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.batch_id = ${payoutBatches.id} AND w.status = 'pending')`,
      ),
    );
}

// ---------------------------------------------------------------- reads

const populatedColumns = {
  w: withdrawals,
  invId: investments.id,
  invTier: investments.tierName,
  invAmount: investments.amount,
};

const requester = { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email };

/**
 * Whether a withdrawal (its owner, its wallet) pays an address the owner's book holds as proven by its wallet (the
 * book as it stands: an entry removed since no longer vouches for it). One probe of the book's live (user, address) index.
 */
const addressProven = (userId: SQLWrapper, wallet: SQLWrapper) =>
  sql<boolean>`EXISTS (SELECT 1 FROM withdrawal_addresses wa
    WHERE wa.user_id = ${userId} AND wa.address = lower(${wallet}) AND wa.removed_at IS NULL AND wa.proven_at IS NOT NULL)`;

/**
 * An investor's withdrawals, newest first, as one JSON value read in the statement that reads the session
 * (sessionRead; GET /api/withdrawal/my-withdrawals, polled every 2 s with the dashboard): one round trip. Amounts
 * travel as exact text, times as ISO text; `users` is the row the statement reads.
 */
const withdrawalsJson = sql<unknown>`(SELECT COALESCE(json_agg(json_build_object(
    'id', w.id, 'status', w.status, 'source', w.source, 'request_id', w.request_id, 'amount', w.amount::text,
    'fee_amount', w.fee_amount::text, 'net_amount', w.net_amount::text, 'cycle_number', w.cycle_number,
    'wallet_address', w.wallet_address, 'requested_at', w.requested_at, 'processed_at', w.processed_at,
    'tx_hash', w.tx_hash, 'notes', w.notes, 'payee_refused_at', w.payee_refused_at,
    'inv_id', i.id, 'inv_tier', i.tier_name, 'inv_amount', i.amount::text)
  ORDER BY w.requested_at DESC, w.cycle_number DESC, w.id), '[]'::json)
  FROM withdrawals w LEFT JOIN investments i ON i.id = w.investment_id WHERE w.user_id = users.id)`;

/** The session's user and row, and the user's withdrawals, in one statement. */
export const sessionAndWithdrawals = sessionRead('hf_session_withdrawals', withdrawalsJson);

/** What an investor's view of a withdrawal reads (toWithdrawalDto): a row of the admin page, or one of withdrawalsOf. */
export interface WithdrawalView {
  w: Pick<
    WithdrawalRow,
    | 'id'
    | 'status'
    | 'source'
    | 'requestId'
    | 'amount'
    | 'feeAmount'
    | 'netAmount'
    | 'cycleNumber'
    | 'walletAddress'
    | 'requestedAt'
    | 'processedAt'
    | 'txHash'
    | 'notes'
    | 'payeeRefusedAt'
  >;
  invId: string | null;
  invTier: string | null;
  invAmount: bigint | null;
}

/** The withdrawals sessionAndWithdrawals read, as rows. */
export function withdrawalsOf(screen: unknown): WithdrawalView[] {
  return ((screen as JsonRow[] | null) ?? []).map((r) => ({
    w: {
      id: jsonText(r.id),
      status: jsonText(r.status),
      source: jsonText(r.source),
      requestId: jsonText(r.request_id),
      amount: jsonAmount(r.amount),
      feeAmount: jsonAmount(r.fee_amount),
      netAmount: jsonAmount(r.net_amount),
      cycleNumber: r.cycle_number === null ? null : Number(r.cycle_number),
      walletAddress: jsonText(r.wallet_address),
      requestedAt: jsonTime(r.requested_at),
      processedAt: jsonTimeOrNull(r.processed_at),
      txHash: jsonTextOrNull(r.tx_hash),
      notes: jsonTextOrNull(r.notes),
      payeeRefusedAt: jsonTimeOrNull(r.payee_refused_at),
    },
    invId: jsonTextOrNull(r.inv_id),
    invTier: jsonTextOrNull(r.inv_tier),
    invAmount: jsonAmountOrNull(r.inv_amount),
  }));
}

interface RawAdminWithdrawal {
  id: string;
  user_id: string;
  request_id: string;
  source: string;
  status: string;
  amount: bigint;
  fee_amount: bigint;
  net_amount: bigint;
  cycle_earning_id: string | null;
  investment_id: string | null;
  cycle_number: number | null;
  wallet_address: string;
  requested_at: Date;
  processed_at: Date | null;
  processed_by: string | null;
  tx_hash: string | null;
  notes: string | null;
  batch_id: string | null;
  session_id: string | null;
  payee_refused_at: Date | null;
  non_earning_user_id: string | null;
  b_status: string | null;
  b_grace: Date | null;
  u_frozen: boolean;
  a_proven: boolean;
  inv_id: string | null;
  inv_tier: string | null;
  inv_amount: bigint | null;
  u_first_name: string;
  u_last_name: string;
  u_email: string;
  k: string[];
}

function toAdminRow(r: RawAdminWithdrawal) {
  return {
    w: {
      id: r.id,
      userId: r.user_id,
      requestId: r.request_id,
      source: r.source,
      status: r.status,
      amount: r.amount,
      feeAmount: r.fee_amount,
      netAmount: r.net_amount,
      cycleEarningId: r.cycle_earning_id,
      investmentId: r.investment_id,
      cycleNumber: r.cycle_number === null ? null : Number(r.cycle_number),
      walletAddress: r.wallet_address,
      requestedAt: r.requested_at,
      processedAt: r.processed_at,
      processedBy: r.processed_by,
      txHash: r.tx_hash,
      notes: r.notes,
      batchId: r.batch_id,
      sessionId: r.session_id,
      payeeRefusedAt: r.payee_refused_at,
      nonEarningUserId: r.non_earning_user_id,
    } satisfies WithdrawalRow,
    batchStatus: r.b_status,
    graceUntil: r.b_grace,
    frozen: r.u_frozen,
    addressProven: r.a_proven,
    invId: r.inv_id,
    invTier: r.inv_tier,
    invAmount: r.inv_amount,
    user: { id: r.user_id, firstName: r.u_first_name, lastName: r.u_last_name, email: r.u_email },
  };
}

/**
 * Newest first (a request's rewards and balance rows before its earnings, those by cycle, newest
 * first), with the requester: one keyset page (docs/decisions/0036-keyset-paging.md).
 */
export async function adminPage(db: Db, status: string | undefined, page: PageRequest, total: number) {
  const res = await keysetPage<RawAdminWithdrawal>(
    db,
    {
      from: sql`withdrawals w`,
      where: status ? sql`w.status = ${status}` : sql`TRUE`,
      key: [
        { expr: sql`w.requested_at`, type: 'timestamptz' },
        { expr: sql`coalesce(w.cycle_number, 2147483647)`, type: 'int' },
        { expr: sql`w.id`, type: 'uuid' },
      ],
      rows: sql`SELECT w.*, i.id AS inv_id, i.tier_name AS inv_tier, i.amount AS inv_amount,
                       u.first_name AS u_first_name, u.last_name AS u_last_name, u.email AS u_email,
                       u.withdrawals_frozen AS u_frozen, ${addressProven(sql`w.user_id`, sql`w.wallet_address`)} AS a_proven,
                       b.status AS b_status, b.grace_until AS b_grace, pk.k
                FROM page_keys pk JOIN withdrawals w ON w.id = pk.k2 JOIN users u ON u.id = w.user_id
                LEFT JOIN investments i ON i.id = w.investment_id
                LEFT JOIN payout_batches b ON b.id = w.batch_id ORDER BY pk.ord`,
    },
    page,
    total,
  );
  return { ...res, rows: res.rows.map(toAdminRow) };
}

export async function adminOne(db: Db, id: string) {
  const [row] = await db
    .select({
      ...populatedColumns,
      user: requester,
      frozen: users.withdrawalsFrozen,
      addressProven: addressProven(withdrawals.userId, withdrawals.walletAddress),
      batchStatus: payoutBatches.status,
      graceUntil: payoutBatches.graceUntil,
    })
    .from(withdrawals)
    .leftJoin(investments, eq(investments.id, withdrawals.investmentId))
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .leftJoin(payoutBatches, eq(payoutBatches.id, withdrawals.batchId))
    .where(eq(withdrawals.id, id))
    .limit(1);
  return row;
}

/** Withdrawals per status, counted on the status index. */
export async function counts(db: Db, status?: string): Promise<{ pending: number; total: number; matching: number }> {
  const c = await statusCounts(db, 'withdrawals');
  const n = (k: string) => c.get(k) ?? 0;
  const total = n('pending') + n('approved') + n('rejected');
  return { pending: n('pending'), total, matching: status ? n(status) : total };
}
