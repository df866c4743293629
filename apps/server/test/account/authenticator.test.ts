import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { stepOf, totpAt } from '../../src/lib/totp.ts';
import { call, createTestApp, expectLedgerClean, fund, makeUser, type TestApp } from '../helpers.ts';
import { mailsTo, OWN_WALLET, signIn, withdrawAll } from './support.ts';

/**
 * Investors may turn on the administrators' authenticator (with recovery codes). Then sign-in
 * and Withdraw All ask for it, and a password change never asks for less than the sign-in did.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

/** An investor with the authenticator on: its secret, recovery codes and the session token it was turned on with. */
async function investorWithTotp() {
  const u = await makeUser(t);
  await fund(t, u.user.id, 3_000_000n);
  const setup = await call(t, 'POST', '/api/user/2fa/setup', { token: u.token, body: { password: u.password } });
  expect(setup.statusCode).toBe(200);
  const secret: string = setup.data.secret;
  const enable = await call(t, 'POST', '/api/user/2fa/enable', {
    token: u.token,
    body: { password: u.password, code: totpAt(secret, stepOf(t.clock.now())) },
  });
  expect(enable.statusCode, JSON.stringify(enable.data)).toBe(200);
  expect(enable.data.recoveryCodes).toHaveLength(10);
  return { u: { ...u, token: enable.data.token as string }, secret, recovery: enable.data.recoveryCodes as string[] };
}

const nextStep = () => {
  t.clock.set(new Date(t.clock.now().getTime() + 30_000));
  return stepOf(t.clock.now());
};

describe('an investor turns the authenticator on', () => {
  it('sign-in asks for it (a code or a recovery code, each once)', async () => {
    const { u, secret, recovery } = await investorWithTotp();
    const bare = await signIn(t, u);
    expect(bare.statusCode).toBe(401);
    expect(bare.data).toEqual({ error: MSG.totpRequired, code: 'two_factor_required' });
    expect((await signIn(t, u, { totpCode: '000000' })).data.code).toBe('two_factor_invalid');
    expect((await signIn(t, u, { totpCode: totpAt(secret, nextStep()) })).statusCode).toBe(200);
    expect((await signIn(t, u, { totpCode: recovery[0] })).statusCode).toBe(200);
    expect((await signIn(t, u, { totpCode: recovery[0] })).data.code).toBe('two_factor_invalid');
  });

  it('Withdraw All asks for it; nothing is held without it', async () => {
    const { u, secret } = await investorWithTotp();
    const none = await withdrawAll(t, u, OWN_WALLET);
    expect(none.statusCode).toBe(401);
    expect(none.data.code).toBe('two_factor_required');
    expect((await withdrawAll(t, u, OWN_WALLET, { totpCode: '123456' })).data.code).toBe('two_factor_invalid');
    const history = await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token: u.token });
    expect(history.data.withdrawals).toEqual([]);
    const ok = await withdrawAll(t, u, OWN_WALLET, { totpCode: totpAt(secret, nextStep()) });
    expect(ok.statusCode, JSON.stringify(ok.data)).toBe(200);
  });

  it('a password change asks for it too (never less than the sign-in)', async () => {
    const { u, secret } = await investorWithTotp();
    const body = { firstName: 'A', lastName: 'B', currentPassword: u.password, newPassword: 'brand-new-pass-42' };
    const without = await call(t, 'PUT', '/api/user/profile', { token: u.token, body });
    expect(without.statusCode).toBe(401);
    expect(without.data.code).toBe('two_factor_required');
    const ok = await call(t, 'PUT', '/api/user/profile', {
      token: u.token,
      body: { ...body, totpCode: totpAt(secret, nextStep()) },
    });
    expect(ok.statusCode, JSON.stringify(ok.data)).toBe(200);
    // The fresh token keeps the second factor: Withdraw All with it still asks for a code, and works with one.
    const again = { ...u, token: ok.data.token as string };
    expect((await withdrawAll(t, again, OWN_WALLET)).data.code).toBe('two_factor_required');
  });

  it('turning it off asks for the password and a code, e-mails a "this wasn\'t me" link, ends other sessions', async () => {
    const { u, secret } = await investorWithTotp();
    const other = (await signIn(t, u, { totpCode: totpAt(secret, nextStep()) })).data.token as string;
    const off = await call(t, 'POST', '/api/user/2fa/disable', {
      token: u.token,
      body: { password: u.password, code: totpAt(secret, nextStep()) },
    });
    expect(off.statusCode, JSON.stringify(off.data)).toBe(200);
    expect((await call(t, 'GET', '/api/user/me', { token: other })).statusCode).toBe(401);
    expect((await call(t, 'GET', '/api/user/me', { token: off.data.token })).data.user.twoFactorEnabled).toBe(false);
    expect((await signIn(t, u)).statusCode).toBe(200);
    const mail = (await mailsTo(t, u.user.email)).find((m) => /two-factor/i.test(m.subject) && /off/i.test(m.subject));
    expect(mail?.text).toMatch(/\/not-me#token=/);
  });
});
