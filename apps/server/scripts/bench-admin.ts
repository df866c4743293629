/**
 * Back-office benchmark: seeds N users with deposits, investments, referral chains,
 * pending withdrawals and their ledger transactions, set-based (INSERT ... SELECT
 * generate_series), then times the admin overview, a users page, a deep users page, searches
 * and the 90-day analytics through the real app (app.inject: routing, auth, validation,
 * serialisation included). Not a test: it prints the times.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench npx tsx scripts/bench-admin.ts [N]
 *
 * Use a throwaway database: it adds N 'bench' users (skipped when they already exist).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { createAdmin } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { openPostgres } from '../src/db/client.ts';
import { rawRows } from '../src/db/raw.ts';
import { inTransaction } from '../src/db/tx.ts';
import { postMany, rowTransfers, type PostSet } from '../src/ledger/ledger.ts';
import { BENCH_APP_ENV } from './bench-lib.ts';

const N = Number(process.argv[2] ?? process.env.BENCH_USERS ?? 100_000);
const RUNS = 7;
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL (a throwaway PostgreSQL database) is required');
  process.exit(1);
}
if (!Number.isInteger(N) || N < 10) {
  console.error('N must be an integer >= 10');
  process.exit(1);
}

const database = openPostgres(url, 10);
const db = database.db;

async function step(label: string, q: ReturnType<typeof sql>) {
  const t0 = performance.now();
  await db.execute(q);
  console.log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function seed() {
  const [have] = await rawRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM users WHERE email LIKE 'bench%@bench.example'`,
  );
  if ((have?.n ?? 0) >= N) {
    console.log(`seed: ${have?.n} bench users already present`);
    return;
  }
  if ((have?.n ?? 0) > 0) throw new Error('a partial bench seed exists: use a fresh database');
  console.log(`seeding ${N} users ...`);
  await db.execute(
    sql`CREATE OR REPLACE FUNCTION bench_uuid(t text) RETURNS uuid IMMUTABLE LANGUAGE sql AS
        $$ SELECT (substr(md5(t), 1, 12) || '4' || substr(md5(t), 14, 3) || '8' || substr(md5(t), 18, 15))::uuid $$`,
  );
  // Deterministic ids shaped as UUID v4 (the API's id check wants the version and variant bits).
  const uid = (g: ReturnType<typeof sql>) => sql`bench_uuid('bench-user-' || ${g})`;
  // Users over the last 120 days; a binary referral tree (user g was invited by user g/2).
  await step(
    'users',
    sql`INSERT INTO users (id, email, first_name, last_name, password_hash, withdrawal_password_hash, phone_country_code, phone_number, invitation_code, referrer_id, created_at)
        SELECT ${uid(sql`g`)}, 'bench' || g || '@bench.example', 'First' || g, 'Last' || (g % 5000), 'x', 'x', '+1', '555' || lpad(g::text, 7, '0'),
               'BENCH' || g, CASE WHEN g > 1 THEN ${uid(sql`(g / 2)`)} END,
               now() - ((g % 120) || ' days')::interval - ((g % 86400) || ' seconds')::interval
        FROM generate_series(1, ${N}::int) g`,
  );
  await step(
    'ledger accounts',
    sql`INSERT INTO ledger_accounts (user_id, kind)
        SELECT u.id, k.kind FROM users u CROSS JOIN (VALUES ('balance'), ('rewards'), ('earnings'), ('invested'), ('pending_withdrawal')) AS k(kind)
        WHERE u.email LIKE 'bench%@bench.example' ON CONFLICT DO NOTHING`,
  );
  // One deposit per user: 90% confirmed (100..1000 USDC), 10% pending.
  await step(
    'deposits',
    sql`INSERT INTO deposits (id, user_id, amount, status, type, tx_hash, log_index, from_address, created_at, processed_at)
        SELECT md5('bench-dep-' || g)::uuid, ${uid(sql`g`)}, (120 + (g % 901)) * 1000000::bigint,
               CASE WHEN g % 10 = 0 THEN 'pending' ELSE 'confirmed' END, 'demo',
               '0x' || md5('h1' || g) || md5('h2' || g), 0, '0x' || substr(md5('a' || g), 1, 40),
               now() - ((g % 100) || ' days')::interval, CASE WHEN g % 10 = 0 THEN NULL ELSE now() END
        FROM generate_series(1, ${N}::int) g`,
  );
  await step(
    'bench tier',
    sql`INSERT INTO tiers (id, name, amount, daily_rate_scaled, sort_order) VALUES (md5('bench-tier')::uuid, 'Bench 100', 100000000, 15000, 999) ON CONFLICT DO NOTHING`,
  );
  // Every other confirmed depositor invests 100 USDC; rewards 10/3/1% up the referral tree.
  await step(
    'investments',
    sql`INSERT INTO investments (id, user_id, tier_id, tier_name, amount, daily_rate_scaled, created_at)
        SELECT md5('bench-inv-' || g)::uuid, ${uid(sql`g`)}, md5('bench-tier')::uuid, 'Bench 100', 100000000, 15000, now() - ((g % 90) || ' days')::interval
        FROM generate_series(1, ${N}::int) g WHERE g % 2 = 1 AND g % 10 <> 0`,
  );
  await step(
    'referral rewards',
    sql`INSERT INTO referral_rewards (user_id, from_user_id, investment_id, level, amount, created_at)
        SELECT ${uid(sql`(g / p.div)`)}, ${uid(sql`g`)}, md5('bench-inv-' || g)::uuid, p.level, p.amount, now() - ((g % 90) || ' days')::interval
        FROM generate_series(1, ${N}::int) g CROSS JOIN (VALUES (1, 2, 10000000::bigint), (2, 4, 3000000::bigint), (3, 8, 1000000::bigint)) AS p(level, div, amount)
        WHERE g % 2 = 1 AND g % 10 <> 0 AND g / p.div >= 1`,
  );
  // 3% of users have a pending balance withdrawal of 5 USDC.
  await step(
    'withdrawals',
    sql`INSERT INTO withdrawals (id, user_id, request_id, source, status, amount, fee_amount, net_amount, wallet_address, requested_at)
        SELECT md5('bench-wd-' || g)::uuid, ${uid(sql`g`)}, md5('bench-req-' || g)::uuid, 'balance', 'pending', 5000000, 0, 5000000,
               '0x' || substr(md5('w' || g), 1, 40), now() - ((g % 30) || ' days')::interval
        FROM generate_series(1, ${N}::int) g WHERE g % 33 = 1 AND g % 10 <> 0`,
  );
  // Ledger: one transaction per business row, posted set-based through postMany (balances included).
  const bench = sql`(SELECT id FROM users WHERE email LIKE 'bench%@bench.example')`;
  const sets: PostSet[] = [
    rowTransfers('deposit', 'deposits', {
      where: sql`t.status = 'confirmed' AND t.user_id IN ${bench}`,
      from: 'platform_deposits',
      to: 'balance',
    }),
    rowTransfers('investment', 'investments', {
      where: sql`t.tier_id = md5('bench-tier')::uuid`,
      from: 'balance',
      to: 'invested',
    }),
    rowTransfers('referral_reward', 'referral_rewards', {
      where: sql`t.investment_id IN (SELECT id FROM investments WHERE tier_id = md5('bench-tier')::uuid)`,
      from: 'platform_reward_expense',
      to: 'rewards',
    }),
    rowTransfers('withdrawal_hold', 'withdrawals', {
      where: sql`t.user_id IN ${bench}`,
      at: sql`t.requested_at`,
      from: 'balance',
      to: 'pending_withdrawal',
    }),
  ];
  for (const set of sets) {
    const t0 = performance.now();
    await inTransaction(db, (tx) => postMany(tx, set));
    console.log(`  ledger: ${set.kind}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await step('analyze', sql`ANALYZE`);
}

async function main() {
  await database.migrate();
  await seed();
  const [counts] = await rawRows<{ users: number; entries: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM ledger_entries)::int AS entries`,
  );
  console.log(`database: ${counts?.users} users, ${counts?.entries} ledger entries`);

  const config = loadConfig({
    ...process.env,
    ...BENCH_APP_ENV,
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
  });
  const secret = randomBytes(32).toString('hex');
  const { app, ctx } = await buildApp({ config, database, secret });
  await app.ready();
  const admin = await createAdmin(db, {
    email: `bench-admin-${Date.now()}@bench.example`,
    password: randomBytes(12).toString('hex'),
  });
  const token = await ctx.tokens.sign({ sub: admin.id, tv: admin.tokenVersion });
  // User 2 of the binary referral tree: a large three-level network.
  const [root] = await rawRows<{ id: string }>(
    db,
    sql`SELECT id::text AS id FROM users WHERE email = 'bench2@bench.example'`,
  );
  const rootId = root?.id ?? '';

  const cases: [string, string][] = [
    ['overview            ', '/api/admin/dashboard'],
    ['users page 1        ', '/api/admin/users?page=1&pageSize=25'],
    ['users page 2000     ', `/api/admin/users?page=${Math.max(1, Math.floor(N / 50))}&pageSize=25`],
    ['search e-mail       ', '/api/admin/users?search=bench4242%40'],
    ['search name         ', '/api/admin/users?search=Last777'],
    ['analytics 90 days   ', '/api/user/admin/analytics?period=90'],
    ['referral lookup     ', `/api/admin/users/${rootId}/referral-tree`],
    ['audit log page      ', '/api/admin/audit'],
  ];
  console.log(`\nmedian of ${RUNS} runs after one warm-up (ms):`);
  for (const [label, path] of cases) {
    const times: number[] = [];
    let status = 0;
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });
      status = res.statusCode;
      if (i > 0) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${label} ${String(status).padEnd(4)} median ${times[Math.floor(times.length / 2)]?.toFixed(1)}  max ${times[times.length - 1]?.toFixed(1)}`,
    );
  }
  await app.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
