import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { SettableClock } from '../../src/lib/clock.ts';
import { TokenService } from '../../src/lib/tokens.ts';
import { call, createTestApp, makeUser, newSession, TEST_SECRET, type TestApp, type TestUser } from '../helpers.ts';
import { fingerprint, loadRouteTable, urlOf, type Route } from './support.ts';

/**
 * Bad session tokens, each tried on every authenticated route of the table: a forged, altered,
 * foreign, expired or ended token never gets past authentication.
 */
let t: TestApp;
let routes: Route[];

beforeAll(async () => {
  t = await createTestApp();
  routes = (await loadRouteTable(t)).filter((r) => !r.isPublic);
});
afterAll(() => t.close());

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));

const CODE_OF: Record<string, string> = {
  [MSG.unauthorized]: 'unauthorized',
  [MSG.sessionExpired]: 'session_expired',
  [MSG.sessionEndedElsewhere]: 'session_revoked',
  [MSG.blocked]: 'blocked',
};

/** Every authenticated route with this token answers `status` (and `error` text when given); nothing changes. */
async function expectRefusedEverywhere(token: string, status: 401 | 403, error?: string): Promise<void> {
  const before = await fingerprint(t);
  for (const r of routes) {
    // Logout stays open to a blocked user (the Blocked screen's Logout must work); it changes no money.
    if (status === 403 && r.key === 'POST /api/user/logout') continue;
    const res = await call(t, r.method, urlOf(r), { token, ...(r.method === 'GET' ? {} : { body: {} }) });
    expect(res.statusCode, `${r.key}: ${JSON.stringify(res.data)}`).toBe(status);
    if (error) expect(res.data, r.key).toEqual({ error, code: CODE_OF[error] });
  }
  expect(await fingerprint(t)).toEqual(before);
}

describe('forged and altered tokens: 401 on every authenticated route', () => {
  let admin: TestUser;
  let investor: TestUser;
  beforeAll(async () => {
    admin = await makeUser(t, { isAdmin: true });
    investor = await makeUser(t);
  });

  it('the genuine admin token passes authentication everywhere (the control)', async () => {
    // Logout last: it ends the session.
    const ordered = [...routes].sort((a, b) => Number(a.key.endsWith('/logout')) - Number(b.key.endsWith('/logout')));
    for (const r of ordered) {
      const res = await call(t, r.method, urlOf(r), {
        token: admin.token,
        ...(r.method === 'GET' ? {} : { body: {} }),
      });
      expect(res.statusCode, r.key).not.toBe(401);
    }
  });

  it('alg: none (unsigned), with and without a signature part', async () => {
    const [, payload] = admin.token.split('.');
    for (const alg of ['none', 'None', 'NONE']) {
      await expectRefusedEverywhere(`${b64({ alg, typ: 'JWT' })}.${payload}.`, 401, MSG.unauthorized);
    }
    await expectRefusedEverywhere(
      `${b64({ alg: 'none' })}.${payload}.${admin.token.split('.')[2]}`,
      401,
      MSG.unauthorized,
    );
  });

  it('a changed payload under the original signature (investor becomes the admin, mfa claimed, version bumped)', async () => {
    const [h, , s] = investor.token.split('.');
    const claims = claimsOf(investor.token);
    for (const change of [
      { sub: admin.user.id },
      { mfa: true },
      { tv: Number(claims.tv) + 1 },
      { exp: Number(claims.exp) + 86400 },
    ]) {
      await expectRefusedEverywhere(`${h}.${b64({ ...claims, ...change })}.${s}`, 401, MSG.unauthorized);
    }
  });

  it('signed with another key, or with another algorithm', async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const wrongKey = await new SignJWT({ tv: admin.user.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(admin.user.id)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    await expectRefusedEverywhere(wrongKey, 401, MSG.unauthorized);
    const hs512 = await new SignJWT({ tv: admin.user.tokenVersion })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(admin.user.id)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode(TEST_SECRET));
    await expectRefusedEverywhere(hs512, 401, MSG.unauthorized);
  });

  it('expired (signed with the right key, a second past its lifetime)', async () => {
    const past = new SettableClock();
    past.set(new Date(t.clock.now().getTime() - 61_000));
    const expired = await new TokenService(TEST_SECRET, 60, past).sign({
      sub: admin.user.id,
      sid: await newSession(t, admin.user.id),
      tv: admin.user.tokenVersion,
    });
    await expectRefusedEverywhere(expired, 401, MSG.sessionExpired);
  });

  it('a token that was just accepted (verified, its user row cached) is refused once its lifetime ends', async () => {
    const u = await makeUser(t);
    const start = t.clock.now();
    const token = await new TokenService(TEST_SECRET, 60, t.clock).sign({
      sub: u.user.id,
      sid: await newSession(t, u.user.id),
      tv: u.user.tokenVersion,
    });
    try {
      expect((await call(t, 'GET', '/api/user/me', { token })).statusCode).toBe(200);
      expect((await call(t, 'GET', '/api/user/me', { token })).statusCode).toBe(200);
      t.clock.set(new Date(start.getTime() + 60_000));
      await expectRefusedEverywhere(token, 401, MSG.sessionExpired);
    } finally {
      t.clock.set(start);
    }
  });
});

describe('ended sessions: 401/403 on every authenticated route', () => {
  it('after logout', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    expect((await call(t, 'POST', '/api/user/logout', { token: admin.token })).statusCode).toBe(200);
    await expectRefusedEverywhere(admin.token, 401, MSG.sessionExpired);
  });

  it('after a password change (the fresh token works, the old one is dead)', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const res = await call(t, 'PUT', '/api/user/profile', {
      token: admin.token,
      body: {
        firstName: 'A',
        lastName: 'B',
        currentPassword: admin.password,
        newPassword: 'brand-new-pass',
        confirmPassword: 'brand-new-pass',
      },
    });
    expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
    await expectRefusedEverywhere(admin.token, 401, MSG.sessionExpired);
    if (typeof res.data.token === 'string')
      expect((await call(t, 'GET', '/api/user/me', { token: res.data.token })).statusCode).toBe(200);
  });

  it('after being blocked: 403 with the blocked text everywhere; after unblocking only a new sign-in works', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const investor = await makeUser(t);
    expect(
      (await call(t, 'POST', `/api/user/admin/toggle-block/${investor.user.id}`, { token: admin.token })).statusCode,
    ).toBe(200);
    await expectRefusedEverywhere(investor.token, 403, MSG.blocked);
    const login = await call(t, 'POST', '/api/login', {
      body: { email: investor.user.email, password: investor.password },
    });
    expect(login.statusCode).toBe(403);
    expect(
      (await call(t, 'POST', `/api/user/admin/toggle-block/${investor.user.id}`, { token: admin.token })).statusCode,
    ).toBe(200);
    // Blocking ended the session for good; signing in again works.
    expect((await call(t, 'GET', '/api/user/me', { token: investor.token })).statusCode).toBe(401);
    const again = await call(t, 'POST', '/api/login', {
      body: { email: investor.user.email, password: investor.password },
    });
    expect(again.statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/user/me', { token: again.data.token })).statusCode).toBe(200);
  });

  it('a token of a user that no longer exists', async () => {
    const ghost = await new TokenService(TEST_SECRET, 3600, t.clock).sign({
      sub: '00000000-0000-4000-8000-000000000000',
      sid: '00000000-0000-4000-8000-000000000001',
      tv: 0,
    });
    await expectRefusedEverywhere(ghost, 401, MSG.unauthorized);
  });
});
