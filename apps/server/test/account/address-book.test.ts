import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { TEXT } from '@harvest/shared/texts';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  makeUser,
  saidError,
  type TestApp,
  type TestUser,
} from '../helpers.ts';
import { hours, lastMail, linkToken, mailsTo, OWN_WALLET, THIEF_WALLET, withdrawAll } from './support.ts';

/**
 * The withdrawal address book. An address is usable only once confirmed from the e-mailed
 * link (single use, 1 hour) and after the cool-down; with the lock on, Withdraw All pays only to an active
 * address of the book; the lock goes off only with the password, an e-mailed confirmation and the cool-down.
 */
let t: TestApp;
/** Sessions outlive the clock moves of the cool-downs. */
const WEEK = String(7 * 24 * 3600);
beforeAll(async () => {
  t = await createTestApp({ JWT_TTL_SECONDS: WEEK });
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

const book = (u: TestUser) => call(t, 'GET', '/api/user/withdrawal-addresses', { token: u.token });
const add = (u: TestUser, address: string, label = 'My Ledger', password = u.password) =>
  call(t, 'POST', '/api/user/withdrawal-addresses', { token: u.token, body: { label, address, password } });
const confirm = (u: TestUser, token: string) =>
  call(t, 'POST', '/api/user/withdrawal-addresses/confirm', { token: u.token, body: { token } });
const lock = (u: TestUser, enabled: boolean, password?: string) =>
  call(t, 'PUT', '/api/user/withdrawal-lock', { token: u.token, body: { enabled, ...(password ? { password } : {}) } });
const me = async (u: TestUser) => (await call(t, 'GET', '/api/user/me', { token: u.token })).data.user;

/** A funded investor with one confirmed address of the book (its cool-down still running). */
async function investorWithAddress(address = OWN_WALLET) {
  const u = await makeUser(t);
  await fund(t, u.user.id, 1_234_567_890_000n);
  const added = await add(u, address);
  expect(added.statusCode, JSON.stringify(added.data)).toBe(201);
  const mail = await lastMail(t, u.user.email, 'New withdrawal address added');
  expect((await confirm(u, linkToken(mail, 'confirm-address'))).statusCode).toBe(200);
  return { u, id: added.data.address._id as string, mail };
}

describe('adding an address', () => {
  it('asks for the login password again, checks EIP-55, refuses a duplicate; nothing is added on a refusal', async () => {
    const u = await makeUser(t);
    const wrong = await add(u, OWN_WALLET, 'Mine', 'not-my-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.data).toEqual({ error: MSG.currentPasswordWrong, code: 'wrong_password' });
    const badSum = await add(u, OWN_WALLET.replace('E7', 'e7'));
    expect(badSum.statusCode).toBe(400);
    expect(badSum.data.error).toBe(TEXT.walletChecksum);
    expect((await add(u, '0x1234')).data.error).toBe(TEXT.invalidWallet);
    expect((await book(u)).data.addresses).toEqual([]);
    expect(await mailsTo(t, u.user.email)).toHaveLength(0);

    const ok = await add(u, OWN_WALLET.toLowerCase(), 'Mine');
    expect(ok.statusCode).toBe(201);
    expect(ok.data.address).toMatchObject({ label: 'Mine', address: OWN_WALLET, status: 'unconfirmed' });
    const dup = await add(u, OWN_WALLET, 'Again');
    expect(dup.statusCode).toBe(409);
    expect(dup.data.error).toBe(MSG.addressExists);
    expect((await book(u)).data.addresses).toHaveLength(1);
  });

  it('e-mails a confirmation naming the address, the device and the IP, with a "this wasn\'t me" link', async () => {
    const u = await makeUser(t);
    const res = await call(t, 'POST', '/api/user/withdrawal-addresses', {
      token: u.token,
      body: { label: 'Cold storage', address: OWN_WALLET, password: u.password },
    });
    expect(res.statusCode).toBe(201);
    expect(res.data.message).toBe(MSG.addressAdded(24).text);
    const mail = await lastMail(t, u.user.email, 'New withdrawal address added: Cold storage');
    expect(mail.text).toContain(OWN_WALLET);
    expect(mail.text).toContain('Test device'); // the session's device
    expect(mail.text).toContain('127.0.0.1');
    expect(mail.text).toMatch(/http:\/\/localhost:\d+\/confirm-address#token=/);
    expect(mail.text).toMatch(/\/not-me#token=/);
  });
});

describe('confirmation link', () => {
  it('works once, only for its account, and only within 1 hour', async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    await add(u, OWN_WALLET);
    const token = linkToken(await lastMail(t, u.user.email, 'New withdrawal address added'), 'confirm-address');
    const foreign = await confirm(other, token);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.data).toEqual({ error: MSG.linkOtherAccount, code: 'invalid_link' });
    const first = await confirm(u, token);
    expect(first.statusCode).toBe(200);
    expect(first.data.address.status).toBe('cooling_down');
    const again = await confirm(u, token);
    expect(again.data).toEqual({ error: MSG.linkInvalid, code: 'invalid_link' });

    await add(u, THIEF_WALLET, 'Late');
    const late = linkToken(await lastMail(t, u.user.email, 'New withdrawal address added: Late'), 'confirm-address');
    hours(t, 1.01);
    expect((await confirm(u, late)).data).toEqual({ error: MSG.linkInvalid, code: 'invalid_link' });
    expect((await book(u)).data.addresses.find((a: { label: string }) => a.label === 'Late').status).toBe(
      'unconfirmed',
    );
  });

  it('an address removed before its link is used is not confirmed by it', async () => {
    const u = await makeUser(t);
    const added = await add(u, OWN_WALLET);
    const token = linkToken(await lastMail(t, u.user.email, 'New withdrawal address added'), 'confirm-address');
    expect(
      (await call(t, 'DELETE', `/api/user/withdrawal-addresses/${added.data.address._id}`, { token: u.token })).data,
    ).toEqual({ message: MSG.addressRemoved });
    expect((await confirm(u, token)).data).toEqual({ error: MSG.addressGone, code: 'invalid_link' });
  });
});

describe('with the lock on, Withdraw All pays only to an active address of the book', () => {
  it('refuses an address not in the book, unconfirmed, cooling down; pays once the cool-down is over', async () => {
    const { u } = await investorWithAddress();
    const on = await lock(u, true);
    expect(on.data.withdrawalLock).toEqual({ status: 'on', endsAt: null, required: false });
    expect((await me(u)).withdrawalLock.status).toBe('on');

    const stranger = await withdrawAll(t, u, THIEF_WALLET);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.data).toEqual(saidError(MSG.addressNotInBook(24), 'address_not_active'));

    const cooling = await withdrawAll(t, u, OWN_WALLET);
    expect(cooling.statusCode).toBe(403);
    expect(cooling.data.code).toBe('address_not_active');
    expect(cooling.data.error).toMatch(/^This address becomes usable at .+ \(in 2[34]h \d+m\)\.$/);

    await add(u, THIEF_WALLET, 'Unconfirmed');
    const unconfirmed = await withdrawAll(t, u, THIEF_WALLET);
    expect(unconfirmed.data.code).toBe('address_not_active');
    expect(unconfirmed.data.error).toMatch(/^This address is not confirmed yet/);

    hours(t, 23.9);
    expect((await withdrawAll(t, u, OWN_WALLET)).statusCode).toBe(403);
    hours(t, 0.11);
    const list = (await book(u)).data.addresses;
    expect(list.find((a: { address: string }) => a.address === OWN_WALLET).status).toBe('active');
    expect(list.find((a: { address: string }) => a.address === THIEF_WALLET).status).toBe('unconfirmed');
    // Still refused: never confirmed, its link expired.
    expect((await withdrawAll(t, u, THIEF_WALLET)).data.error).toBe(MSG.addressUnconfirmedExpired);
    const paid = await withdrawAll(t, u, OWN_WALLET.toLowerCase());
    expect(paid.statusCode, JSON.stringify(paid.data)).toBe(200);
  });

  it('without the lock (optional platform), the typed address of the spec is paid at once', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 5_000_000n);
    expect((await me(u)).withdrawalLock).toEqual({ status: 'off', endsAt: null, required: false });
    expect((await withdrawAll(t, u, THIEF_WALLET)).statusCode).toBe(200);
  });

  it('removing an address is immediate: the next Withdraw All to it is refused', async () => {
    const { u, id } = await investorWithAddress();
    await lock(u, true);
    hours(t, 24.1);
    const del = await call(t, 'DELETE', `/api/user/withdrawal-addresses/${id}`, { token: u.token });
    expect(del.statusCode).toBe(200);
    expect((await withdrawAll(t, u, OWN_WALLET)).data.code).toBe('address_not_active');
    expect((await book(u)).data.addresses).toEqual([]);
    const other = await makeUser(t);
    expect((await call(t, 'DELETE', `/api/user/withdrawal-addresses/${id}`, { token: other.token })).statusCode).toBe(
      404,
    );
  });

  it('parallel: a removal and Withdraw All to that address; either the withdrawal came first or it was refused', async () => {
    const { u, id } = await investorWithAddress();
    await lock(u, true);
    hours(t, 24.1);
    const [w, d] = await Promise.all([
      withdrawAll(t, u, OWN_WALLET),
      call(t, 'DELETE', `/api/user/withdrawal-addresses/${id}`, { token: u.token }),
    ]);
    expect(d.statusCode).toBe(200);
    expect([200, 403]).toContain(w.statusCode);
    if (w.statusCode === 403) expect(w.data.code).toBe('address_not_active');
  });
});

describe('parallel: "this wasn\'t me" and Withdraw All', () => {
  it('either the withdrawal was held before the freeze, or it is refused; never paid after it', async () => {
    for (let i = 0; i < 3; i++) {
      const { u, mail } = await investorWithAddress();
      const [w, r] = await Promise.all([
        withdrawAll(t, u, THIEF_WALLET),
        call(t, 'POST', '/api/security/not-me', { body: { token: linkToken(mail, 'not-me') } }),
      ]);
      expect(r.statusCode).toBe(200);
      expect([200, 401, 403]).toContain(w.statusCode);
      // After the freeze nothing more is held: a second try is refused whatever the address.
      const again = await call(t, 'POST', '/api/login', { body: { email: u.user.email, password: u.password } });
      const w2 = await withdrawAll(t, { ...u, token: again.data.token }, OWN_WALLET);
      expect(w2.data.code).toBe(w.statusCode === 200 ? 'no_funds' : 'withdrawals_frozen');
    }
  });
});

describe('turning the lock off', () => {
  it('asks for the login password and an e-mailed confirmation, then holds for the cool-down', async () => {
    const { u } = await investorWithAddress();
    await lock(u, true);
    const noPassword = await lock(u, false);
    expect(noPassword.statusCode).toBe(400);
    expect((await lock(u, false, 'wrong-one')).data.error).toBe(MSG.currentPasswordWrong);
    const asked = await lock(u, false, u.password);
    expect(asked.statusCode).toBe(200);
    expect(asked.data.message).toBe(MSG.lockOffRequested(24).text);
    expect(asked.data.withdrawalLock.status).toBe('on');
    const mail = await lastMail(t, u.user.email, 'Confirm: turn off the withdrawal address lock');
    const token = linkToken(mail, 'confirm-lock-off');

    const confirmed = await call(t, 'POST', '/api/user/withdrawal-lock/confirm', { token: u.token, body: { token } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.data.withdrawalLock.status).toBe('turning_off');
    const lockNow = (await me(u)).withdrawalLock;
    expect(lockNow.status).toBe('turning_off');
    expect(new Date(lockNow.endsAt).getTime() - t.clock.now().getTime()).toBeGreaterThan(23.9 * 3600_000);
    expect((await withdrawAll(t, u, THIEF_WALLET)).data.code).toBe('address_not_active');
    // The link was single use.
    expect(
      (await call(t, 'POST', '/api/user/withdrawal-lock/confirm', { token: u.token, body: { token } })).data.code,
    ).toBe('invalid_link');

    hours(t, 24.1);
    expect((await me(u)).withdrawalLock).toEqual({ status: 'off', endsAt: null, required: false });
    expect((await withdrawAll(t, u, THIEF_WALLET)).statusCode).toBe(200);
  });

  it('turning it on again cancels a lock on its way off and voids an unused lock-off link', async () => {
    const { u } = await investorWithAddress();
    await lock(u, true);
    await lock(u, false, u.password);
    const token = linkToken(
      await lastMail(t, u.user.email, 'Confirm: turn off the withdrawal address lock'),
      'confirm-lock-off',
    );
    await lock(u, true);
    expect(
      (await call(t, 'POST', '/api/user/withdrawal-lock/confirm', { token: u.token, body: { token } })).data.code,
    ).toBe('invalid_link');
    expect((await me(u)).withdrawalLock.status).toBe('on');

    await lock(u, false, u.password);
    const second = linkToken(
      await lastMail(t, u.user.email, 'Confirm: turn off the withdrawal address lock'),
      'confirm-lock-off',
    );
    await call(t, 'POST', '/api/user/withdrawal-lock/confirm', { token: u.token, body: { token: second } });
    expect((await me(u)).withdrawalLock.status).toBe('turning_off');
    expect((await lock(u, true)).data.withdrawalLock.status).toBe('on');
    hours(t, 25);
    expect((await me(u)).withdrawalLock.status).toBe('on');
  });
});

describe('"this wasn\'t me" from the address e-mail', () => {
  it('freezes withdrawals, removes the address, signs out every session; the owner is told', async () => {
    const { u, mail } = await investorWithAddress(THIEF_WALLET);
    const notMe = linkToken(mail, 'not-me');
    const res = await call(t, 'POST', '/api/security/not-me', { body: { token: notMe } });
    expect(res.statusCode).toBe(200);
    expect(res.data.message).toBe(MSG.notMeDone);
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).statusCode).toBe(401);
    // A fresh sign-in sees the frozen state, and Withdraw All is refused whatever the address.
    const login = await call(t, 'POST', '/api/login', { body: { email: u.user.email, password: u.password } });
    const again = { ...u, token: login.data.token as string };
    expect(login.data.user.withdrawalsFrozen).toBe(true);
    const w = await withdrawAll(t, again, OWN_WALLET);
    expect(w.statusCode).toBe(403);
    expect(w.data).toEqual(saidError(MSG.withdrawalsFrozen(t.ctx.config.SUPPORT_EMAIL), 'withdrawals_frozen'));
    expect((await book(again)).data.addresses).toEqual([]);
    expect((await lastMail(t, u.user.email, 'Your Harvest Farm account was secured')).text).toContain(
      'withdrawals are frozen',
    );
    expect((await call(t, 'POST', '/api/security/not-me', { body: { token: notMe } })).data.code).toBe('invalid_link');
    expect((await call(t, 'POST', '/api/security/not-me', { body: { token: 'x'.repeat(43) } })).data.code).toBe(
      'invalid_link',
    );
  });
});

describe('WITHDRAWAL_ADDRESS_LOCK=required and the cool-down setting', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({
      WITHDRAWAL_ADDRESS_LOCK: 'required',
      WITHDRAWAL_ADDRESS_COOLDOWN_HOURS: '2',
      JWT_TTL_SECONDS: WEEK,
    });
  });
  afterAll(() => r.close());

  it('every investor withdraws only to the book; the lock cannot be turned off; the cool-down is the setting', async () => {
    const u = await makeUser(r);
    await fund(r, u.user.id, 9_000_000n);
    const user = (await call(r, 'GET', '/api/user/me', { token: u.token })).data.user;
    expect(user.withdrawalLock).toEqual({ status: 'on', endsAt: null, required: true });
    const typed = await withdrawAll(r, u, OWN_WALLET);
    expect(typed.data).toEqual(saidError(MSG.addressNotInBook(2), 'address_not_active'));
    const off = await call(r, 'PUT', '/api/user/withdrawal-lock', {
      token: u.token,
      body: { enabled: false, password: u.password },
    });
    expect(off.statusCode).toBe(400);
    expect(off.data.error).toBe(MSG.lockRequired);

    const added = await call(r, 'POST', '/api/user/withdrawal-addresses', {
      token: u.token,
      body: { label: 'Mine', address: OWN_WALLET, password: u.password },
    });
    expect(added.data.message).toBe(MSG.addressAdded(2).text);
    const token = linkToken(await lastMail(r, u.user.email, 'New withdrawal address added'), 'confirm-address');
    await call(r, 'POST', '/api/user/withdrawal-addresses/confirm', { token: u.token, body: { token } });
    hours(r, 1.9);
    expect((await withdrawAll(r, u, OWN_WALLET)).statusCode).toBe(403);
    hours(r, 0.2);
    expect((await withdrawAll(r, u, OWN_WALLET)).statusCode).toBe(200);
  });
});
