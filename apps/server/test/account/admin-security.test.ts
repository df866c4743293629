import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { receipt } from '@harvest/shared/said';
import { call, createTestApp, expectLedgerClean, fund, makeUser, type TestApp, type TestUser } from '../helpers.ts';
import { lastMail, linkToken, OWN_WALLET, signIn, THIEF_WALLET, withdrawAll } from './support.ts';

/**
 * The user detail shows a user's sessions and addresses with their states; an administrator
 * signs a user's sessions out and freezes withdrawals (short of a block), both audited.
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_REQUIRE_2FA: '0' });
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

const audit = async (action: string) =>
  (await call(t, 'GET', '/api/admin/audit', { token: admin.token })).data.entries.filter(
    (e: { action: string }) => e.action === action,
  );

describe('a user in the back office', () => {
  it("shows the user's sessions and every address with its state, removed ones included", async () => {
    const u = await makeUser(t);
    const token = (await signIn(t, u, { deviceId: `dev-${u.user.id}` })).data.token as string;
    const kept = await call(t, 'POST', '/api/user/withdrawal-addresses', {
      token,
      body: { label: 'Kept', address: OWN_WALLET, password: u.password },
    });
    await call(t, 'POST', '/api/user/withdrawal-addresses/confirm', {
      token,
      body: { token: linkToken(await lastMail(t, u.user.email, 'New withdrawal address added'), 'confirm-address') },
    });
    const gone = await call(t, 'POST', '/api/user/withdrawal-addresses', {
      token,
      body: { label: 'Gone', address: THIEF_WALLET, password: u.password },
    });
    await call(t, 'DELETE', `/api/user/withdrawal-addresses/${gone.data.address._id}`, { token });
    await call(t, 'POST', '/api/user/logout', { token: u.token });

    const addrs = await call(t, 'GET', `/api/admin/users/${u.user.id}/withdrawal-addresses`, { token: admin.token });
    expect(addrs.statusCode).toBe(200);
    expect(addrs.data.addresses.map((a: { label: string; status: string }) => [a.label, a.status])).toEqual([
      ['Gone', 'removed'],
      ['Kept', 'cooling_down'],
    ]);
    expect(addrs.data.addresses[1]._id).toBe(kept.data.address._id);
    expect(addrs.data.withdrawalLock.status).toBe('off');

    const sess = await call(t, 'GET', `/api/admin/users/${u.user.id}/sessions`, { token: admin.token });
    expect(sess.data.sessions.map((s: { status: string }) => s.status).sort()).toEqual(['active', 'signed_out']);
    // Investors cannot read them.
    expect((await call(t, 'GET', `/api/admin/users/${u.user.id}/sessions`, { token })).statusCode).toBe(403);
  });

  it("signs every session of a user out (audited, in the user's activity)", async () => {
    const u = await makeUser(t);
    const other = (await signIn(t, u)).data.token as string;
    const res = await call(t, 'POST', `/api/admin/users/${u.user.id}/revoke-sessions`, { token: admin.token });
    expect(res.data).toEqual(receipt(MSG.adminSessionsRevoked(2)));
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).statusCode).toBe(401);
    expect((await call(t, 'GET', '/api/user/me', { token: other })).statusCode).toBe(401);
    expect((await audit('sessions_revoke')).some((e: { targetId: string }) => e.targetId === u.user.id)).toBe(true);
    const back = (await signIn(t, u)).data.token as string;
    const ev = await call(t, 'GET', '/api/user/security-events', { token: back });
    expect(ev.data.events.map((e: { type: string }) => e.type)).toContain('sessions_revoked');
  });

  it("a staff member's sessions are an owner's to end: support signs investors out, not staff", async () => {
    const support = await makeUser(t, { role: 'support' });
    const owner = await makeUser(t, { role: 'owner' });
    const investor = await makeUser(t);
    const revoke = (by: TestUser, u: TestUser) =>
      call(t, 'POST', `/api/admin/users/${u.user.id}/revoke-sessions`, { token: by.token });
    const refused = await revoke(support, owner);
    expect(refused.statusCode).toBe(403);
    expect(refused.data).toEqual({ error: MSG.forbiddenRole, code: 'forbidden_role' });
    expect((await call(t, 'GET', '/api/admin/staff', { token: owner.token })).statusCode).toBe(200);
    expect((await revoke(support, investor)).data).toEqual(receipt(MSG.adminSessionsRevoked(1)));
    expect((await revoke(owner, support)).data).toEqual(receipt(MSG.adminSessionsRevoked(1)));
    expect((await call(t, 'GET', '/api/admin/users', { token: support.token })).statusCode).toBe(401);
  });

  it('freezes withdrawals short of a block, and lifts the freeze; both audited', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 2_000_000n);
    const freeze = await call(t, 'PUT', `/api/admin/users/${u.user.id}/withdrawals-frozen`, {
      token: admin.token,
      body: { frozen: true, note: 'Reported phishing' },
    });
    expect(freeze.data).toEqual({ message: MSG.adminWithdrawalsFrozen });
    // The user still signs in and sees everything; Withdraw All is refused.
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).data.user.withdrawalsFrozen).toBe(true);
    expect((await withdrawAll(t, u, OWN_WALLET)).data.code).toBe('withdrawals_frozen');
    const users = await call(t, 'GET', `/api/admin/users?search=${encodeURIComponent(u.user.email)}`, {
      token: admin.token,
    });
    expect(users.data.users[0].withdrawalsFrozen).toBe(true);
    await call(t, 'PUT', `/api/admin/users/${u.user.id}/withdrawals-frozen`, {
      token: admin.token,
      body: { frozen: false },
    });
    expect((await withdrawAll(t, u, OWN_WALLET)).statusCode).toBe(200);
    const [entry] = await audit('withdrawals_freeze');
    expect(entry).toMatchObject({ targetId: u.user.id, note: 'Reported phishing' });
    expect((await audit('withdrawals_unfreeze')).length).toBe(1);
    const investor = await makeUser(t);
    expect(
      (
        await call(t, 'PUT', `/api/admin/users/${u.user.id}/withdrawals-frozen`, {
          token: investor.token,
          body: { frozen: false },
        })
      ).statusCode,
    ).toBe(403);
  });
});
