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
});
