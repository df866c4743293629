import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
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
  sessionToken,
} from '../../../test/helpers.ts';
import { seedDeposit, seedInvestment, seedTier, setCreatedAt } from '../../../test/support/money.ts';
import { buildApp } from '../../app.ts';
import { openPostgres, type Db } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { analytics } from './admin.service.ts';
import { rebuildRollups, syncRollupTimezone } from '../../ledger/rollups.queries.ts';

/**
 * The analytics answer follows every kind of change at once: ordinary writes today, backdated rows, a deleted
 * old user, a rebuild in another time zone, the test clock moving, a change made through another instance.
 * Every request reads the money from the rollups (equal to the postings: ledger:check) and counts the
 * registrations on the users' index.
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

/** What an instance serves. */
const served = async (period = 90, app: TestApp['app'] = t.app) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/user/admin/analytics?period=${period}`,
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(res.statusCode).toBe(200);
  return JSON.parse(res.body) as Awaited<ReturnType<typeof analytics>>;
};
/** What is served, checked against the books (the rollups it is read from equal the postings). */
const fresh = async (period = 90) => {
  await expectLedgerClean(t);
  return served(period);
};
const registrations = (a: { userGrowth: { _id: string; count: number }[] }, iso: string) =>
  a.userGrowth.find((d) => d._id === iso.slice(0, 10))?.count;

/** Removes a user who has nothing but the accounts every user gets (the app itself never deletes users). */
async function deleteUser(db: Db, userId: string) {
  await inTransaction(db, async (tx) => {
    await tx.execute(sql`DELETE FROM ledger_accounts WHERE user_id = ${userId}`);
    // The test user's session row (makeUser signs in as a sign-in would).
    await tx.execute(sql`DELETE FROM sessions WHERE user_id = ${userId}`);
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

describe('changes show at once', () => {
  it("today's ordinary writes: a registration, a deposit confirmed, an investment; a rename changes no figure", async () => {
    const before = await fresh();
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
    await t.ctx.db.execute(sql`UPDATE users SET first_name = 'Renamed' WHERE id = ${ann.user.id}`);
    const after = await fresh();
    expect(after.userGrowth.at(-1)?.count).toBe((before.userGrowth.at(-1)?.count ?? 0) + 1);
    expect(after.depositTrends.at(-1)).toMatchObject({
      totalAmount: (before.depositTrends.at(-1)?.totalAmount ?? 0) + 12.5,
      count: (before.depositTrends.at(-1)?.count ?? 0) + 1,
    });
    expect(after.investmentTrends.at(-1)?.count).toBe((before.investmentTrends.at(-1)?.count ?? 0) + 1);
    expect(after.summary.totalUsers).toBe(before.summary.totalUsers + 1);
  });

  it('a deleted old user, a backdated row, a write dated yesterday and a rebuild', async () => {
    const gone = await oldUser(daysAgo(30));
    const withUser = await fresh();
    await deleteUser(t.ctx.db, gone.user.id);
    const without = await fresh();
    expect(registrations(without, daysAgo(30))).toBe((registrations(withUser, daysAgo(30)) ?? 0) - 1);
    await seedDeposit(t, ann.user.id, { amount: M(1), at: daysAgo(20) });
    await seedDeposit(t, ann.user.id, { amount: M(1), at: daysAgo(1) });
    const deposits = await fresh();
    const on = (a: typeof deposits, iso: string) => a.depositTrends.find((d) => d._id === iso.slice(0, 10));
    expect(on(deposits, daysAgo(20))?.totalAmount).toBe((on(without, daysAgo(20))?.totalAmount ?? 0) + 1);
    expect(on(deposits, daysAgo(1))?.totalAmount).toBe((on(without, daysAgo(1))?.totalAmount ?? 0) + 1);
    await rebuildRollups(t.ctx.db);
    expect(await fresh()).toEqual(deposits);
  });
});

describe('what is served equals the raw rows', () => {
  it('reads the rollups on every request: a change to a closed day or today is served at once', async () => {
    const before = await fresh();
    const closed = daysAgo(10);
    const today = daysAgo(0);
    // Straight into the rollups (no posting): what is served follows them.
    await t.ctx.db.execute(
      sql`INSERT INTO rollups (metric, day, slot, n) VALUES ('deposit.amount', ${closed.slice(0, 10)}::date, 0, 5000000),
                                                          ('deposit.amount', ${today.slice(0, 10)}::date, 0, 5000000)
          ON CONFLICT (metric, day, slot) DO UPDATE SET n = rollups.n + 5000000`,
    );
    const after = await served();
    const received = (a: typeof before, iso: string) =>
      a.depositTrends.find((d) => d._id === iso.slice(0, 10))?.totalAmount ?? 0;
    expect(received(after, closed)).toBe(received(before, closed) + 5);
    expect(received(after, today)).toBe(received(before, today) + 5);
    expect(after.summary.totalDeposits).toBe(before.summary.totalDeposits + 10);
    await rebuildRollups(t.ctx.db);
    expect(await fresh()).toEqual(before);
  });

  it('after a registration today', async () => {
    const before = await fresh();
    await makeUser(t);
    const after = await fresh();
    expect(registrations(after, daysAgo(0))).toBe((registrations(before, daysAgo(0)) ?? 0) + 1);
    expect(after.summary.totalUsers).toBe(before.summary.totalUsers + 1);
  });

  it('after an old user is deleted (a registration off an old day)', async () => {
    const old = await oldUser(daysAgo(25));
    const before = await fresh();
    await deleteUser(t.ctx.db, old.user.id);
    const after = await fresh();
    expect(registrations(after, daysAgo(25))).toBe((registrations(before, daysAgo(25)) ?? 0) - 1);
    for (const p of [7, 14, 30]) await fresh(p);
  });

  it('after the rollups are rebuilt in another time zone, and back', async () => {
    const before = await fresh();
    expect(await syncRollupTimezone(t.ctx.db, 'Pacific/Honolulu')).toBe(true);
    const moved = await fresh();
    // The 05:00 UTC deposit now counts on the day before.
    expect(moved.depositTrends).not.toEqual(before.depositTrends);
    expect(await syncRollupTimezone(t.ctx.db, 'UTC')).toBe(true);
    expect(await fresh()).toEqual(before);
  });

  it("when the test clock moves forward a day (the app's today becomes closed) and back", async () => {
    const setClock = async (at: number) => {
      t.clock.set(new Date(at));
      admin.token = await sessionToken(t, admin.user.id, admin.user.tokenVersion);
    };
    // The app five days behind the database: the app's today is the last live day.
    const base = Date.now() - 5 * DAY;
    await setClock(base);
    // A registration on the app's today (a past day for the database).
    await oldUser(daysAgo(5));
    const behind = await fresh(7);
    expect(registrations(behind, daysAgo(5))).toBeGreaterThan(0);
    await setClock(base + DAY);
    const next = await fresh(7);
    for (const k of ['userGrowth', 'depositTrends', 'investmentTrends'] as const)
      expect(next[k].slice(0, 6)).toEqual(behind[k].slice(1));
    await setClock(base - DAY);
    await fresh(7);
    await fresh(90);
    // Ahead of the database's clock.
    await setClock(Date.now() + 3 * DAY);
    const ahead = await fresh(7);
    const late = await makeUser(t);
    await setCreatedAt(t, late.user.id, daysAgo(-2));
    const later = await fresh(7);
    expect(registrations(later, daysAgo(-2))).toBe((registrations(ahead, daysAgo(-2)) ?? 0) + 1);
    await setClock(Date.now());
    await fresh();
  });
});

describe(`two instances on one ${isPostgres ? 'PostgreSQL' : 'PGlite'} database`, () => {
  it("instance B deletes an old user: instance A's next read shows it", async () => {
    const url = t.database.url;
    const second = url ? openPostgres(url, 4) : t.database;
    const b = await buildApp({ config: t.ctx.config, database: second, secret: TEST_SECRET, clock: t.clock });
    try {
      const old = await oldUser(daysAgo(33));
      const before = await served();
      expect(await served(90, b.app)).toEqual(before);
      await deleteUser(b.ctx.db, old.user.id);
      const after = await served();
      expect(registrations(after, daysAgo(33))).toBe((registrations(before, daysAgo(33)) ?? 0) - 1);
      expect(await served(90, b.app)).toEqual(after);
    } finally {
      await b.app.close();
      if (url) await second.close();
    }
  });
});
