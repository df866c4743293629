import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { stepOf, totpAt } from '../../src/lib/totp.ts';
import { call, createTestApp, expectLedgerClean, fund, makeUser, type TestApp, type TestUser } from '../helpers.ts';
import { assert, createPasskey, siteOf, type Site, type SoftPasskey } from '../support/authenticator.ts';
import {
  CHROME_LINUX,
  FIREFOX_WINDOWS,
  lastMail,
  linkToken,
  OWN_WALLET,
  signIn,
  THIEF_WALLET,
  withdrawAll,
} from './support.ts';

/**
 * Passkeys: registered, listed and removed in Profile; a passkey sign-in counts as two factors; with a passkey,
 * Withdraw All, adding an address and turning the lock off need an assertion made for exactly that request, once.
 */
let t: TestApp;
let site: Site;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_REQUIRE_2FA: '1' });
  site = siteOf(t.ctx.config.publicUrl);
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

async function register(u: TestUser, name = 'My phone', totpCode?: string): Promise<SoftPasskey> {
  const opts = await call(t, 'POST', '/api/user/passkeys/registration-options', {
    token: u.token,
    body: { password: u.password, ...(totpCode ? { totpCode } : {}) },
  });
  expect(opts.statusCode).toBe(200);
  const made = createPasskey(site, opts.data.options);
  const res = await call(t, 'POST', '/api/user/passkeys', { token: u.token, body: { name, response: made.response } });
  expect(res.statusCode, JSON.stringify(res.data)).toBe(201);
  return made.passkey;
}

const list = async (u: TestUser) => (await call(t, 'GET', '/api/user/passkeys', { token: u.token })).data.passkeys;
const events = async (u: TestUser) =>
  (await call(t, 'GET', '/api/user/security-events', { token: u.token })).data.events.map(
    (e: { type: string }) => e.type,
  );

async function stepUp(u: TestUser, key: SoftPasskey, body: Record<string, unknown>) {
  const res = await call(t, 'POST', '/api/user/step-up', { token: u.token, body });
  expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
  return assert(site, key, res.data.options.challenge);
}

async function passkeySignIn(key: SoftPasskey, ua = CHROME_LINUX) {
  const opts = await call(t, 'POST', '/api/passkey-login/options');
  const response = assert(site, key, opts.data.options.challenge);
  return {
    response,
    res: await call(t, 'POST', '/api/passkey-login', { body: { response }, headers: { 'user-agent': ua } }),
  };
}

describe('registering, listing and removing passkeys', () => {
  it('lists each passkey with its name, when it was added and last used; the owner is e-mailed', async () => {
    const u = await makeUser(t);
    expect(await list(u)).toEqual([]);
    const key = await register(u, 'Work laptop');
    const [one] = await list(u);
    expect(one).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    const added = Date.parse(one.createdAt);
    expect(Math.abs(added - t.clock.now().getTime())).toBeLessThan(10_000);
    const mail = await lastMail(t, u.user.email, 'A passkey was added to your account');
    expect(linkToken(mail, 'not-me')).not.toBe('');
    t.clock.set(new Date(t.clock.now().getTime() + 60_000));
    expect((await passkeySignIn(key)).res.statusCode).toBe(200);
    expect(Date.parse((await list(u))[0].lastUsedAt)).toBeGreaterThanOrEqual(added + 60_000);
    expect(await events(u)).toContain('passkey_added');
  });

  it('refuses a registration answering another challenge, or one already used', async () => {
    const u = await makeUser(t);
    const opts = await call(t, 'POST', '/api/user/passkeys/registration-options', {
      token: u.token,
      body: { password: u.password },
    });
    const forged = createPasskey(site, { ...opts.data.options, challenge: 'bm90LW91ci1jaGFsbGVuZ2U' });
    const res = await call(t, 'POST', '/api/user/passkeys', {
      token: u.token,
      body: { name: 'x', response: forged.response },
    });
    expect(res.data).toEqual({ error: MSG.passkeyRegistrationFailed, code: 'validation' });
    const good = createPasskey(site, opts.data.options);
    const body = { name: 'Phone', response: good.response };
    expect((await call(t, 'POST', '/api/user/passkeys', { token: u.token, body })).statusCode).toBe(201);
    expect((await call(t, 'POST', '/api/user/passkeys', { token: u.token, body })).statusCode).toBe(400);
    expect(await list(u)).toHaveLength(1);
  });

  it('removes one with the password (and the authenticator code when on); the last one starts the hold events', async () => {
    const u = await makeUser(t);
    await register(u, 'Phone');
    await register(u, 'Key');
    const [phone, keyRow] = await list(u);
    const remove = (id: string, body: Record<string, unknown>) =>
      call(t, 'POST', `/api/user/passkeys/${id}/remove`, { token: u.token, body });
    const wrong = await remove(phone._id, { password: 'not-mine' });
    expect(wrong.data).toEqual({ error: MSG.currentPasswordWrong, code: 'wrong_password' });
    expect(await list(u)).toHaveLength(2);
    expect((await remove(phone._id, { password: u.password })).statusCode).toBe(200);
    expect(await events(u)).toContain('passkey_removed');
    expect(await events(u)).not.toContain('last_passkey_removed');
    // Someone else's passkey id is not found.
    const other = await makeUser(t);
    expect(
      (
        await call(t, 'POST', `/api/user/passkeys/${keyRow._id}/remove`, {
          token: other.token,
          body: { password: other.password },
        })
      ).statusCode,
    ).toBe(404);
    expect((await remove(keyRow._id, { password: u.password })).statusCode).toBe(200);
    expect(await list(u)).toEqual([]);
    expect(await events(u)).toContain('last_passkey_removed');
    const mail = await lastMail(t, u.user.email, 'A passkey was removed from your account');
    expect(mail.text).toContain('the last one of your account');
    expect(linkToken(mail, 'not-me')).not.toBe('');
    // Without its phishing-proof factor the account's withdrawals wait out the security hold.
    await fund(t, u.user.id, 10_000_000n);
    expect((await withdrawAll(t, u, OWN_WALLET)).data.code).toBe('withdrawal_hold');
  });

  it('asks for the authenticator code too when it is on', async () => {
    const u = await makeUser(t);
    const setup = await call(t, 'POST', '/api/user/2fa/setup', { token: u.token, body: { password: u.password } });
    const secret = setup.data.secret as string;
    const on = await call(t, 'POST', '/api/user/2fa/enable', {
      token: u.token,
      body: { password: u.password, code: totpAt(secret, stepOf(t.clock.now())) },
    });
    const withTotp = { ...u, token: on.data.token as string };
    // Adding one asks for it: a stolen session with the password alone adds no passkey.
    const options = (body: Record<string, unknown>) =>
      call(t, 'POST', '/api/user/passkeys/registration-options', { token: withTotp.token, body });
    expect((await options({ password: u.password })).data.code).toBe('two_factor_required');
    await register(withTotp, 'My phone', totpAt(secret, stepOf(t.clock.now()) + 1));
    const [row] = await list(withTotp);
    const remove = (body: Record<string, unknown>) =>
      call(t, 'POST', `/api/user/passkeys/${row._id}/remove`, { token: withTotp.token, body });
    expect((await remove({ password: u.password })).data.code).toBe('two_factor_required');
    t.clock.set(new Date(t.clock.now().getTime() + 30_000));
    const ok = await remove({ password: u.password, totpCode: totpAt(secret, stepOf(t.clock.now()) + 1) });
    expect(ok.statusCode).toBe(200);
  });

  it('a session alone adds no passkey: the registration options ask for the password first', async () => {
    const u = await makeUser(t);
    const options = (body?: Record<string, unknown>) =>
      call(t, 'POST', '/api/user/passkeys/registration-options', { token: u.token, ...(body ? { body } : {}) });
    expect((await options()).statusCode).toBe(400);
    const wrong = await options({ password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect(await list(u)).toEqual([]);
    expect((await options({ password: u.password })).statusCode).toBe(200);
  });
});

describe('"this wasn\'t me"', () => {
  it("removes every passkey: a thief's, added in the session reported, signs no one in again", async () => {
    const u = await makeUser(t);
    const key = await register(u, 'Not mine');
    const mail = await lastMail(t, u.user.email, 'A passkey was added to your account');
    const res = await call(t, 'POST', '/api/security/not-me', { body: { token: linkToken(mail, 'not-me') } });
    expect(res.data.message).toBe(MSG.notMeDone);
    expect((await passkeySignIn(key)).res.statusCode).toBe(401);
    const back = (await signIn(t, u)).data.token as string;
    expect((await call(t, 'GET', '/api/user/passkeys', { token: back })).data.passkeys).toEqual([]);
  });
});

describe('signing in with a passkey', () => {
  it('is two factors: an administrator needs no authenticator code; an assertion works once', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const key = await register(admin);
    const victim = await makeUser(t);
    const { res, response } = await passkeySignIn(key);
    expect(res.statusCode).toBe(200);
    expect(res.data.user.email).toBe(admin.user.email);
    const token = res.data.token as string;
    expect((await call(t, 'POST', `/api/user/admin/toggle-block/${victim.user.id}`, { token })).statusCode).toBe(200);
    const replay = await call(t, 'POST', '/api/passkey-login', { body: { response } });
    expect(replay.statusCode).toBe(401);
    expect(replay.data).toEqual({ error: MSG.passkeyNotAccepted, code: 'passkey_invalid' });
  });

  it('refuses a passkey that is not registered, and one signed by another key', async () => {
    const u = await makeUser(t);
    const key = await register(u);
    const stranger = createPasskey(site, { challenge: 'AAAA', user: { id: 'eA' } }).passkey;
    expect((await passkeySignIn(stranger)).res.data).toEqual({ error: MSG.passkeyUnknown, code: 'passkey_invalid' });
    const forged = { ...stranger, credentialId: key.credentialId };
    expect((await passkeySignIn(forged)).res.data.code).toBe('passkey_invalid');
  });

  it('a password sign-in on a new device after having a passkey is recorded as such and e-mailed', async () => {
    const u = await makeUser(t);
    expect((await signIn(t, u, { ua: CHROME_LINUX, deviceId: `laptop-${u.user.id}` })).statusCode).toBe(200);
    const key = await register(u);
    expect(await events(u)).not.toContain('password_sign_in_new_device');
    expect((await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `desk-${u.user.id}` })).statusCode).toBe(200);
    expect(await events(u)).toContain('password_sign_in_new_device');
    const mail = await lastMail(t, u.user.email, 'New sign-in');
    expect(linkToken(mail, 'not-me')).not.toBe('');
    // Even confirmed with the passkey, Withdraw All waits out the security hold that sign-in started.
    await fund(t, u.user.id, 10_000_000n);
    const passkey = await stepUp(u, key, { purpose: 'withdraw_all', walletAddress: OWN_WALLET });
    expect((await withdrawAll(t, u, OWN_WALLET, { passkey } as never)).data.code).toBe('withdrawal_hold');
  });
});

describe('step-up with a passkey', () => {
  it('Withdraw All needs an assertion for this address, total and list; another address or amount is refused', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 1_250_000_000_000n);
    const key = await register(u);
    const none = await withdrawAll(t, u, OWN_WALLET);
    expect(none.statusCode).toBe(401);
    expect(none.data).toEqual({ error: MSG.passkeyRequired, code: 'passkey_required' });
    const forOwn = await stepUp(u, key, { purpose: 'withdraw_all', walletAddress: OWN_WALLET });
    const elsewhere = await withdrawAll(t, u, THIEF_WALLET, { passkey: forOwn } as never);
    expect(elsewhere.data).toEqual({ error: MSG.passkeyStepUpInvalid, code: 'passkey_invalid' });
    // The amount changed after it was confirmed: the assertion confirmed another total.
    await fund(t, u.user.id, 1_000_000n);
    const more = await withdrawAll(t, u, OWN_WALLET, { passkey: forOwn } as never);
    expect(more.data.code).toBe('passkey_invalid');
    const fresh = await stepUp(u, key, { purpose: 'withdraw_all', walletAddress: OWN_WALLET });
    const ok = await withdrawAll(t, u, OWN_WALLET, { passkey: fresh } as never);
    expect(ok.statusCode, JSON.stringify(ok.data)).toBe(200);
    const mine = await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token: u.token });
    expect(mine.data.withdrawals.map((w: { amount: number }) => w.amount)).toEqual([1_250_001]);
  });

  it('an address needs an assertion for that address, used once', async () => {
    const u = await makeUser(t);
    const key = await register(u);
    const add = (address: string, passkey?: unknown) =>
      call(t, 'POST', '/api/user/withdrawal-addresses', {
        token: u.token,
        body: { label: 'Ledger', address, password: u.password, ...(passkey ? { passkey } : {}) },
      });
    expect((await add(OWN_WALLET)).data.code).toBe('passkey_required');
    const forOwn = await stepUp(u, key, { purpose: 'add_address', address: OWN_WALLET });
    expect((await add(THIEF_WALLET, forOwn)).data.code).toBe('passkey_invalid');
    const added = await add(OWN_WALLET, forOwn);
    expect(added.statusCode).toBe(201);
    await call(t, 'DELETE', `/api/user/withdrawal-addresses/${added.data.address._id}`, { token: u.token });
    // The captured assertion replayed: used up.
    expect((await add(OWN_WALLET, forOwn)).data.code).toBe('passkey_invalid');
  });

  it('turning the lock off needs an assertion for that', async () => {
    const u = await makeUser(t);
    const key = await register(u);
    const lock = (body: Record<string, unknown>) =>
      call(t, 'PUT', '/api/user/withdrawal-lock', { token: u.token, body });
    expect((await lock({ enabled: true })).statusCode).toBe(200);
    expect((await lock({ enabled: false, password: u.password })).data.code).toBe('passkey_required');
    // An assertion made for an address does not turn the lock off.
    const forAddress = await stepUp(u, key, { purpose: 'add_address', address: OWN_WALLET });
    expect((await lock({ enabled: false, password: u.password, passkey: forAddress })).data.code).toBe(
      'passkey_invalid',
    );
    const forLock = await stepUp(u, key, { purpose: 'lock_off' });
    expect((await lock({ enabled: false, password: u.password, passkey: forLock })).statusCode).toBe(200);
  });

  it("another account's passkey cannot confirm", async () => {
    const u = await makeUser(t);
    await register(u);
    const other = await makeUser(t);
    const otherKey = await register(other);
    const theirs = await stepUp(other, otherKey, { purpose: 'add_address', address: OWN_WALLET });
    const res = await call(t, 'POST', '/api/user/withdrawal-addresses', {
      token: u.token,
      body: { label: 'Ledger', address: OWN_WALLET, password: u.password, passkey: theirs },
    });
    expect(res.data.code).toBe('passkey_invalid');
  });
});
