import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createTestApp, makeUser, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { setCreatedAt } from '../../../test/support/money.ts';
import { rawRows } from '../../db/raw.ts';
import { registrationsPerDay } from '../../ledger/rollups.queries.ts';

/**
 * Admin users by page number (read from the nearer end of the list, docs/decisions/0036-keyset-paging.md):
 * users at exactly midnight in the platform time zone, on a daylight-saving day, with ties on one instant,
 * on empty days between, and after a change must all land on the page the order says.
 */
const TZ = 'America/New_York';
let t: TestApp;
let admin: TestUser;

// Local midnights and their neighbours, a DST change (2026-11-01 is 25 hours long in New York),
// three users on one instant, and days with no registration in between.
const INSTANTS = [
  '2026-10-30T03:59:59.999999Z', // 2026-10-29 23:59:59.999999 local
  '2026-10-30T04:00:00Z', // 2026-10-30 00:00 local
  '2026-10-30T04:00:00Z',
  '2026-10-30T04:00:00Z',
  '2026-10-30T12:00:00Z',
  '2026-11-01T03:59:59Z', // 2026-10-31 23:59:59 local (EDT)
  '2026-11-01T04:00:00Z', // 2026-11-01 00:00 local
  '2026-11-01T05:30:00Z', // 01:30 EDT
  '2026-11-01T06:30:00Z', // 01:30 EST, the same wall time an hour later
  '2026-11-02T04:59:59Z', // 2026-11-01 23:59:59 local (EST)
  '2026-11-02T05:00:00Z', // 2026-11-02 00:00 local
  '2026-11-05T05:00:00Z',
  '2026-11-05T05:00:00.000001Z',
  '2026-11-09T04:59:59Z',
  '2026-11-09T05:00:00Z',
  '2026-11-09T05:00:00Z',
];

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_TIMEZONE: TZ });
  admin = await makeUser(t, { isAdmin: true });
  await setCreatedAt(t, admin.user.id, '2026-10-01T12:00:00Z');
  for (const at of INSTANTS) {
    const u = await makeUser(t);
    await setCreatedAt(t, u.user.id, at);
  }
});
afterAll(() => t.close());

const order = async () =>
  (await rawRows<{ id: string }>(t.ctx.db, sql`SELECT id::text FROM users ORDER BY created_at DESC, id DESC`)).map(
    (r) => r.id,
  );

async function pageIds(page: number, pageSize: number): Promise<{ ids: string[]; total: number }> {
  const res = await call(t, 'GET', `/api/admin/users?page=${page}&pageSize=${pageSize}`, { token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return { ids: res.data.users.map((u: { _id: string }) => u._id), total: res.data.total };
}

async function expectEveryPage() {
  const expected = await order();
  for (const size of [1, 2, 3, 5, 7])
    for (let page = 1; page <= Math.ceil(expected.length / size) + 1; page++) {
      const got = await pageIds(page, size);
      expect(got.total).toBe(expected.length);
      expect(got.ids, `page ${page} of size ${size}`).toEqual(expected.slice((page - 1) * size, page * size));
    }
}

describe('admin users by page number', () => {
  it('puts every user where the order says, for every page size, from either end', async () => {
    await expectEveryPage();
  });

  it('registration days are platform days: the midnight users are counted on their local day', async () => {
    const days = await registrationsPerDay(t.ctx.db, '2026-10-29', '2026-11-02');
    expect(Object.fromEntries([...days].map(([day, n]) => [day, Number(n)]))).toEqual({
      '2026-10-29': 1,
      '2026-10-30': 4,
      '2026-10-31': 1,
      '2026-11-01': 4,
      '2026-11-02': 1,
    });
  });

  it('stays right after a user moves to another day and another registers on an old day', async () => {
    const [moved] = await rawRows<{ id: string }>(
      t.ctx.db,
      sql`SELECT id::text FROM users WHERE created_at = '2026-11-01T05:30:00Z'`,
    );
    await setCreatedAt(t, moved?.id ?? '', '2026-10-31T15:00:00Z');
    const late = await makeUser(t);
    await setCreatedAt(t, late.user.id, '2026-10-30T04:00:00Z');
    await expectEveryPage();
  });
});
