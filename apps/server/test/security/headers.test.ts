import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '../../src/db/raw.ts';
import { call, createTestApp, makeUser, uniqueEmail, PRODUCTION_ENV, type TestApp, type TestUser } from '../helpers.ts';
import { loadRouteTable, urlOf, type Route } from './support.ts';

/** Response headers on every route of the table, HSTS by environment, CORS, and proxy trust. */
let t: TestApp;
let routes: Route[];
let admin: TestUser;
let investor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  routes = await loadRouteTable(t);
  admin = await makeUser(t, { isAdmin: true });
  investor = await makeUser(t);
});
afterAll(() => t.close());

type Headers = Record<string, string | string[] | number | undefined>;
function expectSecurityHeaders(h: Headers, what: string): void {
  expect(h['x-content-type-options'], what).toBe('nosniff');
  const csp = String(h['content-security-policy']);
  expect(csp, what).toMatch(/(^|;)\s*object-src 'none'/);
  expect(csp, what).toMatch(/(^|;)\s*frame-ancestors 'none'/);
  expect(csp, what).toMatch(/(^|;)\s*default-src 'self'/);
  expect(csp, what).not.toMatch(/unsafe-eval/);
  expect(String(h['referrer-policy']), what).toBe('no-referrer');
  expect(h['x-frame-options'], what).toBeDefined();
  expect(h['x-powered-by'], what).toBeUndefined();
}

describe('security headers on every route', () => {
  it('authenticated JSON answers (success and error) carry nosniff, CSP, Referrer-Policy and Cache-Control: no-store', async () => {
    // Logout last: it ends the investor's session.
    const ordered = [...routes].sort((a, b) => Number(a.key.endsWith('/logout')) - Number(b.key.endsWith('/logout')));
    for (const r of ordered) {
      for (const token of [r.isAdmin ? admin.token : investor.token, undefined]) {
        const res = await call(t, r.method, urlOf(r), {
          ...(token ? { token } : {}),
          ...(r.method === 'GET' ? {} : { body: {} }),
        });
        expect(res.statusCode, r.key).toBeLessThan(500);
        expectSecurityHeaders(res.headers, `${r.key} ${res.statusCode}`);
        // The published proof of reserves is public: shared caches may keep what it answers, never an error.
        const shared = r.isPublic && r.method === 'GET' && res.statusCode === 200;
        expect(String(res.headers['cache-control']), `${r.key} ${res.statusCode}`).toMatch(
          shared ? /^public, max-age=\d+$/ : /no-store/,
        );
        expect(res.headers['strict-transport-security'], r.key).toBeUndefined();
      }
    }
  });

  it('a 200 JSON answer with personal data is no-store and typed as JSON', async () => {
    const res = await call(t, 'GET', '/api/user/me', { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    expect(String(res.headers['cache-control'])).toMatch(/no-store/);
    expectSecurityHeaders(res.headers, 'me');
    // JSON is never a document (decision 0079): not embeddable from another origin, never framed.
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('unknown API paths and malformed bodies also carry the headers', async () => {
    for (const res of [await call(t, 'GET', '/api/nope'), await call(t, 'POST', '/api/login', { body: '{"a":' })]) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expectSecurityHeaders(res.headers, String(res.statusCode));
      expect(String(res.headers['cache-control'])).toMatch(/no-store/);
    }
  });
});

describe('HSTS', () => {
  it('is sent only when NODE_ENV=production', async () => {
    expect(
      (await call(t, 'GET', '/api/user/me', { token: admin.token })).headers['strict-transport-security'],
    ).toBeUndefined();
    const prod = await createTestApp(PRODUCTION_ENV);
    try {
      for (const res of [
        await call(prod, 'GET', '/api/user/me'),
        await call(prod, 'POST', '/api/login', { body: {} }),
      ]) {
        const hsts = String(res.headers['strict-transport-security']);
        expect(hsts).toMatch(/max-age=(\d+)/);
        expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(15552000);
        expect(hsts).toMatch(/includeSubDomains/);
        expectSecurityHeaders(res.headers, 'production');
      }
    } finally {
      await prod.close();
    }
  });
});

describe('CORS', () => {
  it('a foreign Origin is never echoed, on simple calls and on preflights', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://localhost:3000']) {
      const simple = await call(t, 'GET', '/api/user/me', { token: admin.token, headers: { origin } });
      expect(simple.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(simple.headers['access-control-allow-credentials'], origin).toBeUndefined();
      const login = await call(t, 'POST', '/api/login', {
        body: { email: admin.user.email, password: admin.password },
        headers: { origin },
      });
      expect(login.headers['access-control-allow-origin'], origin).toBeUndefined();
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/withdrawal/request-all',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(preflight.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods'], origin).toBeUndefined();
      expect(preflight.headers['access-control-allow-headers'], origin).toBeUndefined();
    }
  });
});

describe('X-Forwarded-For is trusted only with TRUST_PROXY', () => {
  async function auditIp(app: TestApp, xff: string): Promise<string | null> {
    const a = await makeUser(app, { isAdmin: true });
    const victim = await makeUser(app);
    const res = await call(app, 'POST', `/api/user/admin/toggle-block/${victim.user.id}`, {
      token: a.token,
      headers: { 'x-forwarded-for': xff },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await rawRows<{ ip: string | null }>(
      app.ctx.db,
      sql`SELECT ip FROM audit_log WHERE target_id = ${victim.user.id} ORDER BY id DESC LIMIT 1`,
    );
    return row?.ip ?? null;
  }

  async function sendCodes(app: TestApp, n: number, xff: (i: number) => string): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++)
      out.push(
        (
          await call(app, 'POST', '/api/send-code', {
            body: { email: uniqueEmail() },
            headers: { 'x-forwarded-for': xff(i) },
          })
        ).statusCode,
      );
    return out;
  }

  it('without TRUST_PROXY: the audit log keeps the socket address and a rotating X-Forwarded-For does not escape the per-IP limit', async () => {
    const app = await createTestApp({ RATE_LIMITS: 'on' });
    try {
      expect(await auditIp(app, '203.0.113.7')).toBe('127.0.0.1');
      const statuses = await sendCodes(app, 14, (i) => `198.51.100.${i + 1}`);
      expect(statuses).toContain(429);
    } finally {
      await app.close();
    }
  });

  it('with TRUST_PROXY=true: the forwarded client address is used (audit log, per-IP limits)', async () => {
    const app = await createTestApp({ RATE_LIMITS: 'on', TRUST_PROXY: 'true' });
    try {
      expect(await auditIp(app, '203.0.113.7')).toBe('203.0.113.7');
      const statuses = await sendCodes(app, 14, (i) => `198.51.100.${i + 1}`);
      expect(statuses).not.toContain(429);
    } finally {
      await app.close();
    }
  });

  it('with TRUST_PROXY=1 (one hop): only the address the proxy appended counts, not one the client made up', async () => {
    const app = await createTestApp({ RATE_LIMITS: 'on', TRUST_PROXY: '1' });
    try {
      expect(await auditIp(app, '10.9.9.9, 203.0.113.7')).toBe('203.0.113.7');
      // The client forges the left-most entry each time; the proxy-appended one stays the same.
      const statuses = await sendCodes(app, 14, (i) => `198.51.100.${i + 1}, 203.0.113.8`);
      expect(statuses).toContain(429);
    } finally {
      await app.close();
    }
  });
});
