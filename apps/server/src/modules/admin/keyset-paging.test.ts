import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MSG } from '@harvest/shared/messages';
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
  WALLET,
  seedCycleEarning,
  seedDeposit,
  seedFundedInvestment,
  seedWithdrawal,
  setCreatedAt,
} from '../../../test/support/money.ts';
import { rawRows } from '../../db/raw.ts';

/**
 * Keyset paging of the back-office lists (docs/decisions/0036-keyset-paging.md): page numbers from
 * either end, cursors forward and back, all give the order the list defines, every row exactly
 * once, ties on the time included; totals come from the counters and equal the rows.
 */
let t: TestApp;
let admin: TestUser;
const users: TestUser[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t, { isAdmin: true });
  for (let i = 0; i < 22; i++) users.push(await makeUser(t));
  // Ties: groups of three users (and their deposits) share one instant.
  for (const [i, u] of users.entries()) {
    const when = new Date(Date.parse('2026-10-01T00:00:00Z') + Math.floor(i / 3) * 60_000);
    await setCreatedAt(t, u.user.id, when);
    await seedDeposit(t, u.user.id, { amount: 1_000_000n + BigInt(i), at: when });
    if (i % 2 === 0) await seedDeposit(t, u.user.id, { amount: 2_000_000n, status: 'pending', at: when });
  }
  // Withdrawals: three Withdraw All requests (earnings, rewards and balance rows share their time) and singles.
  for (const u of users.slice(0, 3)) {
    const inv = await seedFundedInvestment(t, u.user.id);
    for (let c = 0; c < 3; c++) await seedCycleEarning(t, u.user.id, inv, 1_000_000n);
    await fund(t, u.user.id, 500_000n, 'rewards');
    const res = await call(t, 'POST', '/api/withdrawal/request-all', {
      token: u.token,
      body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
    });
    expect(res.statusCode).toBe(200);
  }
  for (const u of users.slice(3, 8))
    await seedWithdrawal(t, u.user.id, { amount: 100_000n, at: '2026-10-05T00:00:00Z' });
  // Audit entries: block and unblock a few users.
  for (const u of users.slice(0, 6))
    for (let k = 0; k < 2; k++)
      expect(
        (await call(t, 'POST', `/api/user/admin/toggle-block/${u.user.id}`, { token: admin.token })).statusCode,
      ).toBe(200);
});
afterAll(() => t.close());

interface List {
  url: string;
  items: (data: any) => { _id: string }[];
  total: (data: any) => number;
  /** The list's order, straight from the table. */
  expected: string;
}

const LISTS: Record<string, List> = {
  users: {
    url: '/api/admin/users',
    items: (d) => d.users,
    total: (d) => d.total,
    expected: `SELECT id::text FROM users ORDER BY created_at DESC, id DESC`,
  },
  deposits: {
    url: '/api/admin/deposits?status=all',
    items: (d) => d.deposits,
    total: (d) => d.total,
    expected: `SELECT id::text FROM deposits ORDER BY created_at DESC, id DESC`,
  },
  'pending deposits': {
    url: '/api/admin/deposits?status=pending',
    items: (d) => d.deposits,
    total: (d) => d.total,
    expected: `SELECT id::text FROM deposits WHERE status = 'pending' ORDER BY created_at DESC, id DESC`,
  },
  withdrawals: {
    url: '/api/withdrawal/admin/all',
    items: (d) => d.withdrawals,
    total: (d) => d.pagination.total,
    expected: `SELECT id::text FROM withdrawals ORDER BY requested_at DESC, coalesce(cycle_number, 2147483647) DESC, id DESC`,
  },
  audit: {
    url: '/api/admin/audit',
    items: (d) => d.entries,
    total: (d) => d.total,
    expected: `SELECT id::text FROM audit_log ORDER BY created_at DESC, id DESC`,
  },
};

const get = async (url: string) => {
  const res = await call(t, 'GET', url, { token: admin.token });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.data;
};
const withParams = (url: string, params: Record<string, string | number>) =>
  `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;

describe.each(Object.entries(LISTS))('%s', (_name, list) => {
  const SIZE = 4;
  let expected: string[];
  beforeAll(async () => {
    expected = (await rawRows<{ id: string }>(t.ctx.db, sql.raw(list.expected))).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(2 * SIZE);
  });

  it('every page number, from either end, holds the rows the order puts there; the total is the row count', async () => {
    const pages = Math.ceil(expected.length / SIZE);
    for (let page = 1; page <= pages + 1; page++) {
      const data = await get(withParams(list.url, { page, pageSize: SIZE }));
      expect(list.total(data)).toBe(expected.length);
      expect(
        list.items(data).map((x) => x._id),
        `page ${page}`,
      ).toEqual(expected.slice((page - 1) * SIZE, page * SIZE));
    }
  });

  it('nextCursor walks forward and prevCursor back over every row exactly once', async () => {
    const seen: string[] = [];
    let data = await get(withParams(list.url, { pageSize: SIZE }));
    expect(data.prevCursor ?? null).toBeNull();
    seen.push(...list.items(data).map((x) => x._id));
    const pagesForward = [data];
    while (data.nextCursor) {
      data = await get(withParams(list.url, { pageSize: SIZE, after: data.nextCursor }));
      seen.push(...list.items(data).map((x) => x._id));
      pagesForward.push(data);
    }
    expect(seen).toEqual(expected);
    const back: string[] = list.items(data).map((x) => x._id);
    while (data.prevCursor) {
      data = await get(withParams(list.url, { pageSize: SIZE, before: data.prevCursor }));
      back.unshift(...list.items(data).map((x) => x._id));
    }
    expect(back).toEqual(expected);
  });

  it('refuses a cursor it did not make', async () => {
    for (const bad of [
      'nonsense',
      Buffer.from('["x","y"]').toString('base64url'),
      Buffer.from('[1]').toString('base64url'),
    ]) {
      const res = await call(t, 'GET', withParams(list.url, { after: bad }), { token: admin.token });
      expect(res.statusCode, bad).toBe(400);
      expect(res.data).toEqual({ error: MSG.invalidCursor, code: 'validation' });
    }
  });
});

it('keeps the books balanced', async () => {
  await expectLedgerClean(t);
});
