import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers.ts';
import { startSmtp } from '../../test/smtp.ts';
import { buildApp } from '../app.ts';
import { checkLedger } from '../ledger/check.ts';
import { SettableClock } from '../lib/clock.ts';
import { MIGRATIONS_DIR, SERVER_DIR } from '../lib/paths.ts';
import type { Db } from './client.ts';
import { PGLITE_OPTIONS, wrapPglite } from './pglite.ts';
import { rawRows } from './raw.ts';

/**
 * The baseline migration (docs/decisions/0082) on a database made by the 29 migrations it replaced: the embedded
 * database of test/fixtures/pre-baseline.tar.br, created and filled through the API by that code
 * (scripts/upgrade-fixture.ts). Its users' password is the one that script gives them.
 */
const FIXTURE = path.join(SERVER_DIR, 'test/fixtures/pre-baseline.tar.br');
const PASSWORD = 'fixture-pass-1';

/** Our objects as catalog text, columns in their order (dropped ones left out, as pg_dump -s does). */
const SCHEMA = sql`
  SELECT 'column ' || c.relname || '.' || row_number() OVER (PARTITION BY c.oid ORDER BY a.attnum) || ' ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
         || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
         || CASE WHEN a.attgenerated <> '' THEN ' generated' ELSE '' END AS line
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'S', 'c') AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
  UNION ALL SELECT 'function ' || p.oid::regprocedure || ' ' || md5(pg_get_functiondef(p.oid))
    FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
     AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.objid = p.oid AND e.deptype = 'e')
  UNION ALL SELECT 'trigger ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'view ' || viewname || ' ' || md5(definition) FROM pg_views WHERE schemaname = 'public'
  UNION ALL SELECT 'sequence ' || sequencename || ' ' || start_value || ' ' || min_value || ' ' || increment_by
    FROM pg_sequences WHERE schemaname = 'public'
  UNION ALL SELECT 'type ' || typname FROM pg_type WHERE typnamespace = 'public'::regnamespace AND typtype = 'c'
    AND typrelid NOT IN (SELECT oid FROM pg_class WHERE relkind <> 'c')
  UNION ALL SELECT 'extension ' || extname FROM pg_extension
  ORDER BY 1`;

const schemaOf = async (db: Db) => (await rawRows<{ line: string }>(db, SCHEMA)).map((r) => r.line);

const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};
const AFTER_BASELINE = journal.entries.filter((e) => e.tag !== '0000_baseline').length;

let old: PGlite;
let fresh: PGlite;

beforeAll(async () => {
  const tar = zlib.brotliDecompressSync(readFileSync(FIXTURE));
  old = await PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: new Blob([tar]) });
  // A new database: the run's migrated template, or (a run on PostgreSQL makes none) one migrated here.
  const template = process.env.HF_PGLITE_TEMPLATE;
  fresh = await PGlite.create({
    ...PGLITE_OPTIONS,
    ...(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}),
  });
  await wrapPglite(fresh).migrate();
});
afterAll(async () => {
  await old?.close();
  await fresh?.close();
});

describe('the baseline migration', () => {
  it('is skipped on a database the old migrations made, which then has exactly the schema of a new one', async () => {
    const applied = async () => (await old.query(`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)).rows;
    expect(await applied()).toEqual([{ n: 29 }]);
    const database = wrapPglite(old);
    await database.migrate();
    // The 29, then every migration after the baseline; never the baseline itself.
    expect(await applied()).toEqual([{ n: 29 + AFTER_BASELINE }]);
    const upgraded = await schemaOf(database.db);
    expect(upgraded.length).toBeGreaterThan(400);
    expect(upgraded).toEqual(await schemaOf(wrapPglite(fresh).db));
  });

  it('leaves the old books balanced, the rollups equal to the raw rows, and the investors their money', async () => {
    const database = wrapPglite(old);
    await database.migrate();
    const counts = await rawRows<Record<string, number>>(
      database.db,
      sql`SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM deposits) AS deposits,
        (SELECT count(*)::int FROM cycle_earnings) AS earnings, (SELECT count(*)::int FROM referral_rewards) AS rewards,
        (SELECT count(DISTINCT status)::int FROM withdrawals) AS withdrawal_states, (SELECT count(*)::int FROM rollups) > 0 AS rolled`,
    );
    // Five deposits and the administrator's credit (a deposits row of type admin_credit).
    expect(counts).toEqual([{ users: 5, deposits: 6, earnings: 5, rewards: 6, withdrawal_states: 3, rolled: true }]);
    // ledger:check's rules, the rollups and each user's totals against a rebuild from the raw rows among them.
    expect(await checkLedger(database.db)).toEqual([]);

    const smtp = await startSmtp();
    const clock = new SettableClock();
    clock.set(new Date('2026-11-09T10:00:00Z'));
    const config = testConfig(smtp.url);
    const { app } = await buildApp({ config, database, secret: config.JWT_SECRET ?? '', clock });
    try {
      // Every committed migration counts as applied: the baseline's journal time is the old last one's.
      expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
      const summary = async (email: string) => {
        const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: PASSWORD } });
        expect(login.statusCode).toBe(200);
        const res = await app.inject({
          method: 'GET',
          url: '/api/user/dashboard',
          headers: { authorization: `Bearer ${login.json().token}` },
        });
        expect(res.statusCode).toBe(200);
        return res.json().accountSummary;
      };
      // Carol: 120 deposited, set to 150 by the admin, 100 invested; 10% of Dave's 1,000 as her reward.
      expect(await summary('carol@example.com')).toMatchObject({
        balance: 50,
        totalInvestment: 100,
        referralRewards: 100,
        availableToWithdraw: 150,
      });
      // Dave: 1,000 invested in Gold (2.5% a day), two cycles earned, all of it asked for and not yet approved.
      expect(await summary('dave@example.com')).toMatchObject({
        balance: 0,
        totalInvestment: 1000,
        totalEarnings: 50,
        availableToWithdraw: 0,
        pendingApproval: 50,
      });
    } finally {
      await app.close();
      await smtp.close();
    }
  });
});
