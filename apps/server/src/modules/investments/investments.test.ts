import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { rawRows } from '../../db/raw.ts';
import { userBalances } from '../../ledger/ledger.ts';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { seedTiers } from '../tiers/tiers.seed.ts';
import { addTier, at, countRows, tokenNow, usdcMicro } from '../../../test/support/investments.ts';

let t: TestApp;

// 2026-01-14 is a Wednesday; 2026-01-17/18 are Saturday and Sunday. Platform time zone: UTC.
const WED = '2026-01-14';

beforeAll(async () => {
  // The days and weekends below are UTC's.
  t = await createTestApp({ PLATFORM_TIMEZONE: 'UTC' });
  expect(await seedTiers(t.ctx.db, t.clock.now())).toBe(5);
  expect(await seedTiers(t.ctx.db, t.clock.now())).toBe(0);
  await addTier(t, 'Odd', '123.456789', 12345);
  await addTier(t, 'Retired', '777', 10000, false);
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

async function investor(balance = '1000'): Promise<TestUser> {
  const u = await makeUser(t);
  await fund(t, u.user.id, usdcMicro(balance));
  return u;
}

async function dash(u: TestUser) {
  const res = await call(t, 'GET', '/api/user/dashboard', { token: await tokenNow(t, u) });
  expect(res.statusCode).toBe(200);
  return res.data;
}

async function buy(u: TestUser, amount: number | string) {
  return call(t, 'POST', '/api/user/invest', { token: await tokenNow(t, u), body: { amount } });
}

describe('GET /api/user/investment-tiers', () => {
  it('lists the seeded active tiers in order, without inactive ones', async () => {
    const u = await makeUser(t);
    const res = await call(t, 'GET', '/api/user/investment-tiers?t=1', { token: await tokenNow(t, u) });
    expect(res.statusCode).toBe(200);
    expect(res.data.tiers.map((x: { name: string }) => x.name)).toEqual([
      'Starter',
      'Bronze',
      'Silver',
      'Gold',
      'Platinum',
      'Odd',
    ]);
    expect(res.data.tiers[1]).toEqual({ _id: expect.any(String), name: 'Bronze', amount: 100, dailyRate: 1.5 });
    expect(res.data.tiers[5]).toMatchObject({ amount: 123.456789, dailyRate: 1.2345 });
  });

  it('needs a signed-in user', async () => {
    expect((await call(t, 'GET', '/api/user/investment-tiers')).statusCode).toBe(401);
  });
});

describe('POST /api/user/invest', () => {
  it('buys a tier on a weekday, paid from balance, terms copied', async () => {
    at(t, `${WED}T10:00:00Z`);
    const u = await investor('250');
    const res = await buy(u, 100);
    expect(res.statusCode).toBe(200);
    expect(res.data.message).toBe(MSG.invested);
    expect(res.data.investment).toMatchObject({
      tier: 'Bronze',
      amount: 100,
      dailyRate: 1.5,
      totalEarned: 0,
      earningStarted: false,
      earningCompleted: false,
      cycleEndTime: null,
      nextCycleAvailableAt: null,
      cycleEarnings: [],
    });
    const b = await userBalances(t.ctx.db, u.user.id);
    expect(b.balance).toBe(150_000_000n);
    expect(b.invested).toBe(100_000_000n);
    // Buying the same tier again is allowed.
    expect((await buy(u, '100')).statusCode).toBe(200);
    const d = await dash(u);
    expect(d.accountSummary).toMatchObject({ balance: 50, totalInvestment: 200, availableToWithdraw: 50 });
    expect(d.activeInvestments).toHaveLength(2);
    await expectLedgerClean(t);
  });

  it('refuses on Saturday and Sunday with the spec message, changing nothing', async () => {
    const u = await investor('500');
    for (const when of ['2026-01-17T12:00:00Z', '2026-01-18T23:59:00Z']) {
      at(t, when);
      const res = await buy(u, 100);
      expect(res.statusCode).toBe(400);
      expect(res.data).toEqual({ error: MSG.weekdayInvest, code: 'weekday_only' });
    }
    expect(await countRows(t, 'investments', u.user.id)).toBe(0);
    expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(500_000_000n);
  });

  it('refuses an amount that is not an active tier, bad amounts and extra fields', async () => {
    at(t, `${WED}T10:00:00Z`);
    const u = await investor('5000');
    for (const amount of [99, 777, 100.5]) {
      const res = await buy(u, amount);
      expect(res.statusCode).toBe(400);
      expect(res.data.error).toBe(MSG.noSuchTier);
    }
    for (const amount of ['abc', -100, 1.1234567, null]) {
      const res = await buy(u, amount as never);
      expect(res.statusCode).toBe(400);
      expect(res.data.error).toBe(MSG.chooseTier);
    }
    const extra = await call(t, 'POST', '/api/user/invest', {
      token: await tokenNow(t, u),
      body: { amount: 100, userId: u.user.id },
    });
    expect(extra.statusCode).toBe(400);
    expect((await call(t, 'POST', '/api/user/invest', { body: { amount: 100 } })).statusCode).toBe(401);
    expect(await countRows(t, 'investments', u.user.id)).toBe(0);
  });

  it('honours Idempotency-Key: a retry gets the first answer and buys once; another body is refused', async () => {
    at(t, `${WED}T10:00:00Z`);
    const u = await investor('1000');
    const token = await tokenNow(t, u);
    const headers = { 'idempotency-key': 'invest-retry-1' };
    const first = await call(t, 'POST', '/api/user/invest', { token, body: { amount: 100 }, headers });
    const retry = await call(t, 'POST', '/api/user/invest', { token, body: { amount: 100 }, headers });
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    expect(retry.data).toEqual(first.data);
    expect(await countRows(t, 'investments', u.user.id)).toBe(1);
    const other = await call(t, 'POST', '/api/user/invest', { token, body: { amount: 500 }, headers });
    expect(other.statusCode).toBe(422);
    expect(await countRows(t, 'investments', u.user.id)).toBe(1);
  });

  it('refuses when the balance is short, with a clear text, changing nothing', async () => {
    at(t, `${WED}T10:00:00Z`);
    const u = await investor('99.999999');
    const res = await buy(u, 100);
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ error: MSG.investInsufficientBalance, code: 'insufficient_funds' });
    expect(await countRows(t, 'investments', u.user.id)).toBe(0);
    expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(99_999_999n);
  });
});

describe('earning cycles', () => {
  async function invested(balance = '1000', amount: number | string = 100) {
    const u = await investor(balance);
    const res = await buy(u, amount);
    expect(res.statusCode).toBe(200);
    return { u, id: res.data.investment._id as string };
  }
  const start = async (u: TestUser, investmentId: string) =>
    call(t, 'POST', '/api/user/start-earning', { token: await tokenNow(t, u), body: { investmentId } });
  const complete = async (u: TestUser, investmentId: string) =>
    call(t, 'POST', '/api/user/complete-cycle', { token: await tokenNow(t, u), body: { investmentId } });

  it('runs start -> 8 h -> complete, recording the exact gross earning, then one cycle per day', async () => {
    at(t, `${WED}T09:00:00Z`);
    const { u, id } = await invested('1000', 123.456789);

    at(t, `${WED}T09:00:00Z`);
    const s = await start(u, id);
    expect(s.statusCode).toBe(200);
    expect(s.data).toEqual({ message: MSG.started });
    let inv = (await dash(u)).activeInvestments[0];
    expect(inv).toMatchObject({ earningStarted: true, earningCompleted: false, lastCycleDay: WED });
    const end = new Date(inv.cycleEndTime).getTime();
    expect(end - new Date(`${WED}T09:00:00Z`).getTime()).toBeGreaterThanOrEqual(8 * 3600_000);
    expect(end - new Date(`${WED}T09:00:00Z`).getTime()).toBeLessThan(8 * 3600_000 + 60_000);

    // Refusals while running: a second start, and completing early (with the time left).
    const again = await start(u, id);
    expect(again.statusCode).toBe(409);
    expect(again.data.error).toBe(MSG.cycleRunning);
    at(t, `${WED}T15:00:00Z`);
    const early = await complete(u, id);
    expect(early.statusCode).toBe(400);
    expect(early.data.error).toMatch(
      /^This cycle is not finished yet: 2h 0m left\.$|^This cycle is not finished yet: 2h 1m left\.$/,
    );
    expect(await countRows(t, 'cycle_earnings', u.user.id)).toBe(0);

    at(t, `${WED}T17:00:05Z`);
    const c = await complete(u, id);
    expect(c.statusCode).toBe(200);
    expect(c.data).toEqual({
      message: 'Cycle completed: 1.524074\u00a0USDC earned.',
      template: 'Cycle completed: {amount}\u00a0USDC earned.',
      params: { amount: '1524074' },
    });
    const d = await dash(u);
    inv = d.activeInvestments[0];
    expect(inv).toMatchObject({
      earningStarted: false,
      earningCompleted: true,
      cycleEndTime: null,
      totalEarned: 1.524074,
    });
    expect(inv.cycleEarnings).toEqual([
      {
        _id: expect.any(String),
        cycleNumber: 1,
        grossAmount: 1.524074,
        withdrawalRequested: false,
        createdAt: expect.any(String),
      },
    ]);
    expect(d.accountSummary).toMatchObject({
      totalEarnings: 1.524074,
      availableToWithdraw: 878.067285,
      balance: 876.543211,
      totalInvestment: 123.456789,
    });
    expect((await userBalances(t.ctx.db, u.user.id)).earnings).toBe(1_524_074n);

    // Completing twice records nothing more.
    const twice = await complete(u, id);
    expect(twice.statusCode).toBe(409);
    expect(twice.data.error).toBe(MSG.notRunning);

    // A second start the same platform day is refused; the next day it runs as cycle 2.
    at(t, `${WED}T23:59:00Z`);
    const sameDay = await start(u, id);
    expect(sameDay.statusCode).toBe(409);
    expect(sameDay.data.error).toBe(MSG.alreadyToday);
    at(t, '2026-01-15T00:00:00Z');
    expect((await start(u, id)).statusCode).toBe(200);
    at(t, '2026-01-15T08:00:30Z');
    expect((await complete(u, id)).statusCode).toBe(200);
    inv = (await dash(u)).activeInvestments[0];
    expect(inv.cycleEarnings.map((e: { cycleNumber: number }) => e.cycleNumber)).toEqual([1, 2]);
    expect(inv.totalEarned).toBe(3.048148);
    // Earning ids begin with their owner's first 6 bytes (version 8, decision 0058): distinct, and valid UUIDs.
    const ids = inv.cycleEarnings.map((e: { _id: string }) => e._id);
    expect(new Set(ids).size).toBe(2);
    for (const eid of ids) {
      expect(eid.slice(0, 13)).toBe(u.user.id.slice(0, 13));
      expect(eid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    await expectLedgerClean(t);
  });

  it('refuses to start on a weekend, and to complete on a weekend until Monday', async () => {
    at(t, '2026-01-16T20:00:00Z'); // Friday
    const { u, id } = await invested();
    at(t, '2026-01-17T10:00:00Z'); // Saturday
    const s = await start(u, id);
    expect(s.statusCode).toBe(400);
    expect(s.data.error).toBe(MSG.weekdayStart);

    at(t, '2026-01-16T20:00:00Z');
    expect((await start(u, id)).statusCode).toBe(200);
    for (const when of ['2026-01-17T04:00:01Z', '2026-01-18T23:59:59Z']) {
      at(t, when);
      const c = await complete(u, id);
      expect(c.statusCode).toBe(400);
      expect(c.data.error).toBe(MSG.weekendComplete);
    }
    expect(await countRows(t, 'cycle_earnings', u.user.id)).toBe(0);
    at(t, '2026-01-19T00:00:00Z'); // Monday
    expect((await complete(u, id)).statusCode).toBe(200);
    expect((await dash(u)).activeInvestments[0].totalEarned).toBe(1.5);
  });

  it('refuses to start before nextCycleAvailableAt, with the time left', async () => {
    at(t, `${WED}T08:00:00Z`);
    const { u, id } = await invested();
    // What an approved earning withdrawal sets (withdrawals module): a 48 h wait.
    await t.ctx.db.execute(
      sql`UPDATE investments SET withdrawal_approved_at = ${new Date(`${WED}T07:00:00Z`)}, next_cycle_available_at = ${new Date('2026-01-16T07:00:00Z')} WHERE id = ${id}::uuid`,
    );
    const d = (await dash(u)).activeInvestments[0];
    expect(d).toMatchObject({
      withdrawalApprovedAt: `${WED}T07:00:00.000Z`,
      nextCycleAvailableAt: '2026-01-16T07:00:00.000Z',
    });
    at(t, '2026-01-16T06:30:00Z');
    const s = await start(u, id);
    expect(s.statusCode).toBe(400);
    expect(s.data).toEqual({
      error: 'The next cycle becomes available 48 hours after your approved withdrawal: 30m left.',
      code: 'too_early',
      template: 'The next cycle becomes available 48 hours after your approved withdrawal: {left} left.',
      params: { left: expect.any(Number) },
    });
    expect(s.data.params.left).toBeGreaterThan(29 * 60_000);
    expect(s.data.params.left).toBeLessThanOrEqual(30 * 60_000);
    at(t, '2026-01-16T07:00:00Z');
    expect((await start(u, id)).statusCode).toBe(200);
  });

  it("answers 404 for someone else's investment or an unknown id, and changes nothing", async () => {
    at(t, `${WED}T08:00:00Z`);
    const { u, id } = await invested();
    const other = await investor();
    for (const action of [start, complete]) {
      const res = await action(other, id);
      expect(res.statusCode).toBe(404);
      expect(res.data).toEqual({ error: MSG.notFound, code: 'not_found' });
      expect((await action(u, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    }
    expect((await start(u, 'not-a-uuid')).statusCode).toBe(400);
    expect((await call(t, 'POST', '/api/user/start-earning', { body: { investmentId: id } })).statusCode).toBe(401);
    const inv = (await dash(u)).activeInvestments[0];
    expect(inv).toMatchObject({ earningStarted: false, cycleEndTime: null, lastCycleDay: null });
  });

  it('refuses to complete a cycle that was never started', async () => {
    at(t, `${WED}T08:00:00Z`);
    const { u, id } = await invested();
    const res = await complete(u, id);
    expect(res.statusCode).toBe(409);
    expect(res.data.error).toBe(MSG.notRunning);
  });
});

describe('GET /api/user/dashboard', () => {
  it('reads every figure from the ledger and the business rows', async () => {
    at(t, `${WED}T08:00:00Z`);
    const u = await investor('300');
    const d0 = await dash(u);
    expect(d0).toMatchObject({
      accountSummary: {
        balance: 300,
        totalInvestment: 0,
        referralRewards: 0,
        withdrawalWallet: null,
        totalEarnings: 0,
        availableToWithdraw: 300,
        pendingApproval: 0,
        successfullyWithdrawn: 0,
      },
      activeInvestments: [],
      platformDay: WED,
      platformWeekday: true,
    });
    expect(new Date(d0.serverTime).getTime() - new Date(`${WED}T08:00:00Z`).getTime()).toBeLessThan(60_000);
    // An approved withdrawal counts its net amount (rows written by the withdrawals module).
    await t.ctx.db
      .execute(sql`INSERT INTO withdrawals (user_id, request_id, source, status, amount, fee_amount, net_amount, wallet_address)
      VALUES (${u.user.id}::uuid, gen_random_uuid(), 'balance', 'approved', 8500000, 0, 8500000, '0x2222222222222222222222222222222222222222')`);
    expect((await dash(u)).accountSummary.successfullyWithdrawn).toBe(8.5);
    await t.ctx.db.execute(sql`DELETE FROM withdrawals WHERE user_id = ${u.user.id}::uuid`);
    const rows = await rawRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM withdrawals WHERE user_id = ${u.user.id}::uuid`,
    );
    expect(Number(rows[0]?.n)).toBe(0);
  });
});
