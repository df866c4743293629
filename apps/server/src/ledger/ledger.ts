import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rawRows } from '../db/raw.ts';
import { constraintName, sqlState } from '../db/tx.ts';
import { USER_ACCOUNT_KINDS, ledgerAccounts, ledgerEntries, ledgerTransactions } from '../db/schema.ts';
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
    super(400, message);
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

export async function post(tx: Db, input: PostInput): Promise<number> {
  const { legs } = input;
  if (legs.length < 2) throw new Error('A ledger transaction needs at least two entries');
  if (legs.some((l) => l.amount === 0n)) throw new Error('Ledger entries must not be zero');
  if (legs.reduce((s, l) => s + l.amount, 0n) !== 0n) throw new Error('Ledger transaction does not sum to zero');

  const userRefs = legs.flatMap((l) => ('userId' in l.account ? [l.account] : []));
  const platformKinds = [...new Set(legs.flatMap((l) => ('platform' in l.account ? [l.account.platform] : [])))];

  const ids = new Map<string, number>();
  if (userRefs.length > 0) {
    const wanted = sql.join(
      userRefs.map((r) => sql`(${r.userId}::uuid, ${r.kind})`),
      sql`, `,
    );
    const rows = await rawRows<{ id: number | string; user_id: string; kind: string; balance: bigint | string }>(
      tx,
      sql`SELECT id, user_id, kind, balance FROM ledger_accounts WHERE (user_id, kind) IN (${wanted}) ORDER BY id FOR UPDATE`,
    );
    const delta = new Map<string, bigint>();
    for (const l of legs) delta.set(keyOf(l.account), (delta.get(keyOf(l.account)) ?? 0n) + l.amount);
    for (const r of rows) {
      const key = `u:${r.user_id}:${r.kind}`;
      ids.set(key, Number(r.id));
      if (BigInt(r.balance) + (delta.get(key) ?? 0n) < 0n) throw new InsufficientFunds(input.insufficientMessage ?? 'Insufficient balance');
    }
    const changes = rows.map((r) => sql`(${Number(r.id)}::bigint, ${delta.get(`u:${r.user_id}:${r.kind}`) ?? 0n}::bigint)`);
    await tx.execute(
      sql`UPDATE ledger_accounts AS a SET balance = a.balance + v.delta FROM (VALUES ${sql.join(changes, sql`, `)}) AS v(id, delta) WHERE a.id = v.id`,
    );
  }
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

  let txId: number;
  try {
    const [row] = await tx
      .insert(ledgerTransactions)
      .values({ kind: input.kind, refId: input.refId, memo: input.memo ?? null, createdBy: input.createdBy ?? null })
      .returning({ id: ledgerTransactions.id });
    if (!row) throw new Error('ledger transaction not inserted');
    txId = row.id;
  } catch (err) {
    if (sqlState(err) === '23505' && constraintName(err) === 'ledger_transactions_kind_ref_key') {
      throw conflict('This operation has already been recorded');
    }
    throw err;
  }
  await tx.insert(ledgerEntries).values(legs.map((l) => ({ transactionId: txId, accountId: ids.get(keyOf(l.account)) ?? 0, amount: l.amount })));
  return txId;
}

/** Balances of one user's accounts, read from the ledger's cache. */
export async function userBalances(db: Db, userId: string): Promise<Record<UserAccountKind, bigint>> {
  const rows = await rawRows<{ kind: UserAccountKind; balance: bigint | string }>(
    db,
    sql`SELECT kind, balance FROM ledger_accounts WHERE user_id = ${userId}::uuid`,
  );
  const out: Record<UserAccountKind, bigint> = { balance: 0n, rewards: 0n, earnings: 0n, invested: 0n, pending_withdrawal: 0n };
  for (const r of rows) out[r.kind] = BigInt(r.balance);
  return out;
}

