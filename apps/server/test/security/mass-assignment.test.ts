import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, expectLedgerClean, type TestApp } from '../helpers.ts';
import {
  buildWorld,
  fingerprint,
  loadRouteTable,
  rawCall,
  tokenFor,
  urlOf,
  validBodies,
  type Route,
  type World,
} from './support.ts';

/**
 * Mass assignment: every POST/PUT of the route table, given a body its schema accepts plus one
 * field the caller must not set, answers 400 and changes nothing (no table row differs).
 */
let t: TestApp;
let w: World;
let routes: Route[];
let bodies: ReturnType<typeof validBodies>;

const EXTRA: Record<string, unknown> = {
  isAdmin: true,
  is_admin: true,
  balance: 1_000_000,
  status: 'approved',
  fee: 0,
  feeAmount: 0,
  userId: '00000000-0000-4000-8000-000000000000',
  role: 'admin',
  tokenVersion: 0,
  isBlocked: false,
  twoFactorEnabled: false,
};

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  routes = (await loadRouteTable(t)).filter((r) => r.method === 'POST' || r.method === 'PUT');
  bodies = validBodies(w);
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

const idsFor = (r: Route) => ({ id: r.path.includes('tiers') ? w.tierId : w.victim.user.id });

describe('extra fields are refused with 400 and change nothing', () => {
  it('covers every POST/PUT of the table', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    for (const r of routes) expect(Object.keys(bodies), r.key).toContain(r.key);
  });

  it('each extra field, alone, on every POST/PUT', async () => {
    const before = await fingerprint(t);
    for (const r of routes) {
      const base = bodies[r.key] ?? {};
      const own = new Set(Object.keys(r.body?.properties ?? {}));
      for (const [field, value] of Object.entries(EXTRA)) {
        if (own.has(field)) continue; // a field the route really takes (update-user-balance's userId)
        const res = await call(t, r.method, urlOf(r, idsFor(r)), {
          token: tokenFor(w, r),
          body: { ...base, [field]: value },
        });
        expect(res.statusCode, `${r.key} + ${field}: ${JSON.stringify(res.data)}`).toBe(400);
        expect(typeof res.data?.error, r.key).toBe('string');
      }
    }
    expect(await fingerprint(t)).toEqual(before);
  });

  it('all extra fields at once, and __proto__ / constructor / prototype keys (raw JSON), on every POST/PUT', async () => {
    const before = await fingerprint(t);
    for (const r of routes) {
      const base = bodies[r.key] ?? {};
      const json = JSON.stringify({ ...base, ...EXTRA });
      const inner = JSON.stringify(base).slice(1, -1);
      const payloads = [
        json,
        `{"__proto__":{"isAdmin":true,"balance":1000000}${inner ? `,${inner}` : ''}}`,
        `{${inner ? `${inner},` : ''}"constructor":{"prototype":{"isAdmin":true}}}`,
        `{${inner ? `${inner},` : ''}"constructor":true}`,
        `{${inner ? `${inner},` : ''}"prototype":{"isAdmin":true}}`,
      ];
      for (const payload of payloads) {
        const res = await rawCall(t, r.method, urlOf(r, idsFor(r)), payload, tokenFor(w, r));
        expect(res.statusCode, `${r.key} ${payload}: ${JSON.stringify(res.data)}`).toBe(400);
      }
    }
    expect(await fingerprint(t)).toEqual(before);
    // Nothing leaked into the prototype of plain objects.
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('the extras never show up on the users afterwards', async () => {
    const me = await call(t, 'GET', '/api/user/me', { token: w.investor.token });
    expect(me.statusCode).toBe(200);
    expect(me.data.user.isAdmin).toBe(false);
    expect(me.data.user.isBlocked).toBe(false);
  });
});
