import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { MSG } from '@harvest/shared/messages';
import {
  call,
  createTestApp,
  makeUser,
  TEST_SECRET,
  uniqueEmail,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

describe('GET /user/me and tokens', () => {
  it('answers the signed-in user without secrets', async () => {
    const u = await makeUser(t);
    const res = await call(t, 'GET', '/api/user/me', { token: u.token });
    expect(res.statusCode).toBe(200);
    expect(res.data.user).toMatchObject({
      _id: u.user.id,
      email: u.user.email,
      isAdmin: false,
      depositAddress: '0x1111111111111111111111111111111111111111',
    });
    expect(JSON.stringify(res.data)).not.toMatch(/hash|tokenVersion|totpSecret/i);
    expect(res.headers['cache-control']).toBe('no-store');
    // The platform's time zone as configured (CI runs this suite in New York at a DST change too), and the explorer
    // the screens link hashes and addresses to (EXPLORER_URL, its default here).
    expect(res.data.platform).toMatchObject({
      timeZone: t.ctx.config.PLATFORM_TIMEZONE,
      explorerUrl: 'https://polygonscan.com',
    });
  });

  it('refuses a missing, forged, tampered, expired or alg:none token with 401', async () => {
    const u = await makeUser(t);
    const now = Math.floor(Date.now() / 1000);
    const wrongKey = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.user.id)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    const expired = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.user.id)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 60)
      .sign(new TextEncoder().encode(TEST_SECRET));
    const [h, p, s] = u.token.split('.');
    const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: admin.user.id })).toString('base64url')}.${s}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    for (const token of [undefined, 'garbage', wrongKey, expired, tampered, none]) {
      const res = await call(t, 'GET', '/api/user/me', { token });
      expect(res.statusCode, String(token)).toBe(401);
      expect(typeof res.data.error).toBe('string');
    }
    const exp = await call(t, 'GET', '/api/user/me', { token: expired });
    expect(exp.data.error).toBe(MSG.sessionExpired);
  });

  it('ends the token at logout', async () => {
    const u = await makeUser(t);
    expect((await call(t, 'POST', '/api/user/logout', { token: u.token })).statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).statusCode).toBe(401);
  });
});

describe('PUT /user/profile', () => {
  it('changes the names, and GET /user/me (its answer kept per row) shows them at once', async () => {
    const u = await makeUser(t);
    const before = await call(t, 'GET', '/api/user/me', { token: u.token });
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).body).toBe(before.body);
    const res = await call(t, 'PUT', '/api/user/profile', {
      token: u.token,
      body: { firstName: 'Grace', lastName: 'Hopper' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.user).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
    expect(res.data.token).toBeUndefined();
    const after = await call(t, 'GET', '/api/user/me', { token: u.token });
    expect(after.data.user).toEqual({ ...before.data.user, firstName: 'Grace', lastName: 'Hopper' });
  });

  it('changes the password with the current one, ends older tokens and gives a fresh one', async () => {
    const u = await makeUser(t);
    const res = await call(t, 'PUT', '/api/user/profile', {
      token: u.token,
      body: {
        firstName: 'A',
        lastName: 'B',
        currentPassword: u.password,
        newPassword: 'brand-new-pass',
        confirmPassword: 'brand-new-pass',
      },
    });
    expect(res.statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).statusCode).toBe(401);
    expect((await call(t, 'GET', '/api/user/me', { token: res.data.token })).statusCode).toBe(200);
    expect(
      (await call(t, 'POST', '/api/login', { body: { email: u.user.email, password: 'brand-new-pass' } })).statusCode,
    ).toBe(200);
    expect(
      (await call(t, 'POST', '/api/login', { body: { email: u.user.email, password: u.password } })).statusCode,
    ).toBe(401);
  });

  it('gives the spec messages and changes nothing on bad input', async () => {
    const u = await makeUser(t, { firstName: 'Keep' });
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ newPassword: 'abcdefg', confirmPassword: 'abcdefh', currentPassword: u.password }, MSG.newPasswordsMismatch],
      [{ newPassword: 'abc', confirmPassword: 'abc', currentPassword: u.password }, MSG.newPasswordTooShort],
      [{ newPassword: 'abcdefg', confirmPassword: 'abcdefg' }, MSG.currentPasswordRequired],
      [
        { newPassword: 'abcdefg', confirmPassword: 'abcdefg', currentPassword: 'wrong-one' },
        MSG.currentPasswordWrong,
        'wrong_password',
      ],
      [
        { newPassword: u.withdrawalPassword, confirmPassword: u.withdrawalPassword, currentPassword: u.password },
        MSG.withdrawalPasswordSame,
      ],
    ];
    for (const [extra, message, code = 'validation'] of cases) {
      const res = await call(t, 'PUT', '/api/user/profile', {
        token: u.token,
        body: { firstName: 'Changed', lastName: 'X', ...extra },
      });
      expect(res.statusCode, message).toBe(code === 'wrong_password' ? 401 : 400);
      expect(res.data).toEqual({ error: message, code });
    }
    const me = await call(t, 'GET', '/api/user/me', { token: u.token });
    expect(me.data.user.firstName).toBe('Keep');
  });

  it('refuses extra fields such as isAdmin or email', async () => {
    const u = await makeUser(t);
    for (const extra of [{ isAdmin: true }, { email: 'x@example.com' }, { isBlocked: false }]) {
      const res = await call(t, 'PUT', '/api/user/profile', {
        token: u.token,
        body: { firstName: 'A', lastName: 'B', ...extra },
      });
      expect(res.statusCode).toBe(400);
    }
    const me = await call(t, 'GET', '/api/user/me', { token: u.token });
    expect(me.data.user).toMatchObject({ isAdmin: false, email: u.user.email, firstName: 'Test' });
  });
});

describe('PUT /user/admin/update-email', () => {
  it('lets an admin change their own e-mail, audited', async () => {
    const a = await makeUser(t, { isAdmin: true });
    const email = uniqueEmail('newadmin');
    const res = await call(t, 'PUT', '/api/user/admin/update-email', {
      token: a.token,
      body: { newEmail: email, password: a.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.user.email).toBe(email);
    const audit = await t.ctx.db.query.auditLog.findMany({ where: (l, { eq }) => eq(l.targetId, a.user.id) });
    expect(audit.map((r) => r.action)).toContain('email_change');
  });

  it('refuses investors (403), bad e-mails (400) and taken e-mails (409)', async () => {
    const u = await makeUser(t);
    expect(
      (
        await call(t, 'PUT', '/api/user/admin/update-email', {
          token: u.token,
          body: { newEmail: uniqueEmail(), password: u.password },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call(t, 'PUT', '/api/user/admin/update-email', {
          token: admin.token,
          body: { newEmail: 'bad', password: admin.password },
        })
      ).data,
    ).toEqual({ error: MSG.invalidEmail, code: 'validation' });
    const taken = await call(t, 'PUT', '/api/user/admin/update-email', {
      token: admin.token,
      body: { newEmail: u.user.email, password: admin.password },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.data).toEqual({ error: MSG.emailExists, code: 'conflict', field: 'newEmail' });
  });
});

describe('POST /user/generate-invitation', () => {
  it('answers one stable code per user that others can sign up with', async () => {
    const u = await makeUser(t);
    await t.ctx.db.update((await import('../../db/schema.ts')).users).set({ invitationCode: null });
    const first = await call(t, 'POST', '/api/user/generate-invitation', { token: u.token });
    const second = await call(t, 'POST', '/api/user/generate-invitation', { token: u.token });
    expect(first.statusCode).toBe(200);
    expect(first.data.code).toMatch(/^[A-Z0-9]{10}$/);
    expect(second.data.code).toBe(first.data.code);
  });
});

describe('POST /user/admin/toggle-block/:id', () => {
  it('blocks: every call then answers 403 blocked, login included; unblock restores sign-in', async () => {
    const u = await makeUser(t);
    const res = await call(t, 'POST', `/api/user/admin/toggle-block/${u.user.id}`, { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.data.user.isBlocked).toBe(true);
    const me = await call(t, 'GET', '/api/user/me', { token: u.token });
    expect(me.statusCode).toBe(403);
    expect(me.data.error).toMatch(/blocked/);
    const login = await call(t, 'POST', '/api/login', { body: { email: u.user.email, password: u.password } });
    expect(login.statusCode).toBe(403);
    expect(login.data.error).toMatch(/blocked/);
    expect((await call(t, 'POST', '/api/user/generate-invitation', { token: u.token })).statusCode).toBe(403);
    // Logout works from the Blocked screen (it answered 403 before).
    const out = await call(t, 'POST', '/api/user/logout', { token: u.token });
    expect(out.statusCode).toBe(200);
    expect(out.data).toEqual({ message: MSG.signedOut });

    await call(t, 'POST', `/api/user/admin/toggle-block/${u.user.id}`, { token: admin.token });
    // The block ended the old session; signing in again works.
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).statusCode).toBe(401);
    const again = await call(t, 'POST', '/api/login', { body: { email: u.user.email, password: u.password } });
    expect(again.statusCode).toBe(200);
    const audit = await t.ctx.db.query.auditLog.findMany({ where: (l, { eq }) => eq(l.targetId, u.user.id) });
    expect(audit.map((r) => r.action).sort()).toEqual(['user_block', 'user_unblock']);
  });

  it('never blocks an admin, refuses investors, 404s unknown ids', async () => {
    const other = await makeUser(t, { isAdmin: true });
    const u = await makeUser(t);
    const victim = await makeUser(t);
    const adm = await call(t, 'POST', `/api/user/admin/toggle-block/${other.user.id}`, { token: admin.token });
    expect(adm.statusCode).toBe(400);
    expect(adm.data).toEqual({ error: MSG.cannotBlockAdmin, code: 'validation' });
    expect(
      (await call(t, 'POST', `/api/user/admin/toggle-block/${victim.user.id}`, { token: u.token })).statusCode,
    ).toBe(403);
    expect((await call(t, 'GET', '/api/user/me', { token: victim.token })).statusCode).toBe(200);
    expect(
      (
        await call(t, 'POST', '/api/user/admin/toggle-block/00000000-0000-4000-8000-000000000000', {
          token: admin.token,
        })
      ).statusCode,
    ).toBe(404);
    expect((await call(t, 'POST', '/api/user/admin/toggle-block/not-a-uuid', { token: admin.token })).statusCode).toBe(
      404,
    );
  });
});

describe('errors and headers', () => {
  it('answers unknown API paths with a JSON 404 and malformed JSON with 400, never a stack', async () => {
    const missing = await call(t, 'GET', '/api/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.data).toEqual({ error: MSG.notFound, code: 'not_found' });
    const bad = await call(t, 'POST', '/api/login', {
      body: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).not.toMatch(/at .*\.ts|stack|SyntaxError/);
  });

  it('refuses oversized bodies with 413', async () => {
    const res = await call(t, 'POST', '/api/login', { body: { email: 'a@b.co', password: 'x'.repeat(100_000) } });
    expect(res.statusCode).toBe(413);
  });

  it('sends security headers and does not echo a foreign Origin', async () => {
    const res = await call(t, 'GET', '/api/user/me', {
      token: admin.token,
      headers: { origin: 'https://evil.example' },
    });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toMatch(/object-src 'none'/);
    expect(String(res.headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
