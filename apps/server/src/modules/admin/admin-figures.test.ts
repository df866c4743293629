import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import {
  call,
  createTestApp,
  csvLines,
  expectLedgerClean,
  fund,
  makeUser,
  type TestApp,
  type TestUser,
  sessionToken,
} from '../../../test/helpers.ts';
import { seedDeposit, seedInvestment, seedTier } from '../../../test/support/money.ts';
import { sql } from 'drizzle-orm';
import { rawRows } from '../../db/raw.ts';
import { checkLedger } from '../../ledger/check.ts';
import { rebuildRollups, syncRollupTimezone } from '../../ledger/rollups.queries.ts';

/**
 * Back-office figures that add up (docs/DOMAIN.md, Admin figures): an administrator's balance
 * update is an adjustment, not a deposit; Deposits Received are dated by confirmation.
 */
let t: TestApp;
let admin: TestUser;
let ann: TestUser;

const hash = () => `0x${randomBytes(32).toString('hex')}`;
const asAdmin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  call(t, method, url, { token: admin.token, body });
const setBalance = (u: TestUser, newBalance: number, note: string) =>
  asAdmin('POST', '/api/admin/update-user-balance', { userId: u.user.id, newBalance, note });

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(new Date('2026-11-16T12:00:00Z'));
  admin = await makeUser(t, { isAdmin: true });
  ann = await makeUser(t, { firstName: 'Ann', lastName: 'Adjusted' });
  await seedDeposit(t, ann.user.id, { amount: 500_000n, at: '2026-11-16T09:00:00Z' });
  // Three adjustments: +999.5, +25 and a reduction of 425 (net +599.5).
  expect((await setBalance(ann, 1000, 'top-up')).statusCode).toBe(200);
  expect((await setBalance(ann, 1025, 'bonus')).statusCode).toBe(200);
  expect((await setBalance(ann, 600, 'correction')).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('admin balance updates are adjustments, not deposits', () => {
  it('the overview counts the 0.5 deposit as Total Deposits and 599.5 as net adjustments', async () => {
    const res = await asAdmin('GET', '/api/admin/dashboard');
    expect(res.statusCode).toBe(200);
    expect(res.data.metrics).toMatchObject({ totalUsers: 2, totalDeposits: 0.5, totalAdjustments: 599.5 });
  });

  it('analytics says the same', async () => {
    const res = await asAdmin('GET', '/api/user/admin/analytics?period=7');
    expect(res.data.summary).toEqual({
      totalUsers: 2,
      totalDeposits: 0.5,
      totalAdjustments: 599.5,
      totalInvestments: 0,
    });
    // The adjustments are not Deposits Received either.
    const received = res.data.depositTrends.reduce((s: number, d: { totalAmount: number }) => s + d.totalAmount, 0);
    expect(received).toBe(0.5);
  });

  it("the user's summary and the users CSV show 0.5 deposits and 599.5 adjustments (balance 600)", async () => {
    const page = await asAdmin('GET', `/api/admin/users?search=${encodeURIComponent(ann.user.email)}`);
    expect(page.data.users).toHaveLength(1);
    expect(page.data.users[0]).toMatchObject({ balance: 600, totalDeposits: 0.5, totalAdjustments: 599.5 });
    const lines = csvLines((await asAdmin('GET', '/api/admin/export/users.csv')).body);
    const header = lines[0]?.split(',') ?? [];
    const row = lines.find((l) => l.startsWith(ann.user.id))?.split(',') ?? [];
    expect(row[header.indexOf('total_deposits_usdc')]).toBe('0.5');
    expect(row[header.indexOf('total_adjustments_usdc')]).toBe('599.5');
    expect(row[header.indexOf('balance_usdc')]).toBe('600');
  });

  it('keeps the books balanced (adjustment rows, ledger and rollups agree)', async () => {
    await expectLedgerClean(t);
  });
});

describe('Deposits Received is dated by confirmation', () => {
  it('a deposit submitted on Nov 17 and approved on Nov 19 counts on Nov 19', async () => {
    t.clock.set(new Date('2026-11-17T10:00:00Z'));
    const bo = await makeUser(t);
    const sub = await call(t, 'POST', '/api/user/process-deposit', {
      token: bo.token,
      body: { txHash: hash(), amount: 12.5, fromAddress: `0x${'ab'.repeat(20)}` },
    });
    expect(sub.statusCode).toBe(200);
    t.clock.set(new Date('2026-11-19T10:00:00Z'));
    admin.token = await sessionToken(t, admin.user.id, admin.user.tokenVersion);
    expect((await asAdmin('POST', '/api/admin/process-deposit', { depositId: sub.data.deposit._id })).statusCode).toBe(
      200,
    );
    const res = await asAdmin('GET', '/api/user/admin/analytics?period=7');
    const day = (d: string) => res.data.depositTrends.find((x: { _id: string }) => x._id === d);
    expect(day('2026-11-17')).toEqual({ _id: '2026-11-17', totalAmount: 0, count: 0 });
    expect(day('2026-11-19')).toEqual({ _id: '2026-11-19', totalAmount: 12.5, count: 1 });
    await expectLedgerClean(t);
  });
});

describe('Withdraw All checks what is available first', () => {
  it("says 'No available funds to withdraw' before looking at the withdrawal password", async () => {
    const empty = await makeUser(t);
    const res = await call(t, 'POST', '/api/withdrawal/request-all', {
      token: empty.token,
      body: { walletAddress: `0x${'cd'.repeat(20)}`, withdrawalPassword: 'not-the-password' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ error: MSG.noFunds, code: 'no_funds' });
  });
});

describe('rollups and user totals', () => {
  it('ledger:check reports a daily rollup that differs from the postings, and a rebuild repairs it', async () => {
    await t.ctx.db.execute(sql`UPDATE rollups SET n = n + 1 WHERE metric = 'deposit.amount' AND n = 500000`);
    const violations = await checkLedger(t.ctx.db);
    const rule = 'the daily rollups equal the sum of postings by kind (per metric, platform day and slot)';
    expect(violations.filter((v) => v.rule === rule).map((v) => v.detail)).toEqual([
      expect.stringMatching(/^deposit\.amount 2026-11-16 slot \d: postings 500000, rollup 500001$/),
    ]);
    await rebuildRollups(t.ctx.db);
    await expectLedgerClean(t);
  });

  it("ledger:check reports a user's lifetime totals that differ from the postings, and a rebuild repairs them", async () => {
    const page = () => asAdmin('GET', `/api/admin/users?search=${encodeURIComponent(ann.user.email)}`);
    // The users list reads Ann's sums from her user_totals row (kept with each posting, not summed per request).
    await t.ctx.db.execute(
      sql`UPDATE user_totals SET deposits = deposits + 1000000 WHERE user_id = ${ann.user.id}::uuid`,
    );
    expect((await page()).data.users[0]).toMatchObject({ totalDeposits: 1.5, totalAdjustments: 599.5 });
    const violations = await checkLedger(t.ctx.db);
    const rule =
      "each user's lifetime totals equal the sum of their postings by kind (earnings, rewards, deposits, adjustments)";
    expect(violations.find((v) => v.rule === rule)?.detail).toBe(
      `${ann.user.id}: kept 0/0/1500000/599500000, postings 0/0/500000/599500000 (earnings/rewards/deposits/adjustments)`,
    );
    // A row deleted reads as zeros, and is reported too.
    await t.ctx.db.execute(sql`DELETE FROM user_totals WHERE user_id = ${ann.user.id}::uuid`);
    expect((await page()).data.users[0]).toMatchObject({ totalDeposits: 0, totalAdjustments: 0 });
    expect((await checkLedger(t.ctx.db)).find((v) => v.rule === rule)?.detail).toMatch(/kept 0\/0\/0\/0, postings/);
    await rebuildRollups(t.ctx.db);
    expect((await page()).data.users[0]).toMatchObject({ totalDeposits: 0.5, totalAdjustments: 599.5 });
    await expectLedgerClean(t);
  });

  it('the totals follow the postings: a business row changed behind the ledger moves no figure, and ledger:check names it', async () => {
    const bo = await makeUser(t);
    const cy = await makeUser(t);
    await fund(t, bo.user.id, 10_000_000n);
    const tier = await seedTier(t, { amount: 10_000_000n, rateScaled: 10000 });
    const inv = await seedInvestment(t, bo.user.id, tier, { referrers: [cy.user.id] });
    const dep = await seedDeposit(t, bo.user.id, { amount: 3_000_000n });
    const list = async (u: TestUser) =>
      (await asAdmin('GET', `/api/admin/users?search=${encodeURIComponent(u.user.email)}`)).data.users[0];
    expect(await list(bo)).toMatchObject({ totalDeposits: 3, referralRewards: 0 });
    expect(await list(cy)).toMatchObject({ totalDeposits: 0, referralRewards: 1 }); // level 1 of 10 USDC
    await t.ctx.db.execute(sql`UPDATE referral_rewards SET amount = amount + 5 WHERE investment_id = ${inv}::uuid`);
    await t.ctx.db.execute(sql`UPDATE deposits SET amount = 4000000 WHERE id = ${dep}::uuid`);
    expect(await list(bo)).toMatchObject({ totalDeposits: 3 });
    expect(await list(cy)).toMatchObject({ referralRewards: 1 });
    const rule =
      "each deposit, investment, cycle earning, referral reward and adjustment moves its amount on its owner's account";
    expect(
      (await checkLedger(t.ctx.db))
        .filter((v) => v.rule === rule)
        .map((v) => v.detail)
        .sort(),
    ).toEqual([
      `deposit ${dep} amount=4000000 booked=3000000`,
      expect.stringMatching(/^referral_reward \S+ amount=1000005 booked=1000000$/),
    ]);
    await t.ctx.db.execute(sql`UPDATE referral_rewards SET amount = amount - 5 WHERE investment_id = ${inv}::uuid`);
    await t.ctx.db.execute(sql`UPDATE deposits SET amount = 3000000 WHERE id = ${dep}::uuid`);
    await expectLedgerClean(t);
  });

  it('a new platform time zone re-dates the rollups (rebuilt once, then left alone)', async () => {
    // Ann's 0.5 deposit was confirmed at 2026-11-16 09:00 UTC: Nov 16 in UTC, Nov 15 in Honolulu (UTC-10).
    const day = async () =>
      (
        await rawRows<{ day: string }>(
          t.ctx.db,
          sql`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM rollups WHERE metric = 'deposit.amount' AND n = 500000`,
        )
      ).map((r) => r.day);
    expect(await day()).toEqual(['2026-11-16']);
    expect(await syncRollupTimezone(t.ctx.db, 'Pacific/Honolulu')).toBe(true);
    expect(await day()).toEqual(['2026-11-15']);
    expect(await syncRollupTimezone(t.ctx.db, 'Pacific/Honolulu')).toBe(false);
    await expectLedgerClean(t);
    expect(await syncRollupTimezone(t.ctx.db, 'UTC')).toBe(true);
    // Figures summed by an older LEDGER_FIGURES are rebuilt at the next start.
    await t.ctx.db.execute(sql`UPDATE rollups SET n = n + 1 WHERE metric = 'deposit.amount' AND n = 500000`);
    await t.ctx.db.execute(sql`UPDATE settings SET value = 'older' WHERE key = 'ledger_figures'`);
    expect(await syncRollupTimezone(t.ctx.db, 'UTC')).toBe(true);
    expect(await syncRollupTimezone(t.ctx.db, 'UTC')).toBe(false);
    await expectLedgerClean(t);
  });
});
