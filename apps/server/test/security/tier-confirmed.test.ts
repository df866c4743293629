import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { rawRows } from '../../src/db/raw.ts';
import { userBalances } from '../../src/ledger/ledger.ts';
import { seedTiers } from '../../src/modules/tiers/tiers.seed.ts';
import { seedTier } from '../support/money.ts';
import { call, createTestApp, expectLedgerClean, fund, makeUser, type TestApp, type TestUser } from '../helpers.ts';

/**
 * The investor gets exactly the tier and daily rate they confirmed. A database from before an active tier's amount
 * became its own (decision 0088) may hold "Diamond" at Bronze's amount (100 USDC) with a higher rate; the investor's
 * Invest Now on Bronze
 * sends Bronze's `_id` (and the rate the dialog showed) and gets Bronze; an amount alone that fits two
 * tiers is refused (never guessed); a tier changed or deactivated since the page loaded is refused.
 */
let t: TestApp;
let admin: TestUser;
let investor: TestUser;
let tiers: Record<string, { _id: string; amount: number; dailyRate: number }>;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(new Date('2026-01-14T10:00:00Z')); // a Wednesday
  await seedTiers(t.ctx.db, t.clock.now());
  admin = await makeUser(t, { isAdmin: true });
  investor = await makeUser(t);
  await fund(t, investor.user.id, 1_000_000_000n);
  // An administrator can no longer add it (409): it is written as such a database holds it.
  await seedTier(t, { name: 'Diamond', amount: 100_000_000n, rateScaled: 40_000 });
  const list = await call(t, 'GET', '/api/user/investment-tiers', { token: investor.token });
  tiers = Object.fromEntries(list.data.tiers.map((x: { name: string }) => [x.name, x]));
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

const invest = (body: unknown) => call(t, 'POST', '/api/user/invest', { token: investor.token, body });
const investments = async () =>
  rawRows<{ tier_name: string; daily_rate_scaled: number }>(
    t.ctx.db,
    sql`SELECT tier_name, daily_rate_scaled FROM investments WHERE user_id = ${investor.user.id}::uuid ORDER BY created_at`,
  );

describe('the tier the investor confirmed', () => {
  it('Invest Now on Bronze (its _id and rate) buys Bronze at 1.5%, not Diamond at 4%', async () => {
    const bronze = tiers.Bronze!;
    const res = await invest({ amount: 100, tierId: bronze._id, dailyRate: 1.5 });
    expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
    expect(res.data.investment).toMatchObject({ tier: 'Bronze', amount: 100, dailyRate: 1.5 });
    const diamond = await invest({ amount: 100, tierId: tiers.Diamond!._id, dailyRate: 4 });
    expect(diamond.statusCode).toBe(200);
    expect(diamond.data.investment).toMatchObject({ tier: 'Diamond', dailyRate: 4 });
    expect((await investments()).map((r) => r.tier_name)).toEqual(['Bronze', 'Diamond']);
  });

  it('an amount alone that fits two active tiers is refused, asking to choose; nothing moves', async () => {
    const before = await userBalances(t.ctx.db, investor.user.id);
    const res = await invest({ amount: 100 });
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ error: MSG.tierAmbiguous, code: 'validation' });
    expect(await userBalances(t.ctx.db, investor.user.id)).toEqual(before);
    // An amount that fits one tier still works as the spec's call.
    expect((await invest({ amount: 500 })).data.investment).toMatchObject({ tier: 'Silver', dailyRate: 2 });
  });

  it('terms that differ from the tier now (amount or rate) are refused: "This tier changed"', async () => {
    const n = (await investments()).length;
    for (const body of [
      { amount: 50, tierId: tiers.Bronze!._id },
      { amount: 100, tierId: tiers.Diamond!._id, dailyRate: 1.5 },
    ]) {
      const res = await invest(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
      expect(res.data).toEqual({ error: MSG.tierChanged, code: 'tier_changed' });
    }
    expect(await investments()).toHaveLength(n);
  });

  it('a tier edited or deactivated after the page loaded is refused; an unknown tier is not found', async () => {
    const gold = tiers.Gold!;
    const edit = await call(t, 'PUT', `/api/admin/tiers/${gold._id}`, { token: admin.token, body: { dailyRate: 1 } });
    expect(edit.statusCode).toBe(200);
    const stale = await invest({ amount: gold.amount, tierId: gold._id, dailyRate: gold.dailyRate });
    expect(stale.statusCode).toBe(409);
    expect(stale.data.code).toBe('tier_changed');

    const bronze = tiers.Bronze!;
    const off = await call(t, 'PUT', `/api/admin/tiers/${bronze._id}`, { token: admin.token, body: { active: false } });
    expect(off.statusCode).toBe(200);
    const gone = await invest({ amount: 100, tierId: bronze._id, dailyRate: 1.5 });
    expect(gone.statusCode).toBe(409);
    expect(gone.data).toEqual({ error: MSG.tierChanged, code: 'tier_changed' });

    const unknown = await invest({ amount: 100, tierId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
  });
});
