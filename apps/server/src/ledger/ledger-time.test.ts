import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createTestApp, fund, makeUser, type TestApp } from '../../test/helpers.ts';
import { addTier, at, tokenNow } from '../../test/support/investments.ts';
import { hashOf, WALLET } from '../../test/support/money.ts';
import { rawRows } from '../db/raw.ts';

/**
 * Ledger transactions are dated by the platform clock, like the business rows they book: with the
 * clock set months back, no ledger row may carry the real time (the database's now()).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const bookedAt = async () =>
  rawRows<{ kind: string; created_at: Date }>(
    t.ctx.db,
    sql`SELECT kind, created_at FROM ledger_transactions ORDER BY id`,
  );

describe('ledger transaction times', () => {
  it('every service posting is dated by the injected clock, as its business row', async () => {
    await addTier(t, 'Clock', '100', 15_000);
    const admin = await makeUser(t, { isAdmin: true });
    const referrer = await makeUser(t);
    const u = await makeUser(t, { referrerId: referrer.user.id });

    at(t, '2026-03-04T08:00:00Z'); // a Wednesday, long before the real date
    const adminToken = await tokenNow(t, admin);
    const token = await tokenNow(t, u);
    const dep = await call(t, 'POST', '/api/user/process-deposit', {
      token,
      body: { txHash: hashOf(9001), amount: 150, fromAddress: WALLET },
    });
    expect(
      (
        await call(t, 'POST', '/api/admin/process-deposit', {
          token: adminToken,
          body: { depositId: dep.data.deposit._id },
        })
      ).statusCode,
    ).toBe(200);
    const inv = await call(t, 'POST', '/api/user/invest', { token, body: { amount: 100 } });
    expect(inv.statusCode).toBe(200);
    const investmentId: string = inv.data.investment._id;
    expect((await call(t, 'POST', '/api/user/start-earning', { token, body: { investmentId } })).statusCode).toBe(200);
    at(t, '2026-03-04T16:30:00Z');
    const later = await tokenNow(t, u);
    expect(
      (await call(t, 'POST', '/api/user/complete-cycle', { token: later, body: { investmentId } })).statusCode,
    ).toBe(200);
    await fund(t, u.user.id, 5_000_000n, 'rewards');
    const req = await call(t, 'POST', '/api/withdrawal/request-all', {
      token: later,
      body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
    });
    expect(req.statusCode).toBe(200);
    const mine = await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token: later });
    const [first, second] = mine.data.withdrawals as { _id: string }[];
    const adminLater = await tokenNow(t, admin);
    expect(
      (
        await call(t, 'POST', '/api/withdrawal/admin/approve', {
          token: adminLater,
          body: { withdrawalId: first?._id, txHash: hashOf(9002) },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await call(t, 'POST', '/api/withdrawal/admin/reject', {
          token: adminLater,
          body: { withdrawalId: second?._id },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await call(t, 'POST', '/api/admin/update-user-balance', {
          token: adminLater,
          body: { userId: u.user.id, newBalance: 80 },
        })
      ).statusCode,
    ).toBe(200);

    const rows = await bookedAt();
    const kinds = new Set(rows.map((r) => r.kind));
    for (const k of [
      'deposit',
      'investment',
      'referral_reward',
      'cycle_earning',
      'withdrawal_request_hold',
      'withdrawal_payout',
      'withdrawal_release',
      'admin_adjustment',
      'test_funding',
    ])
      expect(kinds).toContain(k);
    for (const r of rows) {
      const when = r.created_at.toISOString();
      expect(when >= '2026-03-04T08:00:00' && when < '2026-03-05', `${r.kind} booked at ${when}`).toBe(true);
    }
  });
});
