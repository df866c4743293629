import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MSG } from '@harvest/shared/messages';
import { investments, ledgerTransactions } from '../../db/schema.ts';
import { inTransaction } from '../../db/tx.ts';
import { lockUserAccounts, post, userBalances } from '../../ledger/ledger.ts';
import { rawRows } from '../../db/raw.ts';
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
import {
  WALLET,
  hashOf,
  seedCycleEarning,
  seedFundedInvestment,
  seedTier,
  withdrawalsOf,
} from '../../../test/support/money.ts';

/** Races only show on a real PostgreSQL server (PGlite is one connection). */
describe.runIf(isPostgres)('withdrawal races on PostgreSQL', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { isAdmin: true });
  });
  afterAll(() => t.close());

  const withdrawAll = (u: TestUser) =>
    call(t, 'POST', '/api/withdrawal/request-all', {
      token: u.token,
      body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
    });
  const approve = (withdrawalId: string, txHash: string) =>
    call(t, 'POST', '/api/withdrawal/admin/approve', { token: admin.token, body: { withdrawalId, txHash } });
  const reject = (withdrawalId: string) =>
    call(t, 'POST', '/api/withdrawal/admin/reject', { token: admin.token, body: { withdrawalId } });

  async function userWithFunds() {
    const u = await makeUser(t);
    const inv = await seedFundedInvestment(t, u.user.id);
    for (let i = 0; i < 3; i++) await seedCycleEarning(t, u.user.id, inv, 1_000_001n + BigInt(i));
    await fund(t, u.user.id, 2_000_000n, 'rewards');
    await fund(t, u.user.id, 7_000_000n);
    return u;
  }

  it('50 parallel Withdraw All by one user create exactly one set; the rest find no funds', async () => {
    const u = await userWithFunds();
    const results = await Promise.all(Array.from({ length: 50 }, () => withdrawAll(u)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(400);
      expect(r.data).toEqual({ error: MSG.noFunds, code: 'no_funds' });
    }
    const rows = await withdrawalsOf(t, u.user.id);
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((r) => r.requestId)).size).toBe(1);
    const b = await userBalances(t.ctx.db, u.user.id);
    expect(b).toMatchObject({
      balance: 0n,
      rewards: 0n,
      earnings: 0n,
      pending_withdrawal: 3_000_006n + 2_000_000n + 7_000_000n,
    });
    await expectLedgerClean(t);
  });

  it('approve racing reject: exactly one wins, the other gets 409, money moves once', async () => {
    const u = await userWithFunds();
    await withdrawAll(u);
    const rows = await withdrawalsOf(t, u.user.id);
    for (const [i, w] of rows.entries()) {
      const [a, r] = await Promise.all([approve(w.id, hashOf(1000 + i)), reject(w.id)]);
      expect([a.statusCode, r.statusCode].sort()).toEqual([200, 409]);
    }
    const after = await withdrawalsOf(t, u.user.id);
    expect(after.filter((w) => w.status === 'pending')).toHaveLength(0);
    const rejected = after.filter((w) => w.status === 'rejected');
    const b = await userBalances(t.ctx.db, u.user.id);
    expect(b.pending_withdrawal).toBe(0n);
    const returned = rejected.reduce((s, w) => s + w.amount, 0n);
    expect(b.balance + b.rewards + b.earnings).toBe(returned);
    await expectLedgerClean(t);
  });

  it('double approve (10 at once, different hashes): one payout', async () => {
    const u = await userWithFunds();
    await withdrawAll(u);
    const [w] = await withdrawalsOf(t, u.user.id);
    if (!w) throw new Error('no withdrawal');
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => approve(w.id, hashOf(2000 + i))));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(9);
    const payouts = await t.ctx.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.refId, w.id));
    expect(payouts.map((p) => p.kind)).toEqual(['withdrawal_payout']);
    // Held by its request's one hold, which the payout does not touch.
    const holds = await t.ctx.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.refId, w.requestId));
    expect(holds.map((p) => p.kind)).toEqual(['withdrawal_request_hold']);
    await expectLedgerClean(t);
  });

  it('one hash raced by two requests: only one request gets it', async () => {
    const u1 = await userWithFunds();
    const u2 = await userWithFunds();
    await withdrawAll(u1);
    await withdrawAll(u2);
    const [a] = await withdrawalsOf(t, u1.user.id);
    const [b] = await withdrawalsOf(t, u2.user.id);
    if (!a || !b) throw new Error('no withdrawals');
    const h = hashOf(3000);
    const [ra, rb] = await Promise.all([approve(a.id, h), approve(b.id, h)]);
    expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 409]);
    const hashes = await rawRows<{ n: number | string }>(
      t.ctx.db,
      sql`SELECT COUNT(DISTINCT request_id) AS n FROM withdrawals WHERE tx_hash = ${h}`,
    );
    expect(Number(hashes[0]?.n)).toBe(1);
    await expectLedgerClean(t);
  });

  it('Withdraw All racing an invest never spends the balance twice', async () => {
    const tierId = (await seedTier(t, { amount: 5_000_000n, rateScaled: 15_000 })).id;
    for (let round = 0; round < 10; round++) {
      const u = await makeUser(t);
      await fund(t, u.user.id, 7_000_000n);
      // An invest as the investments module does it: lock the user's accounts, write the
      // investment, move its amount from balance to invested (refused when short).
      const invest = () =>
        inTransaction(t.ctx.db, async (tx) => {
          await lockUserAccounts(tx, [u.user.id]);
          const [inv] = await tx
            .insert(investments)
            .values({ userId: u.user.id, tierId, tierName: 'Race', amount: 5_000_000n, dailyRateScaled: 15_000 })
            .returning({ id: investments.id });
          if (!inv) throw new Error('investment not inserted');
          await post(tx, {
            kind: 'investment',
            refId: inv.id,
            insufficientMessage: MSG.insufficientBalance,
            legs: [
              { account: { userId: u.user.id, kind: 'balance' }, amount: -5_000_000n },
              { account: { userId: u.user.id, kind: 'invested' }, amount: 5_000_000n },
            ],
          });
          return 'invested';
        }).catch((err: Error) => err.message);
      const [w, i] = await Promise.all([withdrawAll(u), invest()]);
      const b = await userBalances(t.ctx.db, u.user.id);
      const held = (await withdrawalsOf(t, u.user.id)).reduce((s, x) => s + x.amount, 0n);
      // Every micro-USDC is in exactly one place.
      expect(b.balance + b.invested + b.pending_withdrawal).toBe(7_000_000n);
      expect(held).toBe(b.pending_withdrawal);
      if (i === 'invested') {
        expect(b.invested).toBe(5_000_000n);
        // Withdraw All took what the invest left (2 USDC), or it ran first and took all (then the invest failed).
        expect(w.statusCode).toBe(200);
        expect(b.pending_withdrawal).toBe(2_000_000n);
      } else {
        expect(i).toBe(MSG.insufficientBalance);
        expect(b.pending_withdrawal).toBe(7_000_000n);
      }
      const invs = await t.ctx.db.select().from(investments).where(eq(investments.userId, u.user.id));
      expect(invs.length).toBe(b.invested / 5_000_000n === 1n ? 1 : 0);
    }
    await expectLedgerClean(t);
  });
});
