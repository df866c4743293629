import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  isPostgres,
  makeUser,
  TEST_SECRET,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { seedDeposit, seedInvestment, seedTier, setCreatedAt } from '../../../test/support/money.ts';
import { buildApp } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import { openPostgres, type Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { inTransaction } from '../../db/tx.ts';
import { checkLedger } from '../../ledger/check.ts';
import { analytics } from './admin.service.ts';
import { rebuildRollups, syncRollupTimezone } from './rollups.queries.ts';

/**
 * The analytics cache of closed days (docs/decisions/0048-analytics-closed-days-cache.md): the
 * figures an instance serves equal what a cold read computes after every kind of change, and the
 * rollup version moves exactly when a closed day changes.
 */
let t: TestApp;
let admin: TestUser;
let ann: TestUser;

const DAY = 86_400_000;
/** Noon UTC (the platform zone here) n days before the real today: the database's clock is real. */
const daysAgo = (n: number, hour = 12) => {
  const d = new Date(Date.now() - n * DAY);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};
const M = (usdc: number) => BigInt(Math.round(usdc * 1_000_000));
const hash = () => `0x${randomBytes(32).toString('hex')}`;

const version = async (db: Db = t.ctx.db) =>
  (await rawRows<{ v: string }>(db, sql`SELECT v::text AS v FROM rollup_version`))[0]?.v;
/** What this instance serves (its cache warm after the first read). */
const served = async (period = 90, app: TestApp['app'] = t.app) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/user/admin/analytics?period=${period}`,
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(res.statusCode).toBe(200);
  return JSON.parse(res.body) as Awaited<ReturnType<typeof analytics>>;
};
/** The same request's answer, as JSON, with an empty cache (a context the cache has never seen). */
const cold = async (period = 90, ctx: AppContext = t.ctx) =>
  JSON.parse(JSON.stringify(await analytics({ ...ctx }, period))) as Awaited<ReturnType<typeof analytics>>;
const expectAsCold = async (period = 90) => {
  const warm = await served(period);
  expect(warm).toEqual(await cold(period));
  return warm;
};
const registrations = (a: { userGrowth: { _id: string; count: number }[] }, iso: string) =>
  a.userGrowth.find((d) => d._id === iso.slice(0, 10))?.count;

/** Removes a user who has nothing but the accounts every user gets (the app itself never deletes users). */
async function deleteUser(db: Db, userId: string) {
  await inTransaction(db, async (tx) => {
    await tx.execute(sql`DELETE FROM ledger_accounts WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM users WHERE id = ${userId}`);
  });
}

async function oldUser(when: string) {
  const u = await makeUser(t);
  await setCreatedAt(t, u.user.id, when);
  return u;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t, { isAdmin: true });
  ann = await makeUser(t);
  await setCreatedAt(t, admin.user.id, daysAgo(200));
  await setCreatedAt(t, ann.user.id, daysAgo(60));
  for (const n of [3, 10, 10, 40]) await oldUser(daysAgo(n));
  await seedDeposit(t, ann.user.id, { amount: M(50), at: daysAgo(12) });
  // 05:00 UTC: the previous day in Honolulu (UTC-10), for the time-zone rebuild below.
  await seedDeposit(t, ann.user.id, { amount: M(7), at: daysAgo(5, 5) });
  const tier = await seedTier(t, { amount: M(25), rateScaled: 10000 });
  await seedInvestment(t, ann.user.id, tier, { at: daysAgo(4) });
});
afterAll(() => t.close());

describe('the rollup version', () => {
  it("is left alone by today's ordinary writes, by updates that change no figure and by counters", async () => {
    const before = await version();
    const bo = await makeUser(t); // a registration today
    await fund(t, bo.user.id, M(100));
    const sub = await call(t, 'POST', '/api/user/process-deposit', {
      token: bo.token,
      body: { txHash: hash(), amount: 12.5, fromAddress: `0x${'ab'.repeat(20)}` },
    });
    expect(sub.statusCode).toBe(200); // a pending deposit: a counter only
    const ok = await call(t, 'POST', '/api/admin/process-deposit', {
      token: admin.token,
      body: { depositId: sub.data.deposit._id },
    });
    expect(ok.statusCode).toBe(200); // confirmed today
    await seedInvestment(t, bo.user.id, await seedTier(t, { amount: M(10), rateScaled: 10000 }));
    // An old user's row updated without moving any figure (deltas -1 and +1 on the same old day).
    await t.ctx.db.execute(sql`UPDATE users SET first_name = 'Renamed' WHERE id = ${ann.user.id}`);
    expect(await version()).toBe(before);
    await expectLedgerClean(t);
  });

  it('moves for a deleted old user, a backdated row, a write dated yesterday and a rebuild', async () => {
    const gone = await oldUser(daysAgo(30));
    let v = BigInt((await version()) ?? 0);
    const moved = async () => {
      const now = BigInt((await version()) ?? 0);
      const was = v;
      v = now;
      return now > was;
    };
    await deleteUser(t.ctx.db, gone.user.id);
    expect(await moved()).toBe(true);
    await seedDeposit(t, ann.user.id, { amount: M(1), at: daysAgo(20) });
    expect(await moved()).toBe(true);
    await seedDeposit(t, ann.user.id, { amount: M(1), at: daysAgo(1) });
    expect(await moved()).toBe(true);
    await rebuildRollups(t.ctx.db);
    expect(await moved()).toBe(true);
  });

  // Before migration 0020 the first writer's trigger took the version row mid-transaction: here the second writer
  // then waited for it while the first waited for the second's user, and PostgreSQL broke the cycle with 40P01.
  it.runIf(isPostgres)(
    "is raised at COMMIT: two writers of closed days that wait for each other's users do not deadlock",
    async () => {
      const a = await oldUser(daysAgo(30));
      const b = await oldUser(daysAgo(45));
      const before = BigInt((await version()) ?? 0);
      const [one, two] = [
        new pg.Client({ connectionString: t.database.url }),
        new pg.Client({ connectionString: t.database.url }),
      ];
      await Promise.all([one.connect(), two.connect()]);
      try {
        const pid = (await one.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
        const backdate = `UPDATE users SET created_at = created_at - interval '1 day' WHERE id = $1`;
        await one.query('BEGIN');
        await two.query('BEGIN');
        await two.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [b.user.id]); // as the ledger locks a user
        await one.query(backdate, [a.user.id]); // a closed day changes
        const oneWaits = one.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [b.user.id]).then(
          () => 'locked',
          (err: { code?: string }) => `failed ${err.code}`,
        );
        await expect
          .poll(
            async () =>
              (
                await rawRows<{ w: string | null }>(
                  t.ctx.db,
                  sql`SELECT wait_event_type AS w FROM pg_stat_activity WHERE pid = ${pid}`,
                )
              )[0]?.w,
          )
          .toBe('Lock');
        await two.query(backdate, [b.user.id]); // another closed day changes
        expect(await version()).toBe(String(before)); // nothing is raised before a COMMIT
        await two.query('COMMIT');
        expect(await oneWaits).toBe('locked');
        await one.query('COMMIT');
        expect(BigInt((await version()) ?? 0)).toBe(before + 2n);
      } finally {
        await Promise.all([one.end(), two.end()]);
      }
      await expectLedgerClean(t);
    },
  );
});

describe('the cache serves what a cold read computes', () => {
  it('serves closed days from the cache while the version holds, and live days always fresh', async () => {
    const warm = await expectAsCold();
    const closed = daysAgo(10);
    const today = daysAgo(0);
    // Bypass the triggers: the rollups change, the version does not.
    await t.ctx.db.execute(
      sql`INSERT INTO rollups (metric, day, slot, n) VALUES ('registrations', ${closed.slice(0, 10)}::date, 0, 5),
                                                          ('registrations', ${today.slice(0, 10)}::date, 0, 5)
          ON CONFLICT (metric, day, slot) DO UPDATE SET n = rollups.n + 5`,
    );
    const after = await served();
    expect(registrations(after, closed)).toBe(registrations(warm, closed));
    expect(registrations(after, today)).toBe((registrations(warm, today) ?? 0) + 5);
    expect(registrations(await cold(), closed)).toBe((registrations(warm, closed) ?? 0) + 5);
    await t.ctx.db.execute(sql`UPDATE rollup_version SET v = v + 1`);
    expect(registrations(await served(), closed)).toBe((registrations(warm, closed) ?? 0) + 5);
    await rebuildRollups(t.ctx.db);
    expect(await expectAsCold()).toEqual(warm);
  });

  it('after a registration today', async () => {
    const before = await expectAsCold();
    await makeUser(t);
    const after = await expectAsCold();
    expect(registrations(after, daysAgo(0))).toBe((registrations(before, daysAgo(0)) ?? 0) + 1);
    expect(after.summary.totalUsers).toBe(before.summary.totalUsers + 1);
  });

  it('after an old user is deleted (a registration off an old day)', async () => {
    const old = await oldUser(daysAgo(25));
    const before = await expectAsCold();
    await deleteUser(t.ctx.db, old.user.id);
    const after = await expectAsCold();
    expect(registrations(after, daysAgo(25))).toBe((registrations(before, daysAgo(25)) ?? 0) - 1);
    for (const p of [7, 14, 30]) await expectAsCold(p);
  });

  it('after the rollups are rebuilt in another time zone, and back', async () => {
    const before = await expectAsCold();
    expect(await syncRollupTimezone(t.ctx.db, 'Pacific/Honolulu')).toBe(true);
    const moved = await expectAsCold();
    // The 05:00 UTC deposit now counts on the day before.
    expect(moved.depositTrends).not.toEqual(before.depositTrends);
    expect(await syncRollupTimezone(t.ctx.db, 'UTC')).toBe(true);
    expect(await expectAsCold()).toEqual(before);
  });

  it("when the test clock moves forward a day (the app's today becomes closed) and back", async () => {
    const setClock = async (at: number) => {
      t.clock.set(new Date(at));
      admin.token = await t.ctx.tokens.sign({ sub: admin.user.id, tv: admin.user.tokenVersion });
    };
    // The app five days behind the database: the app's today is the last live day.
    const base = Date.now() - 5 * DAY;
    await setClock(base);
    // A registration on the app's today (a closed day for the database: the version moves, the
    // cache refills up to the app's yesterday).
    await oldUser(daysAgo(5));
    const behind = await expectAsCold(7);
    expect(registrations(behind, daysAgo(5))).toBeGreaterThan(0);
    await setClock(base + DAY);
    const next = await expectAsCold(7);
    for (const k of ['userGrowth', 'depositTrends', 'investmentTrends'] as const)
      expect(next[k].slice(0, 6)).toEqual(behind[k].slice(1));
    await setClock(base - DAY);
    await expectAsCold(7);
    await expectAsCold(90);
    // Ahead of the database: the days it still calls live are read every time.
    await setClock(Date.now() + 3 * DAY);
    const ahead = await expectAsCold(7);
    const v = await version();
    const late = await makeUser(t);
    await setCreatedAt(t, late.user.id, daysAgo(-2));
    expect(await version()).toBe(v); // a day in the database's future is not closed
    const later = await expectAsCold(7);
    expect(registrations(later, daysAgo(-2))).toBe((registrations(ahead, daysAgo(-2)) ?? 0) + 1);
    await setClock(Date.now());
    await expectAsCold();
  });

  it('keeps the books balanced (rollups equal the raw rows); ledger:check reports a missing version row', async () => {
    await expectLedgerClean(t);
    const [row] = await rawRows<{ v: string }>(t.ctx.db, sql`DELETE FROM rollup_version RETURNING v::text AS v`);
    expect((await checkLedger(t.ctx.db)).map((x) => x.rule)).toEqual([
      'the rollup version is one row, with no raise left pending',
    ]);
    await t.ctx.db.execute(sql`INSERT INTO rollup_version (v) VALUES (${row?.v ?? '1'}::bigint)`);
    await expectLedgerClean(t);
  });

  it('ledger:check reports a raise of the version left pending after its COMMIT', async () => {
    const before = await version();
    await t.ctx.db.execute(sql`ALTER TABLE rollup_version_pending DISABLE TRIGGER rollup_version_pending_ins`);
    try {
      await t.ctx.db.execute(sql`INSERT INTO rollup_version_pending (tx) VALUES (42)`);
      expect(await checkLedger(t.ctx.db)).toEqual([
        {
          rule: 'the rollup version is one row, with no raise left pending',
          detail: 'a raise left pending by transaction 42',
        },
      ]);
      await t.ctx.db.execute(sql`DELETE FROM rollup_version_pending`);
    } finally {
      await t.ctx.db.execute(sql`ALTER TABLE rollup_version_pending ENABLE TRIGGER rollup_version_pending_ins`);
    }
    expect(await version()).toBe(before);
    await expectLedgerClean(t);
  });
});

describe(`two instances on one ${isPostgres ? 'PostgreSQL' : 'PGlite'} database`, () => {
  it("instance B deletes an old user: instance A's next read shows it", async () => {
    const url = t.database.url;
    const second = url ? openPostgres(url, 4) : t.database;
    const b = await buildApp({ config: t.ctx.config, database: second, secret: TEST_SECRET, clock: t.clock });
    try {
      const old = await oldUser(daysAgo(33));
      const before = await served(); // A caches day -33 with the user in it
      expect(await served(90, b.app)).toEqual(before);
      await deleteUser(b.ctx.db, old.user.id);
      const after = await served();
      expect(registrations(after, daysAgo(33))).toBe((registrations(before, daysAgo(33)) ?? 0) - 1);
      expect(after).toEqual(await cold(90, b.ctx));
      expect(await served(90, b.app)).toEqual(after);
    } finally {
      await b.app.close();
      if (url) await second.close();
    }
  });
});
