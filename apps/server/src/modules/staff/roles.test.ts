import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { ABILITIES, ROLES, type Ability, type Role } from '@harvest/shared/staff';
import { call, createTestApp, makeUser, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { adminRouteTable } from '../../../test/support/route-table.ts';

/**
 * What each admin route needs, kept by hand on purpose: the test below compares it with the app's own route table,
 * so a route added without a line here (and a decision about who may use it) fails.
 */
const NEEDS: Record<string, Ability> = {
  'GET /api/admin/dashboard': 'read',
  'GET /api/user/admin/analytics': 'read',
  'GET /api/admin/users': 'read',
  'GET /api/admin/users/:id/deposits': 'read',
  'GET /api/admin/users/:id/referral-tree': 'read',
  'GET /api/admin/users/:id/sessions': 'read',
  'GET /api/admin/users/:id/withdrawal-addresses': 'read',
  'GET /api/admin/users/:id/statement': 'read',
  'POST /api/admin/users/:id/revoke-sessions': 'support',
  'PUT /api/admin/users/:id/withdrawals-frozen': 'support',
  'POST /api/user/admin/toggle-block/:id': 'support',
  'PUT /api/user/admin/update-email': 'read',
  'GET /api/admin/audit': 'read',
  'GET /api/admin/export/deposits.csv': 'read',
  'GET /api/admin/export/withdrawals.csv': 'read',
  'GET /api/admin/export/users.csv': 'read',
  'GET /api/admin/tiers': 'read',
  'POST /api/admin/tiers': 'money',
  'PUT /api/admin/tiers/:id': 'money',
  'GET /api/admin/deposits': 'read',
  'POST /api/admin/process-deposit': 'money',
  'POST /api/admin/reject-deposit': 'money',
  'POST /api/admin/update-user-balance': 'money',
  'GET /api/withdrawal/admin/pending': 'read',
  'GET /api/withdrawal/admin/all': 'read',
  'POST /api/withdrawal/admin/approve': 'money',
  'POST /api/withdrawal/admin/reject': 'money',
  'GET /api/withdrawal/admin/batches': 'read',
  'POST /api/withdrawal/admin/batches': 'money',
  'GET /api/withdrawal/admin/batches/:id/file': 'money',
  'POST /api/withdrawal/admin/batches/:id/cancel': 'money',
  'GET /api/withdrawal/admin/payouts': 'read',
  'POST /api/withdrawal/admin/payouts/:id/assign': 'money',
  'POST /api/withdrawal/admin/payouts/:id/dismiss': 'money',
  'GET /api/admin/solvency': 'read',
  'POST /api/admin/solvency/refresh': 'money',
  'GET /api/admin/solvency/sweep-plan': 'money',
  'POST /api/admin/solvency/reconcile': 'money',
  'POST /api/admin/chain-alarms/:id/acknowledge': 'money',
  'GET /api/admin/proposals': 'read',
  'POST /api/admin/proposals/:id/approve': 'approve',
  'POST /api/admin/proposals/:id/reject': 'approve',
  'GET /api/admin/staff': 'read',
  'PUT /api/admin/staff/:id/role': 'staff',
  'POST /api/admin/staff/invite': 'staff',
  'GET /api/admin/withdrawal-policy': 'read',
  'PUT /api/admin/withdrawal-policy': 'money',
  'POST /api/admin/proof-of-reserves/snapshots': 'money',
  'POST /api/admin/proof-of-reserves/:id/signatures': 'money',
  'GET /api/admin/proof-of-reserves/snapshots': 'read',
  'GET /api/admin/proof-of-reserves/:id/reserves': 'read',
};

let t: TestApp;
const staff = new Map<Role, TestUser>();
beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) staff.set(role, await makeUser(t, { role }));
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT';
const asMethod = (m: string): Method => {
  if (m === 'GET' || m === 'POST' || m === 'PUT') return m;
  throw new Error(`unexpected method ${m}`);
};

describe('staff roles on every admin route', () => {
  it('every registered admin route has a role decision, and every role gets exactly what its abilities allow', async () => {
    const routes = adminRouteTable(t.app);
    expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toEqual(Object.keys(NEEDS).sort());
    for (const r of routes) {
      const key = `${r.method} ${r.url}`;
      const url = r.url.replace(/:[A-Za-z_]+/g, () => randomUUID());
      for (const role of ROLES) {
        const { token } = staff.get(role)!;
        const res = await call(t, asMethod(r.method), url, r.method === 'GET' ? { token } : { token, body: {} });
        const allowed = (ABILITIES[NEEDS[key]!] as readonly Role[]).includes(role);
        if (allowed) expect(res.data?.code, `${role} ${key}`).not.toBe('forbidden_role');
        else
          expect({ status: res.statusCode, data: res.data }, `${role} ${key}`).toEqual({
            status: 403,
            data: { error: MSG.forbiddenRole, code: 'forbidden_role' },
          });
      }
    }
  });

  it('GET /api/user/me says the role; an investor has none', async () => {
    const finance = await call(t, 'GET', '/api/user/me', { token: staff.get('finance')!.token });
    expect(finance.data.user).toMatchObject({ isAdmin: true, role: 'finance', fourEyes: false });
    const investor = await makeUser(t);
    const me = await call(t, 'GET', '/api/user/me', { token: investor.token });
    expect(me.data.user).toMatchObject({ isAdmin: false, role: null });
  });
});
