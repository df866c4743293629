import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepOf, totpAt } from '../../src/lib/totp.ts';
import { call, createTestApp, fund, makeUser, uniqueEmail, type TestApp } from '../helpers.ts';
import { hash64, WALLET } from './support.ts';

/**
 * Secrets never reach the log: the app logs at 'trace' into memory (with its own redaction
 * config) while a whole flow runs with real SMTP; then the captured log is searched for every
 * password, code, token and key used.
 */
let t: TestApp;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'trace', RATE_LIMITS: 'on', SECURITY_HOLD_HOURS: '1' },
    { logStream: { write: (line: string) => void lines.push(line) } },
  );
  t.clock.set(new Date('2026-01-14T10:00:00Z'));
});
afterAll(() => t.close());

describe('secrets are not logged', () => {
  it('a flow with sign-up, sign-in, password change, 2FA, withdrawal and approval leaves none of its secrets in the log', async () => {
    const secrets: { what: string; value: string }[] = [];
    const keep = (what: string, value: unknown) => {
      expect(typeof value, what).toBe('string');
      if (typeof value === 'string' && value) secrets.push({ what, value });
      return typeof value === 'string' ? value : '';
    };
    const idem = (what: string) => keep(what, `idem-${randomUUID()}`);

    const inviter = await makeUser(t);
    const invitation = await call(t, 'POST', '/api/user/generate-invitation', { token: inviter.token, body: {} });
    const admin = await makeUser(t, { isAdmin: true });
    keep('admin password', admin.password);
    keep('admin token', admin.token);

    const email = uniqueEmail('secret');
    const password = keep('password', 'first-Secret-pass-91');
    const newPassword = keep('new password', 'second-Secret-pass-37');
    const withdrawalPassword = keep('withdrawal password', 'withdraw-Secret-55');
    keep('wrong password', 'wrong-Secret-pass-00');

    expect((await call(t, 'POST', '/api/send-code', { body: { email } })).statusCode).toBe(200);
    const code = keep('verification code', t.smtp.codeFor(email));
    const reg = await call(t, 'POST', '/api/register', {
      body: {
        invitationCode: invitation.data.code,
        firstName: 'Sec',
        lastName: 'Ret',
        email,
        phone: '+1 5551234567',
        password,
        confirmPassword: password,
        withdrawalPassword,
        verificationCode: code,
      },
    });
    expect(reg.statusCode, JSON.stringify(reg.data)).toBe(200);
    keep('register token', reg.data.token);

    expect(
      (await call(t, 'POST', '/api/login', { body: { email, password: 'wrong-Secret-pass-00' } })).statusCode,
    ).toBe(401);
    const login = await call(t, 'POST', '/api/login', { body: { email, password } });
    expect(login.statusCode).toBe(200);
    let token = keep('login token', login.data.token);

    const profile = await call(t, 'PUT', '/api/user/profile', {
      token,
      body: { firstName: 'Sec', lastName: 'Ret', currentPassword: password, newPassword, confirmPassword: newPassword },
    });
    expect(profile.statusCode, JSON.stringify(profile.data)).toBe(200);
    if (profile.data.token) token = keep('profile token', profile.data.token);
    else
      token = keep(
        'relogin token',
        (await call(t, 'POST', '/api/login', { body: { email, password: newPassword } })).data.token,
      );
    // The password change holds withdrawals for SECURITY_HOLD_HOURS (1 here): the rest of the flow comes after it.
    t.clock.set(new Date(t.clock.now().getTime() + 3600_000));

    const setup = await call(t, 'POST', '/api/user/2fa/setup', { token, body: { password: newPassword } });
    expect(setup.statusCode).toBe(200);
    const secret = keep('TOTP secret', setup.data.secret);
    keep('otpauth url', setup.data.otpauthUrl);
    const step = stepOf(t.clock.now());
    const enable = await call(t, 'POST', '/api/user/2fa/enable', {
      token,
      body: { password: newPassword, code: keep('TOTP code (enrol)', totpAt(secret, step)) },
    });
    expect(enable.statusCode, JSON.stringify(enable.data)).toBe(200);
    keep('2FA token', enable.data.token);
    const recovery: string[] = enable.data.recoveryCodes;
    recovery.forEach((c, i) => keep(`recovery code ${i}`, c));

    const totpLogin = await call(t, 'POST', '/api/login', {
      body: { email, password: newPassword, totpCode: keep('TOTP code (login)', totpAt(secret, step + 1)) },
    });
    expect(totpLogin.statusCode, JSON.stringify(totpLogin.data)).toBe(200);
    keep('TOTP login token', totpLogin.data.token);
    const recoveryLogin = await call(t, 'POST', '/api/login', {
      body: { email, password: newPassword, totpCode: recovery[0] },
    });
    expect(recoveryLogin.statusCode).toBe(200);
    token = keep('recovery login token', recoveryLogin.data.token);

    await fund(t, reg.data.user._id ?? reg.data.user.id, 250_000_000n);
    const wrongWithdraw = await call(t, 'POST', '/api/withdrawal/request-all', {
      token,
      body: { walletAddress: WALLET, withdrawalPassword: 'wrong-Secret-pass-00', totpCode: recovery[1] },
    });
    expect(wrongWithdraw.statusCode).toBe(400);
    const withdraw = await call(t, 'POST', '/api/withdrawal/request-all', {
      token,
      body: { walletAddress: WALLET, withdrawalPassword, totpCode: recovery[2] },
      headers: { 'idempotency-key': idem('withdraw key') },
    });
    expect(withdraw.statusCode, JSON.stringify(withdraw.data)).toBe(200);
    const pending = await call(t, 'GET', '/api/withdrawal/admin/pending', { token: admin.token });
    const withdrawalId: string = pending.data.withdrawals[0]._id;
    const approve = await call(t, 'POST', '/api/withdrawal/admin/approve', {
      token: admin.token,
      body: { withdrawalId, txHash: hash64(77) },
      headers: { 'idempotency-key': idem('approve key') },
    });
    expect(approve.statusCode, JSON.stringify(approve.data)).toBe(200);

    t.clock.set(new Date(t.clock.now().getTime() + 60_000));
    const disable = await call(t, 'POST', '/api/user/2fa/disable', {
      token,
      body: { password: newPassword, code: keep('TOTP code (disable)', totpAt(secret, step + 2)) },
    });
    expect(disable.statusCode, JSON.stringify(disable.data)).toBe(200);

    // The log was captured at all: one line per request (plugins/observability.ts), the paths in it.
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(12);
    expect(log).toContain('POST /api/withdrawal/admin/approve 200');

    for (const { what, value } of secrets) {
      // Six-digit codes: only as a number on their own, not inside a timestamp.
      const found = /^\d{6}$/.test(value) ? new RegExp(`(?<![0-9])${value}(?![0-9])`).test(log) : log.includes(value);
      expect(found, `${what} found in the log`).toBe(false);
      // Tokens: not even their signature part.
      if (value.split('.').length === 3)
        expect(log.includes(value.split('.')[2] ?? '-'), `${what} signature found in the log`).toBe(false);
    }
    // And in the e-mails only the code itself travels, never a password.
    for (const m of t.smtp.mails)
      for (const s of [password, newPassword, withdrawalPassword]) expect(m.raw).not.toContain(s);
  });
});
