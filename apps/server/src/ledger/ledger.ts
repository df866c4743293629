import { sql, type SQL } from 'drizzle-orm';
import { MSG } from '@harvest/shared/messages';
import type { Db, Tx } from '../db/client.ts';
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
 * has to lock. Their balances are the sum of their entries (docs/decisions/0002).
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
  /** One withdrawal's hold (fixtures, and older Withdraw All rows: one hold per withdrawal). */
  | 'withdrawal_hold'
  /** The hold of every withdrawal of one Withdraw All request (ref = the request id). */
  | 'withdrawal_request_hold'
  | 'withdrawal_payout'
  | 'withdrawal_release'
  | 'admin_adjustment'
  | 'test_funding';

/** A lifetime sum of one user (a column of user_totals). */
export type UserTotal = 'earnings' | 'referral_rewards' | 'deposits' | 'adjustments';

/**
 * The money figures a kind of transaction moves, read from its own entries on the user's `account`: they add
 * to that user's lifetime `total` (user_totals: the dashboard and the admin users list) and, when `daily`, to
 * the rollups `<kind>.count` and `<kind>.amount` of the platform day it was booked on (admin totals and
 * analytics). postMany applies them in the posting's statement; ledger:check recomputes them from the entries.
 * "Lifetime earnings" is the cycle earnings booked; "deposits" the deposit transactions (only a deposit that
 * counts, hf_deposit_counts, is booked as one: ledger:check).
 */
export const LEDGER_FIGURES: Partial<
  Record<LedgerTxKind, { account: UserAccountKind; total?: UserTotal; daily?: true }>
> = {
  deposit: { account: 'balance', total: 'deposits', daily: true },
  admin_adjustment: { account: 'balance', total: 'adjustments', daily: true },
  investment: { account: 'invested', daily: true },
  cycle_earning: { account: 'earnings', total: 'earnings' },
  referral_reward: { account: 'rewards', total: 'referral_rewards' },
};

/** The time zone platform days are counted in (the server records PLATFORM_TIMEZONE at start: syncRollupTimezone). */
export const PLATFORM_TZ = sql`coalesce((SELECT value FROM settings WHERE key = 'rollup_timezone'), 'UTC')`;

/**
 * The figure of each transaction of `legs` (rows kind, ref_id, at, user_id, account, amount) whose kind has one:
 * rows kind, ref_id, user_id, total, daily, day (its platform day), slot, amount. `kinds` narrows the join.
 */
export function figureRows(
  legs: SQL,
  kinds: LedgerTxKind[] = Object.keys(LEDGER_FIGURES) as LedgerTxKind[],
): SQL | null {
  const defs = [...new Set(kinds)].flatMap((kind) => {
    const f = LEDGER_FIGURES[kind];
    return f ? [sql`(${kind}::text, ${f.account}::text, ${f.total ?? null}::text, ${f.daily ?? false}::boolean)`] : [];
  });
  if (defs.length === 0) return null;
  // Eight slots per kind and day, by user: writers for different users rarely wait on one rollup row.
  return sql`SELECT l.kind, l.ref_id, l.user_id, f.total, f.daily, (min(l.at) AT TIME ZONE ${PLATFORM_TZ})::date AS day,
      hashtext(l.user_id::text) & 7 AS slot, sum(l.amount)::bigint AS amount
    FROM (${legs}) l JOIN (VALUES ${sql.join(defs, sql`, `)}) AS f(kind, account, total, daily)
      ON f.kind = l.kind AND f.account = l.account AND l.user_id IS NOT NULL
    GROUP BY l.kind, l.ref_id, l.user_id, f.total, f.daily`;
}

/** Per user, the four lifetime sums of the figure rows `fig` (those with a total). */
export function totalsOf(fig: SQL): SQL {
  const col = (t: UserTotal) => sql`coalesce(sum(amount) FILTER (WHERE total = ${t}), 0)::bigint`;
  return sql`SELECT user_id, ${col('earnings')} AS earnings, ${col('referral_rewards')} AS referral_rewards,
      ${col('deposits')} AS deposits, ${col('adjustments')} AS adjustments
    FROM (${fig}) f WHERE total IS NOT NULL GROUP BY user_id`;
}

/** The daily rollups of the figure rows `fig` (those counted daily): rows metric, day, slot, n. */
export function rollupsOf(fig: SQL): SQL {
  return sql`SELECT m.metric, f.day, f.slot, sum(m.n)::bigint AS n FROM (${fig}) f
    CROSS JOIN LATERAL (VALUES (f.kind || '.count', 1::bigint), (f.kind || '.amount', f.amount)) AS m(metric, n)
    WHERE f.daily GROUP BY 1, 2, 3`;
}

export interface PostInput {
  kind: LedgerTxKind;
  /** Id of the business row that caused this movement; (kind, refId) is unique. */
  refId: string;
  memo?: string | null;
  createdBy?: string | null;
  /**
   * When it happened: the service's injected clock (`ctx.clock.now()`, the time its business row
   * records), so ledger times follow the platform clock (TEST_CLOCK included). The database's
   * now() only when absent (test fixtures).
   */
  createdAt?: Date;
  legs: Leg[];
  /** Message when a user account would go negative. */
  insufficientMessage?: string;
}

export class InsufficientFunds extends AppError {
  constructor(message: string) {
    super('insufficient_funds', message);
  }
}

/** Opens the per-user accounts of a new user (inside the registration transaction). */
export async function openUserAccounts(tx: Tx, userId: string): Promise<void> {
  await tx
    .insert(ledgerAccounts)
    .values(USER_ACCOUNT_KINDS.map((kind) => ({ userId, kind })))
    .onConflictDoNothing();
}

/**
 * Locks all accounts of these users in a fixed order (account id), so money-moving
 * transactions touching the same users queue rather than deadlock or double-spend.
 */
export async function lockUserAccounts(tx: Tx, userIds: string[]): Promise<Map<string, bigint>> {
  const ids = [...new Set(userIds)];
  const rows = await rawRows<{ user_id: string; kind: string; balance: bigint }>(
    tx,
    sql`SELECT user_id, kind, balance FROM ledger_accounts WHERE user_id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) ORDER BY id FOR UPDATE`,
  );
  return new Map(rows.map((r) => [`${r.user_id}:${r.kind}`, r.balance]));
}

/** One ledger transaction; see postMany. */
export async function post(tx: Tx, input: PostInput): Promise<number> {
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
 * Many ledger transactions described by SQL, one per business row of `from` (and `where`): for
 * seeding and fixtures that write thousands of rows at once. Every expression is evaluated per
 * row; legs whose amount is 0 for a row are left out (a fee of 0, for example).
 */
export interface PostSet {
  kind: LedgerTxKind;
  /** FROM items naming the business rows (with their aliases). */
  from: SQL;
  where?: SQL;
  /** The business row's id (text): (kind, refId) is unique. */
  refId: SQL;
  memo?: SQL;
  createdBy?: SQL;
  /** When it happened (the database's now() if absent). */
  createdAt?: SQL;
  legs: { account: { userId: SQL; kind: UserAccountKind } | { platform: PlatformAccountKind }; amount: SQL }[];
  /** Message when a user account would go negative. */
  insufficientMessage?: string;
}

type AccountKind = UserAccountKind | PlatformAccountKind;
const isPlatformKind = (k: AccountKind): k is PlatformAccountKind => k.startsWith('platform_');

/** The common movement: `amount` from one account of the user (or the platform) to another. */
export function userTransfer(
  kind: LedgerTxKind,
  refId: string,
  userId: string,
  o: { from: AccountKind; to: AccountKind; amount: bigint },
): PostInput {
  const account = (k: AccountKind): AccountRef => (isPlatformKind(k) ? { platform: k } : { userId, kind: k });
  return {
    kind,
    refId,
    legs: [
      { account: account(o.to), amount: o.amount },
      { account: account(o.from), amount: -o.amount },
    ],
  };
}

/**
 * The PostSet of the common movement: each row of `table` (aliased `t`, its owner in `t.user_id`) moves
 * `amount` (default `t.amount`) from one account to another, booked at `at` (default `t.created_at`).
 */
export function rowTransfers(
  kind: LedgerTxKind,
  table: string,
  o: { from: AccountKind; to: AccountKind; where?: SQL; amount?: SQL; at?: SQL },
): PostSet {
  const account = (k: AccountKind) => (isPlatformKind(k) ? { platform: k } : { userId: sql`t.user_id`, kind: k });
  const amount = o.amount ?? sql`t.amount`;
  return {
    kind,
    from: sql`${sql.identifier(table)} t`,
    where: o.where,
    refId: sql`t.id`,
    createdAt: o.at ?? sql`t.created_at`,
    legs: [
      { account: account(o.to), amount },
      { account: account(o.from), amount: sql`-(${amount})` },
    ],
  };
}

/** The legs of the caller's transactions as one JSON parameter (amounts as exact text), in input order `n`. */
function legsOfInputs(inputs: PostInput[]): SQL {
  const rows = inputs.flatMap((input, n) =>
    input.legs.map((l) => ({
      n,
      kind: input.kind,
      ref_id: input.refId,
      memo: input.memo ?? null,
      created_by: input.createdBy ?? null,
      created_at: input.createdAt?.toISOString() ?? null,
      user_id: 'userId' in l.account ? l.account.userId : null,
      account: 'userId' in l.account ? l.account.kind : l.account.platform,
      amount: l.amount.toString(),
    })),
  );
  return sql`SELECT l.n, l.kind, l.ref_id, l.memo, l.created_by, l.created_at, l.user_id, l.account, l.amount::bigint AS amount
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS l(n int, kind text, ref_id text, memo text, created_by uuid,
      created_at timestamptz, user_id uuid, account text, amount text)`;
}

/** The net change of every user account the legs touch (each must exist: `accounts` of them get locked). */
interface Deltas {
  accounts: number;
  /** Rows (user_id, account, delta). */
  sql: SQL;
}

function deltasOfInputs(inputs: PostInput[]): Deltas {
  const delta = new Map<string, { user_id: string; account: string; delta: bigint }>();
  for (const l of inputs.flatMap((i) => i.legs)) {
    if (!('userId' in l.account)) continue;
    const key = `${l.account.userId} ${l.account.kind}`;
    const d = delta.get(key) ?? { user_id: l.account.userId, account: l.account.kind, delta: 0n };
    d.delta += l.amount;
    delta.set(key, d);
  }
  const rows = [...delta.values()].map((d) => ({ ...d, delta: d.delta.toString() }));
  return {
    accounts: rows.length,
    sql: sql`SELECT d.user_id, d.account, d.delta::bigint AS delta
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS d(user_id uuid, account text, delta text)`,
  };
}

/** The legs of a PostSet: one row per business row and leg, zero legs left out. */
function legsOfSet(set: PostSet): SQL {
  const values = set.legs.map((l) =>
    'userId' in l.account
      ? sql`((${l.account.userId})::uuid, ${l.account.kind}::text, (${l.amount})::bigint)`
      : sql`(NULL::uuid, ${l.account.platform}::text, (${l.amount})::bigint)`,
  );
  return sql`SELECT NULL::int AS n, ${set.kind}::text AS kind, (${set.refId})::text AS ref_id, (${set.memo ?? sql`NULL`})::text AS memo,
      (${set.createdBy ?? sql`NULL`})::uuid AS created_by, (${set.createdAt ?? sql`NULL`})::timestamptz AS created_at,
      x.user_id, x.account, x.amount
    FROM ${set.from} CROSS JOIN LATERAL (VALUES ${sql.join(values, sql`, `)}) AS x(user_id, account, amount)
    WHERE (${set.where ?? sql`TRUE`}) AND x.amount <> 0`;
}

/**
 * The CTEs of postMany's statement that add its transactions' figures (LEDGER_FIGURES) to the user totals and
 * the daily rollups, rows in key order. They run after the user accounts are locked: a user's totals row is
 * only written by a holder of that user's account locks.
 */
function applyFigures(kinds: LedgerTxKind[]): SQL {
  const fig = figureRows(
    sql`SELECT legs.kind, legs.ref_id, ins.created_at AS at, legs.user_id, legs.account, legs.amount
        FROM legs JOIN ins ON ins.kind = legs.kind AND ins.ref_id = legs.ref_id`,
    kinds,
  );
  if (!fig) return sql``;
  return sql`, fig AS MATERIALIZED (${fig}),
    totals AS (
      INSERT INTO user_totals AS t (user_id, earnings, referral_rewards, deposits, adjustments)
      SELECT * FROM (${totalsOf(sql`SELECT * FROM fig`)}) s ORDER BY user_id
      ON CONFLICT (user_id) DO UPDATE SET earnings = t.earnings + excluded.earnings,
        referral_rewards = t.referral_rewards + excluded.referral_rewards, deposits = t.deposits + excluded.deposits,
        adjustments = t.adjustments + excluded.adjustments),
    days AS (
      INSERT INTO rollups AS r (metric, day, slot, n)
      SELECT * FROM (${rollupsOf(sql`SELECT * FROM fig`)}) s WHERE n <> 0 ORDER BY metric, day, slot
      ON CONFLICT (metric, day, slot) DO UPDATE SET n = r.n + excluded.n)`;
}

/**
 * Posts many ledger transactions in a constant number of statements whatever their number (a seed of
 * 100k users posts millions). Given as objects (their ids come back in input order) or as a PostSet of
 * SQL over business rows (the number posted comes back).
 * Either way the same statements run, on PGlite and PostgreSQL alike:
 * 1. every touched user account is locked FOR UPDATE in id order and the resulting balances checked
 *    (no user account below zero: InsufficientFunds, nothing written);
 * 2. the cached balances are updated once per account;
 * 3. the transactions and their entries are inserted set-based ((kind, refId) unique: a second
 *    booking of one business row is a conflict), and in the same statement their figures added to the
 *    user totals and daily rollups (LEDGER_FIGURES).
 * Objects are checked in code (at least two non-zero entries summing to zero); a PostSet by one query
 * before anything is locked.
 */
export async function postMany(tx: Tx, inputs: PostInput[]): Promise<number[]>;
export async function postMany(tx: Tx, set: PostSet): Promise<number>;
export async function postMany(tx: Tx, source: PostInput[] | PostSet): Promise<number[] | number> {
  let legs: SQL;
  let insufficientMessage: string | undefined;
  let deltas: Deltas;
  if (Array.isArray(source)) {
    if (source.length === 0) return [];
    source.forEach(checkBalanced);
    if (new Set(source.map((i) => `${i.kind} ${i.refId}`)).size !== source.length) throw conflict(MSG.alreadyRecorded);
    legs = legsOfInputs(source);
    deltas = deltasOfInputs(source);
    insufficientMessage = source.find((i) => i.insufficientMessage)?.insufficientMessage;
  } else {
    legs = legsOfSet(source);
    insufficientMessage = source.insufficientMessage;
    // More legs than the set names means `from` repeats a business row: its money would be booked twice.
    const [check] = await rawRows<{ bad: string | null; accounts: number }>(
      tx,
      sql`SELECT (SELECT ref_id FROM (${legs}) l GROUP BY kind, ref_id
                  HAVING count(*) < 2 OR count(*) > ${source.legs.length} OR sum(amount) <> 0 LIMIT 1) AS bad,
                 (SELECT count(*) FROM (SELECT DISTINCT user_id, account FROM (${legs}) l WHERE user_id IS NOT NULL) a)::int AS accounts`,
    );
    if (check?.bad) throw new Error(`Ledger transaction ${source.kind} ${check.bad} is not balanced`);
    deltas = {
      accounts: check?.accounts ?? 0,
      sql: sql`SELECT user_id, account, sum(amount) AS delta FROM (${legs}) l WHERE user_id IS NOT NULL GROUP BY 1, 2`,
    };
  }

  const [lock] = await rawRows<{ locked: number; negative: number }>(
    tx,
    sql`SELECT count(*)::int AS locked, count(*) FILTER (WHERE s.after < 0)::int AS negative
        FROM (SELECT a.id, a.balance + d.delta AS after FROM ledger_accounts a
              JOIN (${deltas.sql}) d ON a.user_id = d.user_id AND a.kind = d.account ORDER BY a.id FOR UPDATE OF a) s`,
  );
  if (!lock || lock.locked !== deltas.accounts) throw new Error('Ledger account missing');
  if (lock.negative > 0) throw new InsufficientFunds(insufficientMessage ?? MSG.insufficientBalance);
  if (lock.locked > 0) {
    await tx.execute(
      sql`UPDATE ledger_accounts AS a SET balance = a.balance + d.delta FROM (${deltas.sql}) d
          WHERE a.user_id = d.user_id AND a.kind = d.account AND d.delta <> 0`,
    );
  }

  let rows: { id: number | string; kind: string; ref_id: string }[];
  try {
    rows = await rawRows(
      tx,
      sql`WITH legs AS MATERIALIZED (
            SELECT l.*, coalesce(ua.id, pa.id) AS account_id FROM (${legs}) l
            LEFT JOIN ledger_accounts ua ON ua.user_id = l.user_id AND ua.kind = l.account
            LEFT JOIN ledger_accounts pa ON l.user_id IS NULL AND pa.user_id IS NULL AND pa.kind = l.account),
          ins AS (
            INSERT INTO ledger_transactions (kind, ref_id, memo, created_by, created_at)
            SELECT kind, ref_id, min(memo), (array_agg(created_by))[1], coalesce(min(created_at), now())
            FROM legs GROUP BY kind, ref_id ORDER BY min(n), kind, ref_id
            RETURNING id, kind, ref_id, created_at),
          entries AS (
            INSERT INTO ledger_entries (transaction_id, account_id, amount)
            SELECT ins.id, legs.account_id, legs.amount FROM legs JOIN ins ON ins.kind = legs.kind AND ins.ref_id = legs.ref_id)
          ${applyFigures(Array.isArray(source) ? source.map((i) => i.kind) : [source.kind])}
          SELECT ${Array.isArray(source) ? sql`id, kind, ref_id FROM ins` : sql`count(*) AS id, '' AS kind, '' AS ref_id FROM ins`}`,
    );
  } catch (err) {
    if (sqlState(err) === '23505' && constraintName(err) === 'ledger_transactions_kind_ref_key') {
      throw conflict(MSG.alreadyRecorded);
    }
    throw err;
  }
  if (!Array.isArray(source)) return Number(rows[0]?.id ?? 0);
  const idOf = new Map(rows.map((r) => [`${r.kind}\u0000${r.ref_id}`, Number(r.id)]));
  return source.map((i) => {
    const id = idOf.get(`${i.kind}\u0000${i.refId}`);
    if (id === undefined) throw new Error('ledger transaction not inserted');
    return id;
  });
}

/** Balances of one user's accounts, read from the ledger's cache. */
export async function userBalances(db: Db, userId: string): Promise<Record<UserAccountKind, bigint>> {
  const rows = await rawRows<{ kind: UserAccountKind; balance: bigint }>(
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
  for (const r of rows) out[r.kind] = r.balance;
  return out;
}
