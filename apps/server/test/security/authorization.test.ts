import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { call, createTestApp, expectLedgerClean, type TestApp } from '../helpers.ts';
import {
  buildWorld,
  fingerprint,
  loadRouteTable,
  SPEC_CALLS,
  urlOf,
  validBodies,
  type Route,
  type World,
} from './support.ts';

/**
 * Authorisation over the whole route table (read from GET /api/docs, so a route added later is
 * probed without anyone listing it here): 401 without a token, 403 for investors on admin
 * routes, 404 for another user's ids, and nothing changed by any refused call.
 */
let t: TestApp;
let w: World;
let routes: Route[];
let bodies: ReturnType<typeof validBodies>;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  routes = await loadRouteTable(t);
  bodies = validBodies(w);
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

const bodyIds = (r: Route, ids: Record<string, string>) =>
  Object.fromEntries(Object.entries(ids).filter(([k]) => !r.pathParams.includes(k)));
const bodyOf = (r: Route): unknown => (r.method === 'GET' ? undefined : (bodies[r.key] ?? {}));

describe('the route table', () => {
  it('holds every call of the spec (section 7), so a missing route fails here', () => {
    const keys = routes.map((r) => r.key);
    for (const c of SPEC_CALLS) expect(keys, c).toContain(c);
  });

  it("has exactly the public calls (eight, and the proof of reserves' reads), and a known body for every POST/PUT", () => {
    expect(
      routes
        .filter((r) => r.isPublic)
        .map((r) => r.key)
        .sort(),
    ).toEqual([
      'GET /api/proof-of-reserves',
      'GET /api/proof-of-reserves/history',
      'GET /api/proof-of-reserves/{id}',
      'GET /api/proof-of-reserves/{id}/reserves',
      'POST /api/login',
      'POST /api/passkey-login',
      'POST /api/passkey-login/options',
      'POST /api/register',
      'POST /api/security/link-preview',
      'POST /api/security/not-me',
      'POST /api/security/staff-invite',
      'POST /api/send-code',
    ]);
    for (const r of routes.filter((x) => x.method !== 'GET'))
      expect(Object.keys(bodies), `${r.key} needs a body in validBodies()`).toContain(r.key);
  });
});

describe('authentication is required', () => {
  it('every non-public route answers 401 without a token, with an empty or a valid body, and changes nothing', async () => {
    const before = await fingerprint(t);
    for (const r of routes.filter((x) => !x.isPublic)) {
      for (const body of r.method === 'GET' ? [undefined] : [{}, bodyOf(r)]) {
        const res = await call(t, r.method, urlOf(r, { id: w.victim.user.id }), body === undefined ? {} : { body });
        expect(res.statusCode, r.key).toBe(401);
        expect(res.data, r.key).toEqual({ error: MSG.unauthorized, code: 'unauthorized' });
      }
      // A token-shaped header that is not a token.
      const junk = await call(t, r.method, urlOf(r), { headers: { authorization: 'Bearer not.a.token' } });
      expect(junk.statusCode, r.key).toBe(401);
      const basic = await call(t, r.method, urlOf(r), {
        headers: {
          authorization: `Basic ${Buffer.from(`${w.admin.user.email}:${w.admin.password}`).toString('base64')}`,
        },
      });
      expect(basic.statusCode, r.key).toBe(401);
    }
    expect(await fingerprint(t)).toEqual(before);
  });

  it('the public calls answer without a token (never 401 for lack of one)', async () => {
    for (const r of routes.filter((x) => x.isPublic)) {
      const res = await call(t, r.method, urlOf(r), r.method === 'GET' ? {} : { body: {} });
      // A read of the proof of reserves answers (its history, or 404 for none yet); an empty body is bad input where
      // one is needed (the passkey sign-in's options take none).
      if (r.method === 'GET') expect([200, 404], r.key).toContain(res.statusCode);
      else expect(res.statusCode, r.key).toBe(bodies[r.key] === undefined ? 200 : 400);
    }
  });
});

describe('admin routes', () => {
  it('every admin route answers 403 to an investor, with an empty or a valid body, and changes nothing', async () => {
    const admins = routes.filter((r) => r.isAdmin);
    expect(admins.length).toBeGreaterThanOrEqual(20);
    const before = await fingerprint(t);
    for (const r of admins) {
      for (const body of r.method === 'GET' ? [undefined] : [{}, bodyOf(r)]) {
        const res = await call(t, r.method, urlOf(r, { id: w.victim.user.id }), {
          token: w.investor.token,
          ...(body === undefined ? {} : { body }),
        });
        expect(res.statusCode, r.key).toBe(403);
        expect(res.data, r.key).toEqual({ error: MSG.forbidden, code: 'forbidden' });
      }
    }
    expect(await fingerprint(t)).toEqual(before);
  });

  it('admin routes that take an id answer 404 to an admin for an unknown id, and change nothing', async () => {
    const before = await fingerprint(t);
    const withIds = routes.filter((r) => r.isAdmin && r.idFields.length > 0);
    expect(withIds.map((r) => r.key)).toEqual(
      expect.arrayContaining([
        'POST /api/user/admin/toggle-block/{id}',
        'POST /api/withdrawal/admin/approve',
        'POST /api/admin/process-deposit',
        'POST /api/admin/update-user-balance',
      ]),
    );
    for (const r of withIds) {
      const body = bodyOf(r);
      const unknown = Object.fromEntries(r.idFields.map((f) => [f, randomUUID()]));
      const res = await call(t, r.method, urlOf(r, unknown), {
        token: w.admin.token,
        ...(body === undefined ? {} : { body: { ...(body as object), ...bodyIds(r, unknown) } }),
      });
      expect(res.statusCode, `${r.key} ${JSON.stringify(res.data)}`).toBe(404);
      expect(res.data, r.key).toEqual({ error: MSG.notFound, code: 'not_found' });
    }
    expect(await fingerprint(t)).toEqual(before);
  });
});

describe("another user's ids", () => {
  /** The victim's object for an id field of an investor route. */
  const victimIdFor = (field: string): string => {
    if (field === 'investmentId') return w.theirs.investmentId;
    if (field === 'depositId') return w.theirs.failedDepositId;
    if (field === 'withdrawalId') return w.theirs.withdrawalId;
    if (field === 'userId' || field === 'id') return w.victim.user.id;
    // Tiers belong to nobody: a tier that does not exist is the 404 here.
    if (field === 'tierId') return randomUUID();
    throw new Error(`no victim object for id field ${field}: extend victimIdFor`);
  };

  it("every investor route that takes an id answers 404 for the victim's objects and changes nothing", async () => {
    const withIds = routes.filter((r) => !r.isAdmin && !r.isPublic && r.idFields.length > 0);
    expect(withIds.map((r) => r.key).sort()).toEqual(
      expect.arrayContaining([
        'POST /api/user/complete-cycle',
        'POST /api/user/start-earning',
        'POST /api/withdrawal/update-failed-deposit',
      ]),
    );
    const before = await fingerprint(t);
    for (const r of withIds) {
      const ids = Object.fromEntries(r.idFields.map((f) => [f, victimIdFor(f)]));
      const body = bodyOf(r);
      const res = await call(t, r.method, urlOf(r, ids), {
        token: w.investor.token,
        ...(body === undefined ? {} : { body: { ...(body as object), ...bodyIds(r, ids) } }),
      });
      expect(res.statusCode, `${r.key} ${JSON.stringify(res.data)}`).toBe(404);
      expect(res.data, r.key).toEqual({ error: MSG.notFound, code: 'not_found' });
      // The victim's own pending deposit too, where a deposit id is taken.
      if (r.idFields.includes('depositId')) {
        const again = await call(t, r.method, urlOf(r), {
          token: w.investor.token,
          body: { ...(body as object), depositId: w.theirs.pendingDepositId },
        });
        expect(again.statusCode, r.key).toBe(404);
      }
    }
    expect(await fingerprint(t)).toEqual(before);
  });

  it("lists never show another user's objects", async () => {
    const lists: [string, string][] = [
      ['/api/user/dashboard', 'activeInvestments'],
      ['/api/user/deposit-history', 'deposits'],
      ['/api/withdrawal/failed-deposits', 'deposits'],
      ['/api/withdrawal/my-withdrawals', 'withdrawals'],
    ];
    const theirIds = Object.values(w.theirs);
    for (const [url, field] of lists) {
      const res = await call(t, 'GET', url, { token: w.investor.token });
      expect(res.statusCode, url).toBe(200);
      const ids: string[] = res.data[field].map((x: { _id: string }) => x._id);
      for (const id of theirIds) expect(ids, url).not.toContain(id);
      expect(JSON.stringify(res.data), url).not.toContain(w.victim.user.email);
    }
  });

  it("the same calls work on the caller's own objects (the 404 above is about ownership, not shape)", async () => {
    const res = await call(t, 'POST', '/api/withdrawal/update-failed-deposit', {
      token: w.investor.token,
      body: { depositId: w.own.failedDepositId, txHash: `0x${'ab'.repeat(32)}`, amount: 3 },
    });
    expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
    const start = await call(t, 'POST', '/api/user/start-earning', {
      token: w.investor.token,
      body: { investmentId: w.own.investmentId },
    });
    expect(start.statusCode, JSON.stringify(start.data)).toBe(200);
  });
});
