import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rawRows } from '../db/raw.ts';
import { constraintName, sqlState } from '../db/tx.ts';
import { USER_ACCOUNT_KINDS, ledgerAccounts } from '../db/schema.ts';
import type { PlatformAccountKind, UserAccountKind } from '../db/schema.ts';
import { AppError, conflict } from '../lib/errors.ts';

/**
 * The one place money moves. Every movement is one ledger transaction of two or more
 * entries summing to zero, written inside the caller's database transaction (the same one
 * that writes the business row). User accounts are locked in id order, their cached
 * balances updated, and a negative user balance is refused (and also forbidden by a CHECK).
 *
 * Platform accounts keep no cached balance: they would be a hot row every money movement
 * has to lock. Their balances are the sum of their entries (docs/decisions/0003).
 */
export type AccountRef = { userId: string; kind: UserAccountKind } | { platform: PlatformAccountKind };
export interface Leg {
  account: AccountRef;
  amount: bigint;
}
export type LedgerTxKind =
  | 'deposit'
  | 'investment'
  | 'referral_reward'
  | 'cycle_earning'
  | 'withdrawal_hold'
  | 'withdrawal_payout'
  | 'withdrawal_release'
  | 'admin_adjustment'
  | 'test_funding';

export interface PostInput {
  kind: LedgerTxKind;
  /** Id of the business row that caused this movement; (kind, refId) is unique. */
  refId: string;
  memo?: string | null;
  createdBy?: string | null;
  legs: Leg[];
  /** Message when a user account would go negative. */
  insufficientMessage?: string;
}

export class InsufficientFunds extends AppError {
  constructor(message: string) {
    super('insufficient_funds', message);
  }
}

const keyOf = (r: AccountRef) => ('platform' in r ? `p:${r.platform}` : `u:${r.userId}:${r.kind}`);

/** Opens the per-user accounts of a new user (inside the registration transaction). */
export async function openUserAccounts(tx: Db, userId: string): Promise<void> {
  await tx
    .insert(ledgerAccounts)
    .values(USER_ACCOUNT_KINDS.map((kind) => ({ userId, kind })))
    .onConflictDoNothing();
}

/**
 * Locks all accounts of these users in a fixed order (account id), so money-moving
 * transactions touching the same users queue rather than deadlock or double-spend.
 */
export async function lockUserAccounts(tx: Db, userIds: string[]): Promise<Map<string, bigint>> {
  const ids = [...new Set(userIds)];
  const rows = await rawRows<{ user_id: string; kind: string; balance: bigint | string }>(
    tx,
    sql`SELECT user_id, kind, balance FROM ledger_accounts WHERE user_id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) ORDER BY id FOR UPDATE`,
  );
  return new Map(rows.map((r) => [`${r.user_id}:${r.kind}`, BigInt(r.balance)]));
}

/** One ledger transaction; see postMany. */
export async function post(tx: Db, input: PostInput): Promise<number> {
  const [id] = await postMany(tx, [input]);
  if (id === undefined) throw new Error('ledger transaction not inserted');
  return id;
}

function checkBalanced(input: PostInput): void {
  const { legs } = input;
  if (legs.length < 2) throw new Error('A ledger transaction needs at least two entries');
  if (legs.some((l) => l.amount === 0n)) throw new Error('Ledger entries must not be zero');
  if (legs.reduce((s, l) => s + l.amount, 0n) !== 0n) throw new Error('Ledger transaction does not sum to zero');
}

/**
 * Posts ledger transactions in a constant number of statements whatever their number (Withdraw All
 * of 1,000 earnings is 1,000 transactions): every touched user account is locked FOR UPDATE in id
 * order, the resulting balances are checked (no user account below zero), the cached balances are
 * updated once, then the transactions and their entries are inserted set-based. Rows travel as one
 * JSON parameter, so amounts stay exact (decimal text) and the same SQL runs on PGlite and PostgreSQL.
 * Returns the new transaction ids in input order.
 */
export async function postMany(tx: Db, inputs: PostInput[]): Promise<number[]> {
  if (inputs.length === 0) return [];
  inputs.forEach(checkBalanced);
  const legs = inputs.flatMap((input) => input.legs);

  const ids = new Map<string, number>();
  const userKeys = [
    ...new Map(legs.flatMap((l) => ('userId' in l.account ? [[keyOf(l.account), l.account] as const] : []))).values(),
  ];
  if (userKeys.length > 0) {
    const wanted = JSON.stringify(userKeys.map((r) => ({ user_id: r.userId, kind: r.kind })));
    const rows = await rawRows<{ id: number | string; user_id: string; kind: string; balance: bigint | string }>(
      tx,
      sql`SELECT a.id, a.user_id, a.kind, a.balance FROM ledger_accounts a
          JOIN jsonb_to_recordset(${wanted}::jsonb) AS w(user_id uuid, kind text) ON a.user_id = w.user_id AND a.kind = w.kind
          ORDER BY a.id FOR UPDATE OF a`,
    );
    const delta = new Map<string, bigint>();
    for (const l of legs) delta.set(keyOf(l.account), (delta.get(keyOf(l.account)) ?? 0n) + l.amount);
    const changes: { id: number; delta: string }[] = [];
    for (const r of rows) {
      const key = `u:${r.user_id}:${r.kind}`;
      const d = delta.get(key) ?? 0n;
      ids.set(key, Number(r.id));
      if (BigInt(r.balance) + d < 0n)
        throw new InsufficientFunds(
          inputs.find((i) => i.insufficientMessage)?.insufficientMessage ?? 'Insufficient balance',
        );
      if (d !== 0n) changes.push({ id: Number(r.id), delta: d.toString() });
    }
    if (changes.length > 0) {
      await tx.execute(
        sql`UPDATE ledger_accounts AS a SET balance = a.balance + v.delta::bigint
            FROM jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) AS v(id bigint, delta text) WHERE a.id = v.id`,
      );
    }
  }
  const platformKinds = [...new Set(legs.flatMap((l) => ('platform' in l.account ? [l.account.platform] : [])))];
  if (platformKinds.length > 0) {
    const rows = await rawRows<{ id: number | string; kind: string }>(
      tx,
      sql`SELECT id, kind FROM ledger_accounts WHERE user_id IS NULL AND kind IN (${sql.join(
        platformKinds.map((k) => sql`${k}`),
        sql`, `,
      )})`,
    );
    for (const r of rows) ids.set(`p:${r.kind}`, Number(r.id));
  }
  for (const l of legs) if (!ids.has(keyOf(l.account))) throw new Error(`Ledger account missing: ${keyOf(l.account)}`);

  let txIds: number[];
  try {
    const header = JSON.stringify(
      inputs.map((i, n) => ({
        n,
        kind: i.kind,
        ref_id: i.refId,
        memo: i.memo ?? null,
        created_by: i.createdBy ?? null,
      })),
    );
    const rows = await rawRows<{ id: number | string; n: number }>(
      tx,
      sql`WITH ins AS (
            INSERT INTO ledger_transactions (kind, ref_id, memo, created_by)
            SELECT h.kind, h.ref_id, h.memo, h.created_by FROM jsonb_to_recordset(${header}::jsonb) AS h(n int, kind text, ref_id text, memo text, created_by uuid) ORDER BY h.n
            RETURNING id, kind, ref_id)
          SELECT ins.id, h.n FROM ins JOIN jsonb_to_recordset(${header}::jsonb) AS h(n int, kind text, ref_id text) ON h.kind = ins.kind AND h.ref_id = ins.ref_id`,
    );
    txIds = new Array<number>(inputs.length);
    for (const r of rows) txIds[r.n] = Number(r.id);
  } catch (err) {
    if (sqlState(err) === '23505' && constraintName(err) === 'ledger_transactions_kind_ref_key') {
      throw conflict('This operation has already been recorded');
    }
    throw err;
  }
  const entries = inputs.flatMap((input, n) =>
    input.legs.map((l) => ({
      transaction_id: txIds[n],
      account_id: ids.get(keyOf(l.account)),
      amount: l.amount.toString(),
    })),
  );
  await tx.execute(
    sql`INSERT INTO ledger_entries (transaction_id, account_id, amount)
        SELECT e.transaction_id, e.account_id, e.amount::bigint FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) AS e(transaction_id bigint, account_id bigint, amount text)`,
  );
  return txIds;
}

/** Balances of one user's accounts, read from the ledger's cache. */
export async function userBalances(db: Db, userId: string): Promise<Record<UserAccountKind, bigint>> {
  const rows = await rawRows<{ kind: UserAccountKind; balance: bigint | string }>(
    db,
    sql`SELECT kind, balance FROM ledger_accounts WHERE user_id = ${userId}::uuid`,
  );
  const out: Record<UserAccountKind, bigint> = {
    balance: 0n,
    rewards: 0n,
    earnings: 0n,
    invested: 0n,
    pending_withdrawal: 0n,
  };
  for (const r of rows) out[r.kind] = BigInt(r.balance);
  return out;
}
