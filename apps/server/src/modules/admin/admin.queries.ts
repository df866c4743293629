import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedStatement, rawRows } from '../../db/raw.ts';
import { keysetPage, type Anchor, type PageRequest } from '../../db/keyset.ts';
import { counters, counterSql } from './rollups.queries.ts';

/**
 * Back-office reads. Every query is set-based and bounded: totals are single aggregates on
 * indexed columns, lists are one page (LIMIT) with per-row figures computed only for that
 * page, and exports walk the table in keyset batches.
 */

type Big = bigint | string | number;
type Ts = Date | string;
const big = (v: Big | null | undefined): bigint => (v === null || v === undefined ? 0n : BigInt(v));
const iso = (v: Ts): string => (v instanceof Date ? v : new Date(v)).toISOString();
const isoOrNull = (v: Ts | null): string | null => (v === null ? null : iso(v));

// ---------------------------------------------------------------- totals

export interface Totals {
  totalUsers: number;
  /** Confirmed demo and on-chain deposits (admin adjustments are not deposits). */
  totalDeposits: bigint;
  /** Admin balance adjustments, net of reductions. */
  totalAdjustments: bigint;
  totalInvestments: bigint;
  pendingDeposits: number;
  pendingWithdrawals: number;
}

const TOTAL_COUNTERS = [
  'users',
  'deposits.total_amount',
  'adjustments.total_amount',
  'investments.total_amount',
  'deposits.pending',
  'withdrawals.pending',
];

function toTotals(c: Record<string, bigint>): Totals {
  const n = (k: string) => c[k] ?? 0n;
  return {
    totalUsers: Number(n('users')),
    totalDeposits: n('deposits.total_amount'),
    totalAdjustments: n('adjustments.total_amount'),
    totalInvestments: n('investments.total_amount'),
    pendingDeposits: Number(n('deposits.pending')),
    pendingWithdrawals: Number(n('withdrawals.pending')),
  };
}

/** The platform's totals from the rollup counters (a few dozen rows, whatever the number of users). */
export async function platformTotals(db: Db): Promise<Totals> {
  return toTotals(await counters(db, TOTAL_COUNTERS));
}

// ---------------------------------------------------------------- deposits & withdrawals with their user

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
  amount: Big;
  status: DepositRow['status'];
  type: DepositRow['type'];
  tx_hash: string | null;
  from_address: string | null;
  confirmations: number;
  failure_reason: string | null;
  note: string | null;
  created_at: Ts;
  processed_at: Ts | null;
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
    amount: big(r.amount),
    status: r.status,
    type: r.type,
    txHash: r.tx_hash,
    fromAddress: r.from_address,
    confirmations: Number(r.confirmations),
    failureReason: r.failure_reason,
    note: r.note,
    createdAt: iso(r.created_at),
    processedAt: isoOrNull(r.processed_at),
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
  amount: Big;
  fee_amount: Big;
  net_amount: Big;
  cycle_number: number | null;
  wallet_address: string;
  requested_at: Ts;
  processed_at: Ts | null;
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
    amount: big(r.amount),
    feeAmount: big(r.fee_amount),
    netAmount: big(r.net_amount),
    cycleNumber: r.cycle_number === null ? null : Number(r.cycle_number),
    walletAddress: r.wallet_address,
    requestedAt: iso(r.requested_at),
    processedAt: isoOrNull(r.processed_at),
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

// ---------------------------------------------------------------- analytics

/** One day's sums per metric (a metric without rows is absent: 0). */
export type DayMetrics = Map<string, bigint>;

const SERIES_METRICS = [
  'registrations',
  'investments.count',
  'investments.amount',
  'deposits.demo.count',
  'deposits.real.count',
  'deposits.demo.amount',
  'deposits.real.amount',
];

/** What the caller already holds: closed days `lo`..`hi` (inclusive) read under rollup version `version`. */
export interface HeldDays {
  version: bigint;
  lo: string;
  hi: string;
}

export interface SeriesRead {
  /** The rollup version this statement saw (docs/decisions/0048-analytics-closed-days-cache.md). */
  version: bigint;
  /** The first day that is not closed: min(the database's today - 1 in the rollups' zone, `endDay`). */
  liveFrom: string;
  /** Days from here to `endDay` were read; the days before it are the held ones. */
  readFrom: string;
  /** Figures of the days read that have any (a day without rows has none). */
  days: Map<string, DayMetrics>;
  totals: Totals;
}

const dayText = (col: SQL) => sql`to_char(${col}, 'YYYY-MM-DD')`;

/**
 * One statement (one snapshot) over the rollups for the platform days `startDay`..`endDay` (`endDay`
 * is the app's today): the rollup version, the first live day, the all-time totals, and the days'
 * figures from `readFrom` on. The closed days before it are not read when `held` has them under the
 * version the statement sees (the analytics cache); otherwise every day of the period is read.
 * O(days) whatever the number of users. Deposits Received are confirmed demo and on-chain deposits,
 * dated by confirmation.
 */
const analyticsStatement = preparedStatement<{
  version: string;
  live_from: string;
  read_from: string;
  day: string | null;
  metric: string | null;
  n: string | null;
  totals: Record<string, string> | string;
}>(() => {
  const start = sql`${sql.placeholder('start')}::date`;
  const end = sql`${sql.placeholder('end')}::date`;
  const hi = sql`${sql.placeholder('heldHi')}::date`;
  return sql`WITH b AS (SELECT v, least(hf_rollup_today() - 1, ${end}) AS live_from FROM rollup_version),
         r AS (SELECT v, live_from,
                      CASE WHEN v = ${sql.placeholder('heldVersion')}::bigint AND ${sql.placeholder('heldLo')}::date <= ${start}
                                AND ${start} <= ${hi} + 1
                           THEN greatest(${start}, least(live_from, ${hi} + 1)) ELSE ${start} END AS read_from
               FROM b),
         agg AS (SELECT day, metric, sum(n) AS n FROM rollups
                 WHERE metric IN (${sql.join(
                   SERIES_METRICS.map((m) => sql`${m}`),
                   sql`, `,
                 )}) AND day >= (SELECT read_from FROM r) AND day <= ${end} GROUP BY 1, 2)
        SELECT r.v::text AS version, ${dayText(sql`r.live_from`)} AS live_from, ${dayText(sql`r.read_from`)} AS read_from,
               ${dayText(sql`agg.day`)} AS day, agg.metric, agg.n::text AS n, ${counterSql(TOTAL_COUNTERS)} AS totals
        FROM r LEFT JOIN agg ON true`;
});

export async function analyticsRead(
  db: Db,
  startDay: string,
  endDay: string,
  held: HeldDays | null,
): Promise<SeriesRead> {
  const rows = await analyticsStatement(db, {
    start: startDay,
    end: endDay,
    heldVersion: held?.version.toString() ?? null,
    heldLo: held?.lo ?? null,
    heldHi: held?.hi ?? null,
  });
  const first = rows[0];
  if (!first) throw new Error('rollup_version has no row');
  const days = new Map<string, DayMetrics>();
  for (const r of rows) {
    if (r.day === null || r.metric === null) continue;
    const m = days.get(r.day) ?? new Map<string, bigint>();
    m.set(r.metric, big(r.n));
    days.set(r.day, m);
  }
  const c = typeof first.totals === 'string' ? (JSON.parse(first.totals) as Record<string, string>) : first.totals;
  return {
    version: BigInt(first.version),
    liveFrom: first.live_from,
    readFrom: first.read_from,
    days,
    totals: toTotals(Object.fromEntries(TOTAL_COUNTERS.map((k) => [k, BigInt(c[k] ?? 0)]))),
  };
}

// ---------------------------------------------------------------- users

export interface AdminUserRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneCountryCode: string | null;
  phoneNumber: string | null;
  isAdmin: boolean;
  isBlocked: boolean;
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

function userFilter(search: string | undefined): SQL {
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
  created_at: Ts;
  withdrawal_wallet: string | null;
  cur: string;
  balance: Big;
  invested: Big;
  total_earnings: Big;
  referral_rewards: Big;
  total_deposits: Big;
  total_adjustments: Big;
}

/**
 * Account figures for the users of one page only: the two balances from the ledger's accounts, the lifetime sums
 * from the user's `user_totals` row (migration 0019; no row yet reads as zeros). Needs `USER_TOTALS_JOIN`.
 */
const USER_FIGURES = sql`
  coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.user_id = u.id AND a.kind = 'balance'), 0)::bigint AS balance,
  coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.user_id = u.id AND a.kind = 'invested'), 0)::bigint AS invested,
  coalesce(ut.earnings, 0) AS total_earnings, coalesce(ut.referral_rewards, 0) AS referral_rewards,
  coalesce(ut.deposits, 0) AS total_deposits, coalesce(ut.adjustments, 0) AS total_adjustments`;

const USER_TOTALS_JOIN = sql`LEFT JOIN user_totals ut ON ut.user_id = u.id`;

const USER_COLUMNS = sql`u.id, u.first_name, u.last_name, u.email, u.phone_country_code, u.phone_number, u.is_admin, u.is_blocked,
  u.created_at, u.withdrawal_wallet, u.created_at::text AS cur`;

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
    createdAt: iso(r.created_at),
    withdrawalWallet: r.withdrawal_wallet,
    balance: big(r.balance),
    invested: big(r.invested),
    totalEarnings: big(r.total_earnings),
    referralRewards: big(r.referral_rewards),
    totalDeposits: big(r.total_deposits),
    totalAdjustments: big(r.total_adjustments),
    cursor: r.cur,
  };
}

/** The hour-of-day registrations metrics (migration 0017): whole hours since the platform day's start, 00-24. */
const REGISTRATION_HOURS = sql.raw(
  Array.from({ length: 25 }, (_, h) => `'registrations.h${String(h).padStart(2, '0')}'`).join(', '),
);

/**
 * The hour of the platform day holding the user `offset` rows from the newest (or, ascending, the oldest) end,
 * from the registrations rollups (users per platform day, and per hour since that day's start, of `created_at`
 * in the rollups' time zone, kept in the same transaction as the users rows): first the day, then the hour in
 * it, so a page number walks at most one hour's users, not the whole list. Decisions 0049 and 0057.
 * An hour is a span of elapsed time from the day's start (a day is 23 to 25 of them where clocks change).
 */
function registrationHourAnchor(ascending: boolean, offset: number): Anchor {
  const dir = sql.raw(ascending ? 'ASC' : 'DESC');
  const off = sql`${offset}::bigint`;
  return {
    cte: sql`WITH d AS (SELECT r.day, r.n, sum(r.n) OVER (ORDER BY r.day ${dir}) - r.n AS before_n
                        FROM (SELECT day, sum(n) AS n FROM rollups WHERE metric = 'registrations' GROUP BY day) r),
                  dd AS (SELECT day, before_n FROM d WHERE before_n <= ${off} AND before_n + n > ${off}),
                  h AS (SELECT substr(r.metric, 16)::int AS hour, sum(r.n) AS n FROM rollups r
                        WHERE r.metric IN (${REGISTRATION_HOURS}) AND r.day = (SELECT day FROM dd) GROUP BY 1),
                  hh AS (SELECT hour, n, sum(n) OVER (ORDER BY hour ${dir}) - n AS before_n FROM h)
             SELECT z.start + make_interval(hours => hh.hour) AS lo, z.start + make_interval(hours => hh.hour + 1) AS hi,
                    (${off} - dd.before_n - hh.before_n)::bigint AS skip
             FROM dd, hh, LATERAL (SELECT dd.day::timestamp AT TIME ZONE hf_rollup_tz() AS start) z
             WHERE dd.before_n + hh.before_n <= ${off} AND dd.before_n + hh.before_n + hh.n > ${off}`,
    cond: ascending
      ? sql`u.created_at >= (SELECT lo FROM page_anchor)`
      : sql`u.created_at < (SELECT hi FROM page_anchor)`,
    skip: sql`(SELECT skip FROM page_anchor)`,
  };
}

/**
 * Newest users first, one keyset page, with their account figures. The total is the `users` counter
 * without a search; with one, the matching rows are counted (the trigram index finds them).
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
  } else total = Number((await counters(db, ['users'])).users ?? 0n);
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
      // The whole list (no search) is counted per platform day and hour by the registrations rollups.
      anchor: opts.search ? undefined : registrationHourAnchor,
      // Without a search the statement's text is one of a few and its plan the same for every page.
      prepared: !opts.search,
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

// ---------------------------------------------------------------- referral rewards by level

/** Rewards a user earned, per level (the network itself comes from the referrals module). */
export async function rewardsByLevel(db: Db, userId: string) {
  const rows = await rawRows<{ level: number; n: number; total: Big }>(
    db,
    sql`SELECT level, count(*)::int AS n, coalesce(sum(amount), 0)::bigint AS total FROM referral_rewards WHERE user_id = ${userId}::uuid GROUP BY level ORDER BY level`,
  );
  return rows.map((r) => ({ level: Number(r.level), count: Number(r.n), total: big(r.total) }));
}

// ---------------------------------------------------------------- audit log

export interface AuditFilter {
  action?: string;
  adminId?: string;
  targetId?: string;
}

function auditWhere(f: AuditFilter): SQL {
  const parts: SQL[] = [sql`TRUE`];
  if (f.action) parts.push(sql`a.action = ${f.action}`);
  if (f.adminId) parts.push(sql`a.admin_id = ${f.adminId}::uuid`);
  if (f.targetId) parts.push(sql`a.target_id = ${f.targetId}`);
  return sql.join(parts, sql` AND `);
}

/**
 * Newest entries first, one keyset page. The total is a counter (`audit`, `audit.<action>`) unless
 * an administrator or a target narrows the list (then those rows are counted).
 */
export async function auditPage(db: Db, f: AuditFilter, page: PageRequest) {
  const where = auditWhere(f);
  let total: number;
  if (f.adminId || f.targetId) {
    const [c] = await rawRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_log a WHERE ${where}`);
    total = Number(c?.n ?? 0);
  } else {
    const name = f.action ? `audit.${f.action}` : 'audit';
    total = Number((await counters(db, [name]))[name] ?? 0n);
  }
  const res = await keysetPage<{
    id: number | string;
    action: string;
    target_type: string;
    target_id: string;
    before: unknown;
    after: unknown;
    note: string | null;
    ip: string | null;
    created_at: Ts;
    admin_id: string;
    first_name: string;
    last_name: string;
    email: string;
    subject_id: string | null;
    subject_first_name: string | null;
    subject_last_name: string | null;
    subject_email: string | null;
    tier_name: string | null;
    k: string[];
  }>(
    db,
    {
      from: sql`audit_log a`,
      where,
      key: [
        { expr: sql`a.created_at`, type: 'timestamptz' },
        { expr: sql`a.id`, type: 'bigint' },
      ],
      // Who the action concerns (the user, or the owner of the deposit or withdrawal) and the tier's name, so the
      // log reads in names rather than ids. Each CASE casts only ids of its own kind (an export's target is a word).
      rows: sql`SELECT a.id, a.action, a.target_type, a.target_id, a.before, a.after, a.note, a.ip, a.created_at,
                       u.id AS admin_id, u.first_name, u.last_name, u.email, pk.k,
                       s.id AS subject_id, s.first_name AS subject_first_name, s.last_name AS subject_last_name,
                       s.email AS subject_email, t.name AS tier_name
                FROM page_keys pk JOIN audit_log a ON a.id = pk.k1 JOIN users u ON u.id = a.admin_id
                LEFT JOIN users s ON s.id = CASE a.target_type
                  WHEN 'user' THEN a.target_id::uuid
                  WHEN 'deposit' THEN (SELECT d.user_id FROM deposits d WHERE d.id = a.target_id::uuid)
                  WHEN 'withdrawal' THEN (SELECT w.user_id FROM withdrawals w WHERE w.id = a.target_id::uuid)
                END
                LEFT JOIN tiers t ON t.id = CASE WHEN a.target_type = 'tier' THEN a.target_id::uuid END
                ORDER BY pk.ord`,
    },
    page,
    total,
  );
  return {
    total,
    nextCursor: res.nextCursor,
    prevCursor: res.prevCursor,
    rows: res.rows.map((r) => ({
      id: String(r.id),
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      before: r.before,
      after: r.after,
      note: r.note,
      ip: r.ip,
      createdAt: iso(r.created_at),
      admin: { id: r.admin_id, firstName: r.first_name, lastName: r.last_name, email: r.email },
      subject:
        r.subject_id === null
          ? null
          : {
              id: r.subject_id,
              firstName: r.subject_first_name ?? '',
              lastName: r.subject_last_name ?? '',
              email: r.subject_email ?? '',
            },
      tierName: r.tier_name,
    })),
  };
}

/** Distinct audit actions by a loose index scan on audit_log_action_idx (one probe per action, not per row). */
export async function auditActions(db: Db): Promise<string[]> {
  const rows = await rawRows<{ action: string }>(
    db,
    sql`WITH RECURSIVE t AS (
          SELECT min(action) AS action FROM audit_log
          UNION ALL
          SELECT (SELECT min(a.action) FROM audit_log a WHERE a.action > t.action) FROM t WHERE t.action IS NOT NULL
        ) SELECT action FROM t WHERE action IS NOT NULL`,
  );
  return rows.map((r) => r.action);
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
