import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, expectLedgerClean, makeUser, type TestApp, sessionToken } from '../../../test/helpers.ts';
import { seedDeposit, seedInvestment, seedTier, setCreatedAt } from '../../../test/support/money.ts';
import { MSG } from '@harvest/shared/messages';

/**
 * Analytics over a seeded month in America/New_York, across the end of daylight saving time
 * (2026-11-01 02:00 EDT -> 01:00 EST). Every expectation below is computed by hand from the
 * local wall-clock time of each seeded row.
 */
const TZ = 'America/New_York';
// 2026-11-05 23:30 EST: the platform day is Nov 5 although the UTC date is already Nov 6.
const NOW = '2026-11-06T04:30:00Z';

let t: TestApp;
let adminToken: string;

const M = (usdc: number) => BigInt(Math.round(usdc * 1_000_000));

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_TIMEZONE: TZ });
  const admin = await makeUser(t, { isAdmin: true });
  const investor = await makeUser(t);
  const a = await makeUser(t);
  const b = await makeUser(t);
  const c = await makeUser(t);
  const d = await makeUser(t);
  // Long before the month: in no series window.
  await setCreatedAt(t, admin.user.id, '2026-01-01T12:00:00Z');
  await setCreatedAt(t, investor.user.id, '2026-01-01T12:00:00Z');
  await setCreatedAt(t, a.user.id, '2026-11-02T04:30:00Z'); // Nov 1 23:30 EST -> 2026-11-01 (UTC says Nov 2)
  await setCreatedAt(t, b.user.id, '2026-11-02T05:00:00Z'); // Nov 2 00:00 EST -> 2026-11-02
  await setCreatedAt(t, c.user.id, '2026-10-30T03:59:00Z'); // Oct 29 23:59 EDT -> 2026-10-29 (outside 7 days)
  await setCreatedAt(t, d.user.id, '2026-10-30T04:00:00Z'); // Oct 30 00:00 EDT -> 2026-10-30 (first of 7 days)

  const u = investor.user.id;
  await seedDeposit(t, u, { amount: M(200), at: '2026-09-01T12:00:00Z' }); // outside every window but 90 days
  await seedDeposit(t, u, { amount: M(10), at: '2026-11-05T04:59:00Z' }); // Nov 4 23:59 EST
  await seedDeposit(t, u, { amount: M(2.5), at: '2026-11-05T05:00:00Z' }); // Nov 5 00:00 EST
  await seedDeposit(t, u, { amount: M(1.25), at: '2026-11-01T03:30:00Z' }); // Oct 31 23:30 EDT
  await seedDeposit(t, u, { amount: M(7), status: 'pending', at: '2026-11-03T15:00:00Z' }); // not received
  await seedDeposit(t, u, { amount: M(9), status: 'failed', at: '2026-11-03T15:00:00Z' }); // not received

  const big = await seedTier(t, { amount: M(100), rateScaled: 15000 });
  const small = await seedTier(t, { amount: M(50), rateScaled: 20000 });
  const tiny = await seedTier(t, { amount: M(25), rateScaled: 10000 });
  await seedInvestment(t, u, big, { at: '2026-11-03T12:00:00Z' }); // Nov 3 07:00 EST
  await seedInvestment(t, u, small, { at: '2026-11-03T23:00:00Z' }); // Nov 3 18:00 EST
  await seedInvestment(t, u, tiny, { at: '2026-11-06T04:00:00Z' }); // Nov 5 23:00 EST
  await seedInvestment(t, u, tiny, { at: '2026-10-08T03:00:00Z' }); // Oct 7 23:00 EDT: first day of 30

  t.clock.set(new Date(NOW));
  adminToken = await sessionToken(t, admin.user.id, admin.user.tokenVersion);
});
afterAll(() => t.close());

const get = (q: string) => call(t, 'GET', `/api/user/admin/analytics${q}`, { token: adminToken });

describe('GET /api/user/admin/analytics', () => {
  it('7 days: every platform day present, rows counted on their local day', async () => {
    const res = await get('?period=7');
    expect(res.statusCode).toBe(200);
    expect(res.data.period).toBe(7);
    expect(res.data.timeZone).toBe(TZ);
    expect(res.data.userGrowth).toEqual([
      { _id: '2026-10-30', count: 1 },
      { _id: '2026-10-31', count: 0 },
      { _id: '2026-11-01', count: 1 },
      { _id: '2026-11-02', count: 1 },
      { _id: '2026-11-03', count: 0 },
      { _id: '2026-11-04', count: 0 },
      { _id: '2026-11-05', count: 0 },
    ]);
    expect(res.data.depositTrends).toEqual([
      { _id: '2026-10-30', totalAmount: 0, count: 0 },
      { _id: '2026-10-31', totalAmount: 1.25, count: 1 },
      { _id: '2026-11-01', totalAmount: 0, count: 0 },
      { _id: '2026-11-02', totalAmount: 0, count: 0 },
      { _id: '2026-11-03', totalAmount: 0, count: 0 },
      { _id: '2026-11-04', totalAmount: 10, count: 1 },
      { _id: '2026-11-05', totalAmount: 2.5, count: 1 },
    ]);
    expect(res.data.investmentTrends).toEqual([
      { _id: '2026-10-30', totalAmount: 0, count: 0 },
      { _id: '2026-10-31', totalAmount: 0, count: 0 },
      { _id: '2026-11-01', totalAmount: 0, count: 0 },
      { _id: '2026-11-02', totalAmount: 0, count: 0 },
      { _id: '2026-11-03', totalAmount: 150, count: 2 },
      { _id: '2026-11-04', totalAmount: 0, count: 0 },
      { _id: '2026-11-05', totalAmount: 25, count: 1 },
    ]);
  });

  it('summary holds the all-time totals (users, confirmed deposits, investments)', async () => {
    const res = await get('?period=7');
    expect(res.data.summary).toEqual({
      totalUsers: 6,
      totalDeposits: 213.75,
      totalAdjustments: 0,
      totalInvestments: 200,
    });
  });

  it('defaults to 30 days (Oct 7 .. Nov 5), with the boundary rows in and out as their local day says', async () => {
    const res = await get('');
    expect(res.statusCode).toBe(200);
    expect(res.data.period).toBe(30);
    const growth: { _id: string; count: number }[] = res.data.userGrowth;
    expect(growth).toHaveLength(30);
    expect(growth[0]?._id).toBe('2026-10-07');
    expect(growth[29]?._id).toBe('2026-11-05');
    // Consecutive days, no gaps, no duplicates (the DST change does not double or drop a day).
    for (let i = 1; i < growth.length; i++) {
      const prev = new Date(`${growth[i - 1]?._id}T00:00:00Z`).getTime();
      expect(new Date(`${growth[i]?._id}T00:00:00Z`).getTime() - prev).toBe(86_400_000);
    }
    expect(growth.find((g) => g._id === '2026-10-29')?.count).toBe(1);
    expect(growth.reduce((s, g) => s + g.count, 0)).toBe(4);
    const inv: { _id: string; totalAmount: number; count: number }[] = res.data.investmentTrends;
    expect(inv[0]).toEqual({ _id: '2026-10-07', totalAmount: 25, count: 1 });
    expect(inv.reduce((s, g) => s + g.totalAmount, 0)).toBe(200);
    const dep: { totalAmount: number; count: number }[] = res.data.depositTrends;
    expect(dep.reduce((s, g) => s + g.totalAmount, 0)).toBe(13.75);
    expect(dep.reduce((s, g) => s + g.count, 0)).toBe(3);
  });

  it('14 and 90 days have 14 and 90 entries; 90 days reaches the September deposit', async () => {
    const r14 = await get('?period=14');
    expect(r14.data.userGrowth).toHaveLength(14);
    expect(r14.data.userGrowth[0]._id).toBe('2026-10-23');
    const r90 = await get('?period=90');
    expect(r90.data.depositTrends).toHaveLength(90);
    expect(r90.data.depositTrends[0]._id).toBe('2026-08-08');
    expect(r90.data.depositTrends.find((d: { _id: string }) => d._id === '2026-09-01')).toEqual({
      _id: '2026-09-01',
      totalAmount: 200,
      count: 1,
    });
  });

  it('refuses any other period with a clear text', async () => {
    for (const p of ['15', '0', 'abc', '-7', '7.0', '30&period=7']) {
      const res = await get(`?period=${p}`);
      expect(res.statusCode, p).toBe(400);
      expect(res.data, p).toEqual({ error: MSG.invalidPeriod, code: 'validation' });
    }
  });

  it('keeps the books balanced', async () => {
    await expectLedgerClean(t);
  });
});
