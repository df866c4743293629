/**
 * `npm run seed:large [-- --users N]`: fills the database with a realistic platform for benchmarks,
 * with set-based SQL (INSERT ... SELECT generate_series), never one call per row:
 * N users in a referral forest, 2N deposits, 3N investments with cycle earnings, referral rewards on three
 * levels, N/2 earning withdrawals (approved, pending, rejected) and every ledger transaction they imply,
 * bulk-loaded one statement per kind, with secondary indexes and foreign keys built after the load
 * (seed-offline.ts: for an empty database only).
 * The ledger invariants hold afterwards (`npm run ledger:check`).
 * Defaults: 100k users on PostgreSQL (DATABASE_URL), 5k on the embedded PGlite.
 * Every seeded user signs in with the password `seed-password` (e-mail seedN@seed.harvest, N from 1);
 * their withdrawal password is `seed-withdrawal`.
 */
import { parseArgs } from 'node:util';
import { hash } from '@node-rs/argon2';
import { is, SQL, sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { rawRows } from '../src/db/raw.ts';
import { checkLedger } from '../src/ledger/check.ts';
import { rowTransfers, type PostSet } from '../src/ledger/ledger.ts';
import { systemClock } from '../src/lib/clock.ts';
import { seedTiers } from '../src/modules/tiers/tiers.seed.ts';
import { rebuildRollups } from '../src/ledger/rollups.queries.ts';
import {
  lastTransactionId,
  offlineBulkLoad,
  offlineDropSecondaryIndexes,
  offlineSettleBalances,
} from './seed-offline.ts';

/** A deterministic id shaped as an RFC 4122 version-4 UUID (the API's uuid validators refuse other shapes). */
const v4 = (hex: SQL) => sql`overlay(overlay(${hex} placing '4' from 13) placing '8' from 17)::uuid`;
const uid = (expr: SQL) => v4(sql`md5('hf-user-' || (${expr}))`);
/** One earning in four (of the first cycle) has a withdrawal. */
const withdrawn = (id: SQL) => sql`abs(hashtext(${id}::text || 'w')) % 4 = 0`;

async function seedLarge(db: Db, n: number, log: (s: string) => void = console.log): Promise<void> {
  const [{ count } = { count: 0 }] = await rawRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM users WHERE email LIKE '%@seed.harvest'`,
  );
  if (count > 0) throw new Error(`The database already holds ${count} seeded users: seed an empty database.`);
  await seedTiers(db, systemClock.now());
  const pw = await hash('seed-password');
  const wpw = await hash('seed-withdrawal');
  const span = 90 * 86400;

  const steps: [string, SQL | PostSet][] = [
    [
      'users (referral forest)',
      sql`INSERT INTO users (id, email, first_name, last_name, phone_country_code, phone_number, password_hash, withdrawal_password_hash, invitation_code, referrer_id, created_at)
        SELECT ${uid(sql`i`)}, 'seed' || i || '@seed.harvest', 'Seed' || i, 'User' || (i % 997), '+1', (5550000000 + i)::text, ${pw}, ${wpw},
          'S' || lpad(upper(to_hex(i)), 9, '0'),
          CASE WHEN i <= 300 THEN NULL ELSE ${uid(sql`1 + ((i::bigint * 2654435761) % (i - 1))`)} END,
          now() - make_interval(secs => (${n} - i)::double precision * ${span} / ${n})
        FROM generate_series(1, ${n}) AS i`,
    ],
    [
      'ledger accounts',
      sql`INSERT INTO ledger_accounts (user_id, kind)
        SELECT u.id, k FROM users u CROSS JOIN unnest(ARRAY['balance','rewards','earnings','invested','pending_withdrawal']) AS k WHERE u.email LIKE '%@seed.harvest'`,
    ],
    [
      'deposits',
      sql`INSERT INTO deposits (id, user_id, amount, status, type, tx_hash, from_address, failure_reason, created_at, processed_at)
        SELECT ${v4(sql`md5('hf-dep-' || i)`)}, ${uid(sql`((i - 1) % ${n}) + 1`)}, (4000 + (i * 37) % 3000)::bigint * 1000000,
          CASE WHEN i > ${n} AND i % 50 = 0 THEN 'failed' WHEN i > ${n} AND i % 33 = 0 THEN 'pending' ELSE 'confirmed' END, 'demo',
          '0x' || md5('tx-a' || i) || md5('tx-b' || i), '0x' || substr(md5('from' || i), 1, 40),
          CASE WHEN i > ${n} AND i % 50 = 0 THEN 'Transaction not found on Polygon' END,
          now() - make_interval(secs => ((2 * ${n} - i) % ${n})::double precision * ${span} / ${n}),
          CASE WHEN i <= ${n} OR (i % 50 <> 0 AND i % 33 <> 0) THEN now() - make_interval(secs => ((2 * ${n} - i) % ${n})::double precision * ${span} / ${n}) END
        FROM generate_series(1, 2 * ${n}) AS i`,
    ],
    [
      'investments',
      sql`INSERT INTO investments (id, user_id, tier_id, tier_name, amount, daily_rate_scaled, cycles_completed, earning_completed, total_earned, created_at)
        SELECT ${v4(sql`md5('hf-inv-' || i)`)}, ${uid(sql`((i - 1) % ${n}) + 1`)}, t.id, t.name, t.amount, t.daily_rate_scaled, i % 3, i % 3 > 0,
          (i % 3) * (t.amount * t.daily_rate_scaled / 1000000),
          now() - make_interval(secs => ((3 * ${n} - i) % ${n})::double precision * ${span} / ${n} * 0.9)
        FROM generate_series(1, 3 * ${n}) AS i
        JOIN (SELECT id, name, amount, daily_rate_scaled, row_number() OVER (ORDER BY amount) AS rn FROM tiers WHERE active AND amount <= 1000000000) t
          ON t.rn = 1 + (i % LEAST(4, (SELECT count(*) FROM tiers WHERE active AND amount <= 1000000000)))`,
    ],
    [
      // Whether an earning is requested is decided here by the same hashes as the withdrawals below
      // (a withdrawal that is not rejected marks its earning requested).
      'cycle earnings',
      sql`INSERT INTO cycle_earnings (id, investment_id, user_id, cycle_number, gross_amount, created_at, withdrawal_requested)
        SELECT e.id, e.investment_id, e.user_id, e.c, e.gross, e.created_at,
          e.c = 1 AND e.gross > 0 AND ${withdrawn(sql`e.id`)} AND abs(hashtext(e.id::text)) % 10 <> 1
        FROM (SELECT ${v4(sql`md5('hf-ce-' || inv.id || '-' || c)`)} AS id, inv.id AS investment_id, inv.user_id, c,
                inv.amount * inv.daily_rate_scaled / 1000000 AS gross, inv.created_at + make_interval(days => c) AS created_at
              FROM investments inv CROSS JOIN LATERAL generate_series(1, inv.cycles_completed) AS c) e`,
    ],
    [
      'referral rewards (three levels)',
      sql`INSERT INTO referral_rewards (user_id, from_user_id, investment_id, level, amount, created_at)
        SELECT r.referrer, i.user_id, i.id, r.level, i.amount * r.pct / 100, i.created_at
        FROM investments i JOIN users u0 ON u0.id = i.user_id
        LEFT JOIN users u1 ON u1.id = u0.referrer_id LEFT JOIN users u2 ON u2.id = u1.referrer_id
        CROSS JOIN LATERAL (VALUES (1, u0.referrer_id, 10), (2, u1.referrer_id, 3), (3, u2.referrer_id, 1)) AS r(level, referrer, pct)
        WHERE r.referrer IS NOT NULL AND i.amount * r.pct / 100 > 0`,
    ],
    [
      'earning withdrawals',
      sql`INSERT INTO withdrawals (id, user_id, request_id, source, status, amount, fee_amount, net_amount, cycle_earning_id, investment_id, cycle_number, wallet_address, requested_at, processed_at, tx_hash, notes)
        SELECT ${v4(sql`md5('hf-wd-' || ce.id)`)}, ce.user_id, ${v4(sql`md5('hf-req-' || ce.id)`)}, 'earning', s.status, ce.gross_amount,
          ce.gross_amount * 15 / 100, ce.gross_amount - ce.gross_amount * 15 / 100, ce.id, ce.investment_id, ce.cycle_number,
          '0x' || substr(md5('wallet' || ce.user_id), 1, 40), ce.created_at + interval '1 hour',
          CASE WHEN s.status <> 'pending' THEN ce.created_at + interval '5 hours' END,
          CASE WHEN s.status = 'approved' THEN '0x' || md5('pay-a' || ce.id) || md5('pay-b' || ce.id) END,
          CASE WHEN s.status = 'rejected' THEN 'Seeded rejection' END
        FROM cycle_earnings ce
        CROSS JOIN LATERAL (SELECT CASE WHEN abs(hashtext(ce.id::text)) % 10 = 0 THEN 'pending' WHEN abs(hashtext(ce.id::text)) % 10 = 1 THEN 'rejected' ELSE 'approved' END AS status) s
        WHERE ce.cycle_number = 1 AND ce.gross_amount > 0 AND ${withdrawn(sql`ce.id`)}`,
    ],
    [
      'payout hashes',
      sql`INSERT INTO payout_transactions (tx_hash, request_id, wallet_address) SELECT tx_hash, request_id, wallet_address FROM withdrawals WHERE status = 'approved' AND tx_hash IS NOT NULL`,
    ],
    // The ledger: one transaction per business row, bulk-loaded (one statement per kind; the cached
    // balances are set once at the end, and ledger:check verifies the whole ledger afterwards).
    [
      'ledger: deposits',
      rowTransfers('deposit', 'deposits', {
        where: sql`t.status = 'confirmed'`,
        at: sql`coalesce(t.processed_at, t.created_at)`,
        from: 'platform_deposits',
        to: 'balance',
      }),
    ],
    ['ledger: investments', rowTransfers('investment', 'investments', { from: 'balance', to: 'invested' })],
    [
      'ledger: rewards',
      rowTransfers('referral_reward', 'referral_rewards', { from: 'platform_reward_expense', to: 'rewards' }),
    ],
    [
      'ledger: earnings',
      rowTransfers('cycle_earning', 'cycle_earnings', {
        where: sql`t.gross_amount > 0`,
        amount: sql`t.gross_amount`,
        from: 'platform_earning_expense',
        to: 'earnings',
      }),
    ],
    [
      'ledger: holds',
      rowTransfers('withdrawal_hold', 'withdrawals', {
        at: sql`t.requested_at`,
        from: 'earnings',
        to: 'pending_withdrawal',
      }),
    ],
    [
      'ledger: payouts',
      {
        kind: 'withdrawal_payout',
        from: sql`withdrawals w`,
        where: sql`w.status = 'approved'`,
        refId: sql`w.id`,
        createdAt: sql`w.processed_at`,
        legs: [
          { account: { userId: sql`w.user_id`, kind: 'pending_withdrawal' }, amount: sql`-w.amount` },
          { account: { platform: 'platform_payouts' }, amount: sql`w.net_amount` },
          { account: { platform: 'platform_fees' }, amount: sql`w.fee_amount` },
        ],
      },
    ],
    [
      'ledger: releases',
      rowTransfers('withdrawal_release', 'withdrawals', {
        where: sql`t.status = 'rejected'`,
        at: sql`t.processed_at`,
        from: 'pending_withdrawal',
        to: 'earnings',
      }),
    ],
  ];

  const timed = async (name: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    log(`  ${name.padEnd(34)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
  };
  // The bulk load writes the ledger without postMany: the cached balances, then the user totals and
  // daily rollups, are computed once from its entries at the end. Secondary indexes and foreign keys of the
  // loaded tables are dropped for the load and built once after it (a foreign key re-added is validated by
  // one query over the whole table).
  const since = await lastTransactionId(db);
  const deferred = await offlineDropSecondaryIndexes(db, BULK_TABLES);
  try {
    for (const [name, step] of steps)
      await timed(name, () => (is(step, SQL) ? db.execute(step) : offlineBulkLoad(db, step)));
    await timed('ledger: cached balances', () => offlineSettleBalances(db, since));
  } finally {
    await timed(`indexes and keys (${deferred.length})`, async () => {
      for (const statement of deferred) await db.execute(sql.raw(statement));
    });
  }
  await timed('vacuum analyze', () => db.execute(sql`VACUUM ANALYZE`));
  await timed('user totals and rollups', () => rebuildRollups(db));
}

const BULK_TABLES = [
  'users',
  'ledger_accounts',
  'deposits',
  'investments',
  'cycle_earnings',
  'referral_rewards',
  'withdrawals',
  'payout_transactions',
  'ledger_transactions',
  'ledger_entries',
];

async function main() {
  const { values } = parseArgs({ options: { users: { type: 'string' } } });
  const config = loadConfig();
  const n = Number(values.users ?? (config.DATABASE_URL ? 100_000 : 5_000));
  if (!Number.isInteger(n) || n < 10) throw new Error('--users must be an integer >= 10');
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
  try {
    await database.migrate();
    console.log(
      `Seeding ${n} users on ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.DATA_DIR}`}...`,
    );
    const started = performance.now();
    await seedLarge(database.db, n);
    const counts = await rawRows<Record<string, number>>(
      database.db,
      sql`SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM deposits) AS deposits, (SELECT count(*)::int FROM investments) AS investments,
        (SELECT count(*)::int FROM cycle_earnings) AS cycle_earnings, (SELECT count(*)::int FROM referral_rewards) AS referral_rewards,
        (SELECT count(*)::int FROM withdrawals) AS withdrawals, (SELECT count(*)::int FROM ledger_transactions) AS ledger_transactions, (SELECT count(*)::int FROM ledger_entries) AS ledger_entries`,
    );
    console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s:`, counts[0]);
    const violations = await checkLedger(database.db);
    console.log(
      violations.length === 0
        ? 'Ledger check: no violations.'
        : `Ledger check: ${violations.length} violation(s): ${JSON.stringify(violations.slice(0, 5))}`,
    );
    if (violations.length > 0) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

await main();
