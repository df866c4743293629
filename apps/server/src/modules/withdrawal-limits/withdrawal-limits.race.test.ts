import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
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
import { WALLET, withdrawalsOf } from '../../../test/support/money.ts';

/** Races only show on a real PostgreSQL server (PGlite is one connection). */
describe.runIf(isPostgres)('withdrawal limits under parallel requests on PostgreSQL', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { isAdmin: true });
  });
  afterAll(() => t.close());

  const setPolicy = (body: Record<string, number | null>) =>
    call(t, 'PUT', '/api/admin/withdrawal-policy', {
      token: admin.token,
      body: { perInvestorDay: null, perInvestorMonth: null, platformDay: null, ...body },
    });
  const withdrawAll = (u: TestUser) =>
    call(t, 'POST', '/api/withdrawal/request-all', {
      token: u.token,
      body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
    });

  it('30 investors at once against a platform limit of 10 of them: exactly 10 pass, the rest change nothing', async () => {
    const people = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const u = await makeUser(t);
        await fund(t, u.user.id, 100_000_000n);
        return u;
      }),
    );
    expect((await setPolicy({ platformDay: 1_000 })).statusCode).toBe(200);
    const results = await Promise.all(people.map(withdrawAll));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(refused).toHaveLength(20);
    for (const r of refused) {
      expect(r.statusCode).toBe(403);
      expect(r.data).toMatchObject({
        code: 'withdrawal_limit',
        template: MSG.overPlatformLimit(new Date(), '').template,
      });
    }
    let held = 0n;
    for (const u of people) {
      const b = await userBalances(t.ctx.db, u.user.id);
      held += b.pending_withdrawal;
      expect(b.balance + b.pending_withdrawal).toBe(100_000_000n);
    }
    expect(held).toBe(1_000_000_000n);
    await expectLedgerClean(t);
    await setPolicy({});
  });

  it("one investor's requests racing their deposits: the 24-hour limit is never passed", async () => {
    const u = await makeUser(t);
    expect((await setPolicy({ perInvestorDay: 25 })).statusCode).toBe(200);
    await fund(t, u.user.id, 5_000_000n);
    // Nine more 5 USDC credits land while ten Withdraw All run: whatever the order, at most 25 leaves.
    const results = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const [r] = await Promise.all([withdrawAll(u), i > 0 ? fund(t, u.user.id, 5_000_000n) : null]);
        return r;
      }),
    );
    for (const r of results)
      expect([200, 'no_funds', 'withdrawal_limit']).toContain(r.statusCode === 200 ? 200 : r.data.code);
    const counted = (await withdrawalsOf(t, u.user.id)).reduce((n, w) => n + w.amount, 0n);
    expect(counted).toBeLessThanOrEqual(25_000_000n);
    // Withdraw All takes the whole balance: when every request runs after the credits (50 USDC), each is over the
    // limit and nothing leaves, which is right too. Whatever left, left through an answer of 200.
    expect(counted > 0n).toBe(results.some((r) => r.statusCode === 200));
    const b = await userBalances(t.ctx.db, u.user.id);
    expect(b.balance + b.pending_withdrawal).toBe(50_000_000n);
    await expectLedgerClean(t);
    await setPolicy({});
  });
});
