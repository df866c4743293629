import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { stepOf, totpAt } from '../../src/lib/totp.ts';
import { call, createTestApp, makeUser, type TestApp } from '../helpers.ts';

/**
 * With only a stolen session token, `2fa/setup` + `2fa/enable` would enrol the attacker's
 * authenticator (the owner locked out for good; for an administrator, the admin second-factor
 * rule bypassed). So setup, enable and disable, and an administrator's e-mail change, need
 * the current login password: a wrong one is 401 `wrong_password`, counted by
 * the sign-in failure throttle.
 */
const WRONG = { error: MSG.currentPasswordWrong, code: 'wrong_password' };

describe('changes a stolen session cannot make', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'on' });
  });
  afterAll(() => t.close());

  const userRow = (id: string) => t.ctx.db.query.users.findFirst({ where: (u, { eq }) => eq(u.id, id) });

  it('turning two-factor on needs the password: the token alone enrols nothing', async () => {
    const u = await makeUser(t);
    expect((await call(t, 'POST', '/api/user/2fa/setup', { token: u.token })).statusCode).toBe(400);
    const bare = await call(t, 'POST', '/api/user/2fa/setup', { token: u.token, body: {} });
    expect(bare.statusCode).toBe(400);
    expect(bare.data).toEqual({ error: MSG.currentPasswordRequiredForChange, code: 'validation' });
    const wrong = await call(t, 'POST', '/api/user/2fa/setup', { token: u.token, body: { password: 'guess-1234' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.data).toEqual(WRONG);
    expect((await userRow(u.user.id))?.totpSecret).toBeNull();

    // Even with a set-up started by the owner, enable refuses a wrong password.
    const setup = await call(t, 'POST', '/api/user/2fa/setup', { token: u.token, body: { password: u.password } });
    expect(setup.statusCode).toBe(200);
    const code = totpAt(setup.data.secret, stepOf(t.clock.now()));
    const noPassword = await call(t, 'POST', '/api/user/2fa/enable', { token: u.token, body: { code } });
    expect(noPassword.statusCode).toBe(400);
    const enable = await call(t, 'POST', '/api/user/2fa/enable', {
      token: u.token,
      body: { password: 'guess-1234', code },
    });
    expect(enable.data).toEqual(WRONG);
    expect((await userRow(u.user.id))?.totpEnabled).toBe(false);
    // The session still works (a 401 wrong_password does not end it) and the owner can go on.
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).statusCode).toBe(200);
    const ok = await call(t, 'POST', '/api/user/2fa/enable', { token: u.token, body: { password: u.password, code } });
    expect(ok.statusCode).toBe(200);

    const off = await call(t, 'POST', '/api/user/2fa/disable', {
      token: ok.data.token,
      body: { password: 'guess-1234', code: totpAt(setup.data.secret, stepOf(t.clock.now()) + 1) },
    });
    expect(off.data).toEqual(WRONG);
    expect((await userRow(u.user.id))?.totpEnabled).toBe(true);
  });

  it("an administrator's e-mail change needs the password", async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const newEmail = `taken.over.${Date.now()}@example.com`;
    const bare = await call(t, 'PUT', '/api/user/admin/update-email', { token: admin.token, body: { newEmail } });
    expect(bare.statusCode).toBe(400);
    expect(bare.data).toEqual({ error: MSG.currentPasswordRequiredForChange, code: 'validation' });
    const wrong = await call(t, 'PUT', '/api/user/admin/update-email', {
      token: admin.token,
      body: { newEmail, password: 'guess-1234' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.data).toEqual(WRONG);
    expect((await userRow(admin.user.id))?.email).toBe(admin.user.email);
    const right = await call(t, 'PUT', '/api/user/admin/update-email', {
      token: admin.token,
      body: { newEmail, password: admin.password },
    });
    expect(right.statusCode).toBe(200);
    expect((await userRow(admin.user.id))?.email).toBe(newEmail);
  });

  it('wrong passwords given to confirm a change count in the sign-in throttle', async () => {
    const u = await makeUser(t);
    // From an address of its own: the per-address request limits of the other tests do not mix in.
    const from = (method: 'POST', url: string, body: unknown, token?: string) =>
      t.app.inject({
        method,
        url,
        remoteAddress: '10.11.12.13',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        payload: JSON.stringify(body),
      });
    for (let i = 0; i < 10; i++)
      expect((await from('POST', '/api/user/2fa/setup', { password: `guess-${i}` }, u.token)).json()).toEqual(WRONG);
    // The session cannot be used to guess on: sign-in from this address is stopped as well.
    const login = await from('POST', '/api/login', { email: u.user.email, password: u.password });
    expect(login.statusCode).toBe(429);
    expect(login.json()).toEqual({ error: MSG.tooManyRequests, code: 'rate_limited' });
  });
});
