import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_EVENTS_SHOWN } from '@harvest/shared/constants';
import { call, createTestApp, makeUser, type TestApp } from '../helpers.ts';
import { FIREFOX_WINDOWS, lastMail, linkToken, OWN_WALLET, signIn } from './support.ts';

/** Profile shows the newest 50 security events of the account, paged, and only its own. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const events = (token: string, query = '') => call(t, 'GET', `/api/user/security-events${query}`, { token });

describe('security activity', () => {
  it('records sign-ins, failures, addresses, sessions and password changes, newest first, with IP and device', async () => {
    const u = await makeUser(t);
    await signIn(t, { ...u, password: 'wrong-password' }, { ua: FIREFOX_WINDOWS });
    const login = await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `dev-${u.user.id}` });
    const token = login.data.token as string;
    const added = await call(t, 'POST', '/api/user/withdrawal-addresses', {
      token,
      body: { label: 'Ledger', address: OWN_WALLET, password: u.password },
    });
    const mail = await lastMail(t, u.user.email, 'New withdrawal address added');
    await call(t, 'POST', '/api/user/withdrawal-addresses/confirm', {
      token,
      body: { token: linkToken(mail, 'confirm-address') },
    });
    await call(t, 'DELETE', `/api/user/withdrawal-addresses/${added.data.address._id}`, { token });
    await call(t, 'POST', '/api/user/sessions/revoke-others', { token });
    const changed = await call(t, 'PUT', '/api/user/profile', {
      token,
      body: { firstName: 'A', lastName: 'B', currentPassword: u.password, newPassword: 'another-pass-31' },
    });

    const res = await events(changed.data.token);
    expect(res.statusCode).toBe(200);
    expect(res.data.events.map((e: { type: string }) => e.type)).toEqual([
      'password_changed',
      'sessions_revoked',
      'address_removed',
      'address_confirmed',
      'address_added',
      'sign_in',
      'sign_in_failed',
    ]);
    const [, revoked, removed, , , signedIn, failed] = res.data.events;
    // A detail with values keeps them, so the web says it in the reader's language; one without has none.
    expect(revoked).toMatchObject({
      detail: '1 other session',
      detailSaid: { template: '1 other session', params: { n: 1 } },
    });
    expect(removed).toMatchObject({ detail: `Ledger: ${OWN_WALLET}`, detailSaid: null });
    expect(signedIn).toMatchObject({ ip: '127.0.0.1', device: 'Firefox 133 on Windows 10' });
    expect(failed.detail).toBe('Wrong password');

    const stranger = await makeUser(t);
    expect((await events(stranger.token)).data.events).toEqual([]);
  });

  it(`shows the newest ${SECURITY_EVENTS_SHOWN}, paged`, async () => {
    const u = await makeUser(t);
    for (let i = 0; i < SECURITY_EVENTS_SHOWN + 5; i++) await signIn(t, { ...u, password: 'wrong' });
    const first = await events(u.token, '?pageSize=50');
    expect(first.data.events).toHaveLength(50);
    expect(first.data.pagination).toEqual({ page: 1, pageSize: 50, total: 50 });
    expect((await events(u.token, '?page=2&pageSize=50')).data.events).toEqual([]);
    const p3 = await events(u.token, '?page=3&pageSize=20');
    expect(p3.data.events).toHaveLength(10);
    expect((await events(u.token, '?pageSize=51')).statusCode).toBe(400);
  });
});
