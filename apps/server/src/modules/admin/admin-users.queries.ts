import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { keysetPage, type PageRequest } from '../../db/keyset.ts';
import { userCount } from '../../ledger/rollups.queries.ts';

export interface AdminUserRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneCountryCode: string | null;
  phoneNumber: string | null;
  isAdmin: boolean;
  isBlocked: boolean;
  withdrawalsFrozen: boolean;
  createdAt: string;
  withdrawalWallet: string | null;
  balance: bigint;
  invested: bigint;
  totalEarnings: bigint;
  referralRewards: bigint;
  totalDeposits: bigint;
  totalAdjustments: bigint;
  cursor: string;
}

/** `%term%` for ILIKE, with the pattern characters of the term taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function userFilter(search: string | undefined): SQL {
  if (!search) return sql`TRUE`;
  // One ILIKE per row over "email first last" (not four): the e-mail, either name and the
  // full name are all substrings of it. Without pg_trgm this is a sequential scan of users.
  return sql`(u.email || ' ' || u.first_name || ' ' || u.last_name) ILIKE ${containsPattern(search)}`;
}

interface RawUser {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone_country_code: string | null;
  phone_number: string | null;
  is_admin: boolean;
  is_blocked: boolean;
  withdrawals_frozen: boolean;
  created_at: Date;
  withdrawal_wallet: string | null;
  cur: string;
  balance: bigint;
  invested: bigint;
  total_earnings: bigint;
  referral_rewards: bigint;
  total_deposits: bigint;
  total_adjustments: bigint;
}

/**
 * Account figures for the users of one page only: the two balances from the ledger's accounts, the lifetime sums
 * from the user's `user_totals` row (db/functions.sql; no row yet reads as zeros). Needs `USER_TOTALS_JOIN`.
 */
const USER_FIGURES = sql`
  coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.user_id = u.id AND a.kind = 'balance'), 0)::bigint AS balance,
  coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.user_id = u.id AND a.kind = 'invested'), 0)::bigint AS invested,
  coalesce(ut.earnings, 0) AS total_earnings, coalesce(ut.referral_rewards, 0) AS referral_rewards,
  coalesce(ut.deposits, 0) AS total_deposits, coalesce(ut.adjustments, 0) AS total_adjustments`;

const USER_TOTALS_JOIN = sql`LEFT JOIN user_totals ut ON ut.user_id = u.id`;

const USER_COLUMNS = sql`u.id, u.first_name, u.last_name, u.email, u.phone_country_code, u.phone_number, u.is_admin, u.is_blocked,
  u.withdrawals_frozen, u.created_at, u.withdrawal_wallet, u.created_at::text AS cur`;

function toAdminUser(r: RawUser): AdminUserRow {
  return {
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    phoneCountryCode: r.phone_country_code,
    phoneNumber: r.phone_number,
    isAdmin: r.is_admin,
    isBlocked: r.is_blocked,
    withdrawalsFrozen: r.withdrawals_frozen,
    createdAt: r.created_at.toISOString(),
    withdrawalWallet: r.withdrawal_wallet,
    balance: r.balance,
    invested: r.invested,
    totalEarnings: r.total_earnings,
    referralRewards: r.referral_rewards,
    totalDeposits: r.total_deposits,
    totalAdjustments: r.total_adjustments,
    cursor: r.cur,
  };
}

/**
 * Newest users first, one keyset page, with their account figures. The total counts every user on the primary
 * key without a search; with one, the matching rows (the trigram index finds them).
 */
export async function usersPage(
  db: Db,
  opts: { search?: string; page: PageRequest },
): Promise<{ rows: AdminUserRow[]; total: number; nextCursor: string | null; prevCursor: string | null }> {
  const filter = userFilter(opts.search);
  let total: number;
  if (opts.search) {
    const [c] = await rawRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM users u WHERE ${filter}`);
    total = Number(c?.n ?? 0);
  } else total = await userCount(db);
  const page = await keysetPage<RawUser & { k: string[] }>(
    db,
    {
      from: sql`users u`,
      where: filter,
      key: [
        { expr: sql`u.created_at`, type: 'timestamptz' },
        { expr: sql`u.id`, type: 'uuid' },
      ],
      rows: sql`SELECT ${USER_COLUMNS}, ${USER_FIGURES}, pk.k FROM page_keys pk JOIN users u ON u.id = pk.k1 ${USER_TOTALS_JOIN}
             ORDER BY pk.ord`,
    },
    opts.page,
    total,
  );
  return { ...page, rows: page.rows.map(toAdminUser), total };
}

/** One keyset batch of users in (created_at, id) order for the export. */
export async function userBatch(
  db: Db,
  search: string | undefined,
  after: { cursor: string; id: string } | null,
  limit: number,
): Promise<AdminUserRow[]> {
  const where = [userFilter(search)];
  if (after) where.push(sql`(u.created_at, u.id) > (${after.cursor}::timestamptz, ${after.id}::uuid)`);
  const rows = await rawRows<RawUser>(
    db,
    sql`SELECT ${USER_COLUMNS}, ${USER_FIGURES}
        FROM (SELECT * FROM users u WHERE ${sql.join(where, sql` AND `)} ORDER BY u.created_at, u.id LIMIT ${limit}) u
        ${USER_TOTALS_JOIN}
        ORDER BY u.created_at, u.id`,
  );
  return rows.map(toAdminUser);
}

export async function userRef(db: Db, id: string) {
  const [r] = await rawRows<{ id: string; first_name: string; last_name: string; email: string }>(
    db,
    sql`SELECT id, first_name, last_name, email FROM users WHERE id = ${id}::uuid`,
  );
  return r ? { id: r.id, firstName: r.first_name, lastName: r.last_name, email: r.email } : undefined;
}

/** Rewards a user earned, per level (the network itself comes from the referrals module). */
export async function rewardsByLevel(db: Db, userId: string) {
  const rows = await rawRows<{ level: number; n: number; total: bigint }>(
    db,
    sql`SELECT level, count(*)::int AS n, coalesce(sum(amount), 0)::bigint AS total FROM referral_rewards WHERE user_id = ${userId}::uuid GROUP BY level ORDER BY level`,
  );
  return rows.map((r) => ({ level: Number(r.level), count: Number(r.n), total: r.total }));
}
