import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { stepOf, totpAt } from '../../lib/totp.ts';
import { call, createTestApp, makeUser, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_REQUIRE_2FA: '1' });
});
afterAll(() => t.close());

const codeAt = (secret: string, offsetSteps = 0) => totpAt(secret, stepOf(t.clock.now()) + offsetSteps);

async function enrol(token: string, password = 'password-1') {
  const setup = await call(t, 'POST', '/api/user/2fa/setup', { token, body: { password } });
  expect(setup.statusCode).toBe(200);
  expect(setup.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
  const enable = await call(t, 'POST', '/api/user/2fa/enable', {
    token,
    body: { password, code: codeAt(setup.data.secret) },
  });
  expect(enable.statusCode).toBe(200);
  expect(enable.data.recoveryCodes).toHaveLength(10);
  return {
    secret: setup.data.secret as string,
    recovery: enable.data.recoveryCodes as string[],
    token: enable.data.token as string,
  };
}

describe('administrator second factor', () => {
  it('admin actions refuse a session without the second factor when ADMIN_REQUIRE_2FA=1', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const victim = await makeUser(t);
    const res = await call(t, 'POST', `/api/user/admin/toggle-block/${victim.user.id}`, { token: admin.token });
    expect(res.statusCode).toBe(403);
    expect(res.data.error).toBe(MSG.adminNeeds2fa);
    const { token } = await enrol(admin.token);
    expect((await call(t, 'POST', `/api/user/admin/toggle-block/${victim.user.id}`, { token })).statusCode).toBe(200);
    // Enrolment ended the session signed in without the factor.
    expect((await call(t, 'GET', '/api/user/me', { token: admin.token })).statusCode).toBe(401);
  });

  it('sign-in needs the code once enrolled; a code works once; recovery codes work once each', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const { secret, recovery } = await enrol(admin.token);
    const creds = { email: admin.user.email, password: admin.password };
    const missing = await call(t, 'POST', '/api/login', { body: creds });
    expect(missing.statusCode).toBe(401);
    expect(missing.data.error).toBe(MSG.totpRequired);
    const wrong = await call(t, 'POST', '/api/login', { body: { ...creds, totpCode: codeAt(secret, 5) } });
    expect(wrong.data.error).toBe(MSG.totpInvalid);
    // The enrolment used the current step; the next step's code (within the drift window) signs in once.
    const next = codeAt(secret, 1);
    const ok = await call(t, 'POST', '/api/login', { body: { ...creds, totpCode: next } });
    expect(ok.statusCode).toBe(200);
    // The same code again says it was used, not that it is wrong (the person typed it right).
    const again = await call(t, 'POST', '/api/login', { body: { ...creds, totpCode: next } });
    expect(again.statusCode).toBe(401);
    expect(again.data).toEqual({ error: MSG.totpUsed, code: 'two_factor_invalid' });
    const first = recovery[0] ?? '';
    expect((await call(t, 'POST', '/api/login', { body: { ...creds, totpCode: first } })).statusCode).toBe(200);
    expect((await call(t, 'POST', '/api/login', { body: { ...creds, totpCode: first } })).data.error).toBe(
      MSG.totpInvalid,
    );
    expect(
      (await call(t, 'POST', '/api/login', { body: { ...creds, totpCode: (recovery[1] ?? '').toLowerCase() } }))
        .statusCode,
    ).toBe(200);
  });

  it('investors may enrol too, and turn it off with password and code', async () => {
    const u = await makeUser(t);
    const { secret, token } = await enrol(u.token);
    expect((await call(t, 'GET', '/api/user/me', { token })).data.user.twoFactorEnabled).toBe(true);
    const off = await call(t, 'POST', '/api/user/2fa/disable', {
      token,
      body: { password: u.password, code: codeAt(secret, 1) },
    });
    expect(off.statusCode).toBe(200);
    expect(
      (await call(t, 'POST', '/api/login', { body: { email: u.user.email, password: u.password } })).statusCode,
    ).toBe(200);
  });

  it('stores the seed sealed, not in clear', async () => {
    const u = await makeUser(t);
    const setup = await call(t, 'POST', '/api/user/2fa/setup', { token: u.token, body: { password: u.password } });
    const row = await t.ctx.db.query.users.findFirst({ where: (x, { eq }) => eq(x.id, u.user.id) });
    expect(row?.totpSecret).toMatch(/^v1\./);
    expect(row?.totpSecret).not.toContain(setup.data.secret);
  });
});
