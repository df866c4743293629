import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { addTier, at, countRows, tokenNow } from '../../../test/support/investments.ts';
import { referralTree, referralRewardsOf, referrerChain } from './referrals.queries.ts';

let t: TestApp;
// root <- a <- b <- c <- d: d invests; c, b, a are its level 1, 2, 3 referrers; root is level 4.
let root: TestUser, a: TestUser, b: TestUser, c: TestUser, d: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  await addTier(t, 'Odd', '123.456789', 15000);
  await addTier(t, 'Tiny', '0.000009', 15000);
  at(t, '2026-01-14T10:00:00Z'); // a Wednesday
  root = await makeUser(t, { firstName: 'Root', lastName: 'Zero' });
  a = await makeUser(t, { referrerId: root.user.id, firstName: 'Ann', lastName: 'One' });
  b = await makeUser(t, { referrerId: a.user.id, firstName: 'Ben', lastName: 'Two' });
  c = await makeUser(t, { referrerId: b.user.id, firstName: 'Cid', lastName: 'Three' });
  d = await makeUser(t, { referrerId: c.user.id, firstName: 'Dee', lastName: 'Four' });
  await fund(t, d.user.id, 1_000_000_000n);
});
afterAll(() => t.close());

const get = async (u: TestUser, url: string) => {
  const res = await call(t, 'GET', url, { token: await tokenNow(t, u) });
  expect(res.statusCode).toBe(200);
  return res.data;
};

describe('referral rewards', () => {
  it('walks exactly three levels up in one query', async () => {
    expect(await referrerChain(t.ctx.db, d.user.id)).toEqual([
      { userId: c.user.id, level: 1 },
      { userId: b.user.id, level: 2 },
      { userId: a.user.id, level: 3 },
    ]);
    expect(await referrerChain(t.ctx.db, a.user.id)).toEqual([{ userId: root.user.id, level: 1 }]);
    expect(await referrerChain(t.ctx.db, root.user.id)).toEqual([]);
  });

  it('pays 10/3/1% of the investment, rounded down to the micro-unit, exactly once', async () => {
    const res = await call(t, 'POST', '/api/user/invest', {
      token: await tokenNow(t, d),
      body: { amount: 123.456789 },
    });
    expect(res.statusCode).toBe(200);
    // 123.456789 USDC = 123456789 micro: 10% = 12345678.9 -> 12345678; 3% = 3703703.67 -> 3703703; 1% = 1234567.89 -> 1234567.
    expect((await userBalances(t.ctx.db, c.user.id)).rewards).toBe(12_345_678n);
    expect((await userBalances(t.ctx.db, b.user.id)).rewards).toBe(3_703_703n);
    expect((await userBalances(t.ctx.db, a.user.id)).rewards).toBe(1_234_567n);
    expect((await userBalances(t.ctx.db, root.user.id)).rewards).toBe(0n);
    expect(await countRows(t, 'referral_rewards', root.user.id)).toBe(0);
    for (const u of [a, b, c]) expect(await countRows(t, 'referral_rewards', u.user.id)).toBe(1);

    const cRewards = await get(c, '/api/user/referrals');
    expect(cRewards).toEqual({
      referrals: [
        {
          _id: expect.any(String),
          level: 1,
          amount: 12.345678,
          fromUser: { firstName: 'Dee', lastName: 'Four', email: d.user.email },
          investmentAmount: 123.456789,
          createdAt: expect.any(String),
        },
      ],
      totalRewards: 12.345678,
    });
    expect((await get(a, '/api/user/referrals')).referrals[0]).toMatchObject({ level: 3, amount: 1.234567 });
    expect(await get(root, '/api/user/referrals')).toEqual({ referrals: [], totalRewards: 0 });

    const dash = await get(b, '/api/user/dashboard');
    expect(dash.accountSummary).toMatchObject({ referralRewards: 3.703703, availableToWithdraw: 3.703703, balance: 0 });
    await expectLedgerClean(t);
  });

  it('skips a reward that rounds to zero', async () => {
    const res = await call(t, 'POST', '/api/user/invest', { token: await tokenNow(t, d), body: { amount: 0.000009 } });
    expect(res.statusCode).toBe(200);
    // 10% of 9 micro = 0.9 -> 0: no reward rows at all.
    expect(await countRows(t, 'referral_rewards', c.user.id)).toBe(1);
    await expectLedgerClean(t);
  });
});

describe('referral tree', () => {
  it('lists three levels below the caller with names, e-mails and join dates', async () => {
    const tree = await get(root, '/api/user/referral-tree?t=123');
    expect(tree.totalReferrals).toBe(3);
    expect(tree.level1).toEqual([
      {
        _id: a.user.id,
        firstName: 'Ann',
        lastName: 'One',
        email: a.user.email,
        createdAt: a.user.createdAt.toISOString(),
      },
    ]);
    expect(tree.level2.map((x: { _id: string }) => x._id)).toEqual([b.user.id]);
    expect(tree.level3.map((x: { _id: string }) => x._id)).toEqual([c.user.id]);
    expect(tree).toMatchObject({ level1Count: 1, level2Count: 1, level3Count: 1 });

    const leaf = await get(d, '/api/user/referral-tree');
    expect(leaf).toEqual({
      totalReferrals: 0,
      level1: [],
      level2: [],
      level3: [],
      level1Count: 0,
      level2Count: 0,
      level3Count: 0,
    });
    expect((await call(t, 'GET', '/api/user/referral-tree')).statusCode).toBe(401);
  });

  it('counts exactly and caps the lists for wide trees (admin reuse with any user id)', async () => {
    const hub = await makeUser(t);
    for (let i = 0; i < 4; i++) await makeUser(t, { referrerId: hub.user.id });
    const tree = await referralTree(t.ctx.db, hub.user.id, 2);
    expect(tree.counts).toEqual([4, 0, 0]);
    expect(tree.totalReferrals).toBe(4);
    expect(tree.levels[0]).toHaveLength(2);
    const rewards = await referralRewardsOf(t.ctx.db, c.user.id, 0);
    expect(rewards).toEqual({ rewards: [], total: 12_345_678n });
  });
});
