import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MSG } from '@harvest/shared/messages';
import { call, createTestApp, makeUser, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { rawRows } from '../../db/raw.ts';
import { adminRouteTable } from '../../../test/support/route-table.ts';

let t: TestApp;
let admin: TestUser;
let investor: TestUser;
let adminRoutes: { method: string; url: string }[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t, { isAdmin: true });
  investor = await makeUser(t);
  adminRoutes = adminRouteTable(t.app);
});
afterAll(() => t.close());

const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, () => randomUUID());
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
const asMethod = (m: string): Method => {
  if (m === 'GET' || m === 'POST' || m === 'PUT' || m === 'DELETE' || m === 'PATCH') return m;
  throw new Error(`unexpected method ${m}`);
};

describe('admin route table', () => {
  it('is read from the app (the parser finds the known routes, nested ones included)', () => {
    const keys = adminRoutes.map((r) => `${r.method} ${r.url}`);
    for (const k of [
      'GET /api/admin/dashboard',
      'GET /api/user/admin/analytics',
      'GET /api/admin/users',
      'GET /api/admin/users/:id/deposits',
      'GET /api/admin/users/:id/referral-tree',
      'GET /api/admin/audit',
      'GET /api/admin/tiers',
      'POST /api/admin/tiers',
      'PUT /api/admin/tiers/:id',
      'GET /api/admin/export/deposits.csv',
      'GET /api/admin/export/withdrawals.csv',
      'GET /api/admin/export/users.csv',
      'POST /api/user/admin/toggle-block/:id',
      'PUT /api/user/admin/update-email',
    ]) {
      expect(keys).toContain(k);
    }
  });

  it('every admin route answers 401 without a token', async () => {
    for (const r of adminRoutes) {
      const res = await call(t, asMethod(r.method), concrete(r.url), r.method === 'GET' ? {} : { body: {} });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(res.data, `${r.method} ${r.url}`).toEqual({ error: MSG.unauthorized, code: 'unauthorized' });
    }
  });

  it('every admin route answers 403 to an investor, before looking at the request', async () => {
    for (const r of adminRoutes) {
      const res = await call(
        t,
        asMethod(r.method),
        concrete(r.url),
        r.method === 'GET' ? { token: investor.token } : { token: investor.token, body: {} },
      );
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.data, `${r.method} ${r.url}`).toEqual({ error: MSG.forbidden, code: 'forbidden' });
    }
  });

  it('no admin route, called by an admin in any way, changes an existing audit row', async () => {
    await call(t, 'POST', `/api/user/admin/toggle-block/${investor.user.id}`, { token: admin.token });
    await call(t, 'POST', '/api/admin/tiers', { token: admin.token, body: { name: 'Seed', amount: 10, dailyRate: 1 } });
    const snapshot = async () =>
      rawRows<{ id: string; row: string }>(
        t.ctx.db,
        sql`SELECT id::text AS id, row_to_json(a)::text AS row FROM audit_log a ORDER BY a.id`,
      );
    const before = await snapshot();
    expect(before.length).toBeGreaterThanOrEqual(2);
    for (const r of adminRoutes) {
      for (const id of [before[0]?.id ?? '1', randomUUID()]) {
        const url = r.url.replace(/:[A-Za-z_]+/g, id);
        await call(
          t,
          asMethod(r.method),
          url,
          r.method === 'GET' ? { token: admin.token } : { token: admin.token, body: {} },
        );
      }
    }
    const after = await snapshot();
    expect(after.slice(0, before.length)).toEqual(before);
  });
});
