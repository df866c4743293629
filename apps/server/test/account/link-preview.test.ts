import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { call, createTestApp, makeUser, type TestApp } from '../helpers.ts';
import { FIREFOX_WINDOWS, hours, lastMail, linkToken, OWN_WALLET, signIn } from './support.ts';

/**
 * The page an e-mailed link opens shows what its button will do before it is pressed: the address and its label,
 * the sign-in "this wasn't me" ends, or the lock change. Looking uses nothing up; a dead link says so at once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const preview = (page: string, token: string) =>
  call(t, 'POST', '/api/security/link-preview', { body: { page, token } });
/** A time the server gave, checked to lie between two readings of the test clock (which runs on). */
const between = (from: Date, to: Date) => ({
  asymmetricMatch: (iso: string) => Date.parse(iso) >= from.getTime() && Date.parse(iso) <= to.getTime(),
  toString: () => `a time from ${from.toISOString()} to ${to.toISOString()}`,
});

describe('link preview', () => {
  it('an added address: its label and EIP-55 address, on both links; looking twice still leaves it usable', async () => {
    const u = await makeUser(t);
    const before = t.clock.now();
    const added = await call(t, 'POST', '/api/user/withdrawal-addresses', {
      token: u.token,
      body: { label: 'Cold storage', address: OWN_WALLET.toLowerCase(), password: u.password },
    });
    expect(added.statusCode).toBe(201);
    const sentAt = between(before, t.clock.now());
    const mail = await lastMail(t, u.user.email, 'New withdrawal address added: Cold storage');
    const confirmToken = linkToken(mail, 'confirm-address');
    const address = { label: 'Cold storage', address: OWN_WALLET, usableAt: added.data.address.usableAt };
    for (let i = 0; i < 2; i++) {
      const res = await preview('confirm-address', confirmToken);
      expect(res.statusCode).toBe(200);
      expect(res.data).toEqual({ sentAt, address });
    }
    expect((await preview('not-me', linkToken(mail, 'not-me'))).data).toEqual({ sentAt, address });
    // A link opens only its own page.
    expect((await preview('not-me', confirmToken)).data).toEqual({ error: MSG.linkInvalid, code: 'invalid_link' });

    const used = await call(t, 'POST', '/api/user/withdrawal-addresses/confirm', {
      token: u.token,
      body: { token: confirmToken },
    });
    expect(used.statusCode).toBe(200);
    expect((await preview('confirm-address', confirmToken)).data).toEqual({
      error: MSG.linkInvalid,
      code: 'invalid_link',
    });
  });

  it('a new sign-in: the device, IP and time of the session "this wasn\'t me" ends', async () => {
    const u = await makeUser(t);
    await signIn(t, u, { deviceId: `own-${u.user.id}` });
    const before = t.clock.now();
    await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `thief-${u.user.id}` });
    const signedInAt = between(before, t.clock.now());
    const mail = await lastMail(t, u.user.email, 'New sign-in to your Harvest Farm account');
    const res = await preview('not-me', linkToken(mail, 'not-me'));
    expect(res.data).toEqual({
      sentAt: signedInAt,
      session: { device: 'Firefox 133 on Windows 10', ip: '127.0.0.1', signedInAt },
    });
  });

  it('turning the lock off: how long it stays on; an expired link is refused', async () => {
    const u = await makeUser(t);
    await call(t, 'PUT', '/api/user/withdrawal-lock', { token: u.token, body: { enabled: true } });
    const before = t.clock.now();
    await call(t, 'PUT', '/api/user/withdrawal-lock', {
      token: u.token,
      body: { enabled: false, password: u.password },
    });
    const sentAt = between(before, t.clock.now());
    const mail = await lastMail(t, u.user.email, 'Confirm: turn off the withdrawal address lock');
    const token = linkToken(mail, 'confirm-lock-off');
    expect((await preview('confirm-lock-off', token)).data).toEqual({ sentAt, lockOffHours: 24 });
    hours(t, 1.01);
    expect((await preview('confirm-lock-off', token)).data).toEqual({ error: MSG.linkInvalid, code: 'invalid_link' });
  });

  it('refuses a made-up or malformed token, and a page that does not exist', async () => {
    expect((await preview('not-me', 'x'.repeat(43))).data).toEqual({ error: MSG.linkInvalid, code: 'invalid_link' });
    expect((await preview('not-me', '')).statusCode).toBe(400);
    expect((await preview('reset-password', 'x'.repeat(43))).statusCode).toBe(400);
  });
});
