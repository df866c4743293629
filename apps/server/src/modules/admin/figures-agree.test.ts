import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import {
  seedCycleEarning,
  seedDeposit,
  seedInvestment,
  seedManyCycleEarnings,
  seedTier,
} from '../../../test/support/money.ts';
import { rawRows } from '../../db/raw.ts';

/**
 * One definition each of "lifetime earnings" (every cycle earning's gross) and of "which deposits count"
 * (confirmed demo and on-chain deposits: hf_deposit_counts in db/functions.sql): every screen that shows them
 * shows the same figure, whichever way the rows were written.
 */
let t: TestApp;
let admin: TestUser;
let ann: TestUser;
let bo: TestUser;
const M = (usdc: number) => BigInt(Math.round(usdc * 1_000_000));

beforeAll(async () => {
  t = await createTestApp({ ADMIN_REQUIRE_2FA: '0' });
  admin = await makeUser(t, { isAdmin: true });
  bo = await makeUser(t);
  ann = await makeUser(t, { referrerId: bo.user.id });
  await seedDeposit(t, ann.user.id, { amount: M(50) });
  await seedDeposit(t, ann.user.id, { amount: M(7), status: 'pending' });
  await seedDeposit(t, ann.user.id, { amount: M(9), status: 'failed' });
  await seedDeposit(t, bo.user.id, { amount: M(2.5) });
  await fund(t, ann.user.id, M(100));
  const tier = await seedTier(t, { amount: M(40), rateScaled: 15_000 });
  const inv = await seedInvestment(t, ann.user.id, tier, { referrers: [bo.user.id] });
  await seedCycleEarning(t, ann.user.id, inv, M(0.6));
  await seedCycleEarning(t, ann.user.id, inv, M(0.6));
  // Written set-based (as a bulk path does), without touching the investment's own running total.
  await seedManyCycleEarnings(t, ann.user.id, await seedInvestment(t, ann.user.id, tier), 5, M(0.25));
  // An administrator's credit: a confirmed admin_credit deposit row that is an adjustment, not a deposit.
  const balance = (await call(t, 'GET', '/api/user/dashboard', { token: ann.token })).data.accountSummary.balance;
  const credit = await call(t, 'POST', '/api/admin/update-user-balance', {
    token: admin.token,
    body: { userId: ann.user.id, newBalance: balance + 20, note: 'goodwill' },
  });
  expect(credit.statusCode, JSON.stringify(credit.data)).toBe(200);
});
afterAll(() => t.close());

const listed = async (u: TestUser) =>
  (await call(t, 'GET', `/api/admin/users?search=${encodeURIComponent(u.user.email)}`, { token: admin.token })).data
    .users[0];
const summary = async (u: TestUser) =>
  (await call(t, 'GET', '/api/user/dashboard', { token: u.token })).data.accountSummary;

describe('lifetime earnings and referral rewards', () => {
  it("the investor's dashboard and the admin users list show the same sums, those of the raw rows", async () => {
    const [raw] = await rawRows<{ e: string }>(
      t.ctx.db,
      sql`SELECT sum(gross_amount)::text AS e FROM cycle_earnings WHERE user_id = ${ann.user.id}::uuid`,
    );
    expect(raw?.e).toBe(String(M(0.6 * 2 + 0.25 * 5)));
    expect((await summary(ann)).totalEarnings).toBe(2.45);
    expect((await listed(ann)).totalEarnings).toBe(2.45);
    expect((await summary(bo)).referralRewards).toBe(4);
    expect((await listed(bo)).referralRewards).toBe(4);
    await expectLedgerClean(t);
  });
});

describe('which deposits count', () => {
  it('the overview, the analytics summary and series, and the users list agree: confirmed demo and real only', async () => {
    const overview = (await call(t, 'GET', '/api/admin/dashboard', { token: admin.token })).data.metrics;
    const analytics = (await call(t, 'GET', '/api/user/admin/analytics?period=7', { token: admin.token })).data;
    expect(overview.totalDeposits).toBe(52.5);
    expect(analytics.summary.totalDeposits).toBe(52.5);
    expect(analytics.depositTrends.reduce((s: number, d: { totalAmount: number }) => s + d.totalAmount, 0)).toBe(52.5);
    expect((await listed(ann)).totalDeposits).toBe(50);
    expect((await listed(bo)).totalDeposits).toBe(2.5);
    // The administrator's credit is an adjustment everywhere.
    expect(overview.totalAdjustments).toBe(20);
    expect((await listed(ann)).totalAdjustments).toBe(20);
    await expectLedgerClean(t);
  });
});
