import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userBalances } from '../../ledger/ledger.ts';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  isPostgres,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { addTier, at, countRows, tokenNow } from '../../../test/support/investments.ts';
import { MSG } from '@harvest/shared/messages';

/** Races need real connections in parallel: PostgreSQL only (PGlite is one connection). */
describe.runIf(isPostgres)('investment races on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await addTier(t, 'Bronze', '100', 15000);
  });
  afterAll(async () => {
    await expectLedgerClean(t);
    await t.close();
  });

  const invest = async (u: TestUser) =>
    call(t, 'POST', '/api/user/invest', { token: await tokenNow(t, u), body: { amount: 100 } });
  const start = async (u: TestUser, investmentId: string) =>
    call(t, 'POST', '/api/user/start-earning', { token: await tokenNow(t, u), body: { investmentId } });
  const complete = async (u: TestUser, investmentId: string) =>
    call(t, 'POST', '/api/user/complete-cycle', { token: await tokenNow(t, u), body: { investmentId } });

  it('two parallel invests exceeding the balance: exactly one succeeds; referrers paid once', async () => {
    at(t, '2026-01-14T10:00:00Z');
    const ref = await makeUser(t);
    const u = await makeUser(t, { referrerId: ref.user.id });
    await fund(t, u.user.id, 150_000_000n);
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([invest(u), invest(u), invest(u)]);
      const ok = results.filter((r) => r.statusCode === 200);
      expect(ok.length).toBe(round === 0 ? 1 : 0);
      for (const r of results.filter((x) => x.statusCode !== 200)) {
        expect(r.statusCode).toBe(400);
        expect(r.data.error).toBe(MSG.investInsufficientBalance);
      }
    }
    expect(await countRows(t, 'investments', u.user.id)).toBe(1);
    expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(50_000_000n);
    expect((await userBalances(t.ctx.db, ref.user.id)).rewards).toBe(10_000_000n);
    await expectLedgerClean(t);
  });

  it('parallel starts create one cycle; parallel completes record one earning', async () => {
    at(t, '2026-01-14T10:00:00Z');
    const u = await makeUser(t);
    await fund(t, u.user.id, 100_000_000n);
    const id = (await invest(u)).data.investment._id;

    at(t, '2026-01-14T10:00:00Z');
    const starts = await Promise.all(Array.from({ length: 6 }, () => start(u, id)));
    expect(starts.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of starts.filter((x) => x.statusCode !== 200)) expect(r.statusCode).toBe(409);

    at(t, '2026-01-14T18:01:00Z');
    const completes = await Promise.all(Array.from({ length: 6 }, () => complete(u, id)));
    expect(completes.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of completes.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.data.error).toBe(MSG.notRunning);
    }
    expect(await countRows(t, 'cycle_earnings', u.user.id)).toBe(1);
    expect((await userBalances(t.ctx.db, u.user.id)).earnings).toBe(1_500_000n);
    await expectLedgerClean(t);
  });

  it('investments of a referrer and its referral at once do not deadlock', async () => {
    at(t, '2026-01-14T10:00:00Z');
    const a = await makeUser(t);
    const b = await makeUser(t, { referrerId: a.user.id });
    const c = await makeUser(t, { referrerId: b.user.id });
    for (const u of [a, b, c]) await fund(t, u.user.id, 1_000_000_000n);
    const results = await Promise.all([a, b, c, c, b, a].map((u) => invest(u)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await userBalances(t.ctx.db, a.user.id)).rewards).toBe(2n * 10_000_000n + 2n * 3_000_000n);
    await expectLedgerClean(t);
  });

  it('sixteen investors and their referrer at once on one platform day: the day and the totals count every one', async () => {
    at(t, '2026-01-15T10:00:00Z');
    const admin = await makeUser(t, { isAdmin: true });
    const analytics = async () =>
      (await call(t, 'GET', '/api/user/admin/analytics?period=7', { token: await tokenNow(t, admin) })).data;
    const ref = await makeUser(t);
    const investors = await Promise.all(Array.from({ length: 16 }, () => makeUser(t, { referrerId: ref.user.id })));
    for (const u of investors) await fund(t, u.user.id, 100_000_000n);
    const before = await analytics();
    const results = await Promise.all(investors.map((u) => invest(u)));
    expect(results.map((r) => r.statusCode)).toEqual(investors.map(() => 200));
    const after = await analytics();
    const today = (a: typeof before) => a.investmentTrends.find((d: { _id: string }) => d._id === '2026-01-15');
    expect(today(after)).toEqual({
      _id: '2026-01-15',
      count: (today(before)?.count ?? 0) + 16,
      totalAmount: (today(before)?.totalAmount ?? 0) + 1600,
    });
    expect(after.summary.totalInvestments).toBe(before.summary.totalInvestments + 1600);
    const page = await call(t, 'GET', `/api/admin/users?search=${encodeURIComponent(ref.user.email)}`, {
      token: await tokenNow(t, admin),
    });
    expect(page.data.users[0]).toMatchObject({ referralRewards: 160 }); // 10 % of each 100
    await expectLedgerClean(t);
  });

  it("each user's lifetime totals stay right while a referrer completes a cycle, its referrals invest, and an administrator adjusts and approves at once", async () => {
    // On a weekday ahead of the database's today, as in production: the first Wednesday at least a week ahead.
    const ahead = new Date(Date.now() + 7 * 86_400_000);
    ahead.setUTCDate(ahead.getUTCDate() + ((3 - ahead.getUTCDay() + 7) % 7));
    const day = ahead.toISOString().slice(0, 10);
    at(t, `${day}T10:00:00Z`);
    const admin = await makeUser(t, { isAdmin: true });
    const a = await makeUser(t);
    const b = await makeUser(t, { referrerId: a.user.id });
    const c = await makeUser(t, { referrerId: b.user.id });
    for (const u of [a, b, c]) await fund(t, u.user.id, 1_000_000_000n);
    const own = (await invest(a)).data.investment._id;
    expect((await start(a, own)).statusCode).toBe(200);
    const deposit = await call(t, 'POST', '/api/user/process-deposit', {
      token: await tokenNow(t, a),
      body: { txHash: `0x${'e7'.repeat(32)}`, amount: 40, fromAddress: `0x${'a1'.repeat(20)}` },
    });
    expect(deposit.statusCode).toBe(200);

    at(t, `${day}T18:01:00Z`);
    const asAdmin = async (url: string, body: unknown) =>
      call(t, 'POST', url, { token: await tokenNow(t, admin), body });
    const results = await Promise.all([
      complete(a, own),
      invest(b),
      invest(c),
      invest(b),
      invest(c),
      asAdmin('/api/admin/process-deposit', { depositId: deposit.data.deposit._id }),
      asAdmin('/api/admin/update-user-balance', { userId: c.user.id, newBalance: 2000, note: 'race' }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    // The admin list reads them from user_totals: 1.5 earned by a; rewards 10 % of b's and 3 % of c's two 100s to a,
    // 10 % of c's two to b; a's 40 deposit; c's adjustment whatever its balance was when it landed.
    const page = await call(t, 'GET', '/api/admin/users?pageSize=100', { token: await tokenNow(t, admin) });
    const row = (u: TestUser) => page.data.users.find((x: { _id: string }) => x._id === u.user.id);
    expect(row(a)).toMatchObject({ totalEarnings: 1.5, referralRewards: 26, totalDeposits: 40 });
    expect(row(b)).toMatchObject({ totalEarnings: 0, referralRewards: 20, totalDeposits: 0 });
    expect(row(c).totalAdjustments).not.toBe(0);
    await expectLedgerClean(t);
  });
});
