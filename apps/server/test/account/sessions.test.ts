import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { receipt } from '@harvest/shared/said';
import { sql } from 'drizzle-orm';
import { rawRows } from '../../src/db/raw.ts';
import { housekeepingJob } from '../../src/modules/housekeeping/housekeeping.job.ts';
import { call, createTestApp, makeUser, type TestApp, type TestUser } from '../helpers.ts';
import { CHROME_LINUX, FIREFOX_WINDOWS, hours, lastMail, linkToken, mailsTo, signIn } from './support.ts';

/**
 * Each sign-in is a session (listed, signed out one by one or all others); a block, a
 * password change and "this wasn't me" end them all; a sign-in from a new device and repeated failed sign-ins
 * e-mail the owner.
 */
let t: TestApp;
beforeAll(async () => {
  // The e-mails' times below are in UTC.
  t = await createTestApp({ PLATFORM_TIMEZONE: 'UTC' });
});
afterAll(() => t.close());

const sessions = (token: string) => call(t, 'GET', '/api/user/sessions', { token });
const meStatus = async (token: string) => (await call(t, 'GET', '/api/user/me', { token })).statusCode;

/** An investor signed in on a laptop (Chrome) and a second computer (Firefox): their two tokens. */
async function twoDevices(): Promise<{ u: TestUser; laptop: string; desk: string }> {
  const u = await makeUser(t);
  const a = await signIn(t, u, { ua: CHROME_LINUX, deviceId: `laptop-${u.user.id}` });
  const b = await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `desk-${u.user.id}` });
  expect(a.statusCode).toBe(200);
  expect(b.statusCode).toBe(200);
  return { u, laptop: a.data.token, desk: b.data.token };
}

describe('sessions and devices', () => {
  it('each sign-in is a session with its device, IP, created and last seen; the current one is marked', async () => {
    const { laptop } = await twoDevices();
    const res = await sessions(laptop);
    expect(res.statusCode).toBe(200);
    const devices = res.data.sessions.map((s: { device: string; current: boolean }) => [s.device, s.current]);
    expect(devices).toEqual(
      expect.arrayContaining([
        ['Chrome 140 on Linux', true],
        ['Firefox 133 on Windows 10', false],
      ]),
    );
    for (const s of res.data.sessions) {
      expect(s.ip).toBe('127.0.0.1');
      expect(Date.parse(s.createdAt)).not.toBeNaN();
      expect(Date.parse(s.lastSeenAt)).not.toBeNaN();
    }
    expect(res.data.pagination).toMatchObject({ page: 1, pageSize: 20 });
  });

  it('"Sign out" of one session ends only that one; another account cannot end it', async () => {
    const { laptop, desk } = await twoDevices();
    const deskId = (await sessions(laptop)).data.sessions.find((s: { current: boolean }) => !s.current)._id;
    const stranger = await makeUser(t);
    expect((await call(t, 'DELETE', `/api/user/sessions/${deskId}`, { token: stranger.token })).statusCode).toBe(404);
    expect(await meStatus(desk)).toBe(200);
    const out = await call(t, 'DELETE', `/api/user/sessions/${deskId}`, { token: laptop });
    expect(out.data).toEqual({ message: MSG.sessionRevoked });
    // The desk is told why: signed out from another device, not "expired".
    const told = await call(t, 'GET', '/api/user/me', { token: desk });
    expect(told.statusCode).toBe(401);
    expect(told.data).toEqual({ error: MSG.sessionEndedElsewhere, code: 'session_revoked' });
    expect(await meStatus(laptop)).toBe(200);
    expect((await call(t, 'DELETE', `/api/user/sessions/${deskId}`, { token: laptop })).statusCode).toBe(404);
  });

  it('"Sign out all others" keeps this session only', async () => {
    const { u, laptop, desk } = await twoDevices();
    const third = (await signIn(t, u, { deviceId: `third-${u.user.id}` })).data.token;
    const res = await call(t, 'POST', '/api/user/sessions/revoke-others', { token: laptop });
    expect(res.data).toEqual(receipt(MSG.sessionsRevoked(3))); // desk, third and makeUser's own session
    expect(await meStatus(desk)).toBe(401);
    expect(await meStatus(third)).toBe(401);
    expect(await meStatus(laptop)).toBe(200);
    expect((await sessions(laptop)).data.sessions).toHaveLength(1);
  });

  it('logout ends this session only (it used to end all)', async () => {
    const { laptop, desk } = await twoDevices();
    expect((await call(t, 'POST', '/api/user/logout', { token: desk })).statusCode).toBe(200);
    expect(await meStatus(desk)).toBe(401);
    expect(await meStatus(laptop)).toBe(200);
  });

  it('a password change ends every other session; a block ends them all', async () => {
    const { u, laptop, desk } = await twoDevices();
    const changed = await call(t, 'PUT', '/api/user/profile', {
      token: laptop,
      body: { firstName: 'A', lastName: 'B', currentPassword: u.password, newPassword: 'a-new-pass-99' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await meStatus(desk)).toBe(401);
    const fresh = changed.data.token as string;
    expect(await meStatus(fresh)).toBe(200);
    expect((await sessions(fresh)).data.sessions).toHaveLength(1);

    const admin = await makeUser(t, { isAdmin: true });
    expect(
      (await call(t, 'POST', `/api/user/admin/toggle-block/${u.user.id}`, { token: admin.token })).statusCode,
    ).toBe(200);
    await call(t, 'POST', `/api/user/admin/toggle-block/${u.user.id}`, { token: admin.token });
    expect(await meStatus(fresh)).toBe(401);
  });

  it('last seen moves at most once a minute (a poll does not write on every request)', async () => {
    const { laptop } = await twoDevices();
    const seen = async () =>
      (await sessions(laptop)).data.sessions.find((s: { current: boolean }) => s.current).lastSeenAt as string;
    const first = await seen();
    t.clock.set(new Date(t.clock.now().getTime() + 30_000));
    expect(await seen()).toBe(first);
    t.clock.set(new Date(t.clock.now().getTime() + 31_000));
    await meStatus(laptop);
    const moved = await seen();
    expect(Date.parse(moved) - Date.parse(first)).toBeGreaterThanOrEqual(60_000);
  });
});

describe('housekeeping', () => {
  it('removes sessions 30 days past their expiry and e-mailed links a day past theirs; live ones stay', async () => {
    const u = await makeUser(t);
    const count = async (table: string) =>
      Number(
        (
          await rawRows<{ n: number }>(
            t.ctx.db,
            sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE user_id = ${u.user.id}`,
          )
        )[0]?.n,
      );
    await signIn(t, u, { deviceId: `old-${u.user.id}` });
    await signIn(t, u, { deviceId: `other-${u.user.id}` }); // a new device: a "this wasn't me" link
    expect(await count('sessions')).toBe(3);
    expect(await count('account_links')).toBe(1);
    hours(t, 24 * 7.5); // the link has expired, but not a day ago
    await housekeepingJob.run(t.ctx);
    expect(await count('account_links')).toBe(1);
    hours(t, 24 * 0.6);
    await housekeepingJob.run(t.ctx);
    expect(await count('account_links')).toBe(0);
    expect(await count('sessions')).toBe(3);
    hours(t, 24 * 23);
    await housekeepingJob.run(t.ctx);
    expect(await count('sessions')).toBe(0);
    expect(await count('security_events')).toBeGreaterThan(0);
  });
});

describe('sign-in alerts', () => {
  it('a sign-in from a device the account has not used sends one e-mail with time, IP, device and a "this wasn\'t me" link', async () => {
    const u = await makeUser(t);
    await signIn(t, u, { ua: CHROME_LINUX, deviceId: `own-${u.user.id}` });
    await signIn(t, u, { ua: CHROME_LINUX, deviceId: `own-${u.user.id}` });
    expect((await mailsTo(t, u.user.email)).filter((m) => m.subject.startsWith('New sign-in'))).toHaveLength(0);

    const thief = await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `thief-${u.user.id}` });
    const mail = await lastMail(t, u.user.email, 'New sign-in to your Harvest Farm account');
    expect(mail.text).toContain('Firefox 133 on Windows 10');
    expect(mail.text).toContain('127.0.0.1');
    expect(mail.text).toMatch(/Time:\s+\w{3} \d+, \d{4}, \d\d:\d\d \(UTC\)/);
    await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `thief-${u.user.id}` });
    expect((await mailsTo(t, u.user.email)).filter((m) => m.subject.startsWith('New sign-in'))).toHaveLength(1);

    // "This wasn't me": every session ends (the thief's too), withdrawals are frozen.
    const own = (await signIn(t, u, { deviceId: `own-${u.user.id}` })).data.token;
    const res = await call(t, 'POST', '/api/security/not-me', { body: { token: linkToken(mail, 'not-me') } });
    expect(res.statusCode).toBe(200);
    expect(await meStatus(thief.data.token)).toBe(401);
    expect(await meStatus(own)).toBe(401);
    const back = await signIn(t, u, { deviceId: `own-${u.user.id}` });
    expect(back.data.user.withdrawalsFrozen).toBe(true);
    // The reported device is forgotten: it alerts again.
    await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `thief-${u.user.id}` });
    expect((await mailsTo(t, u.user.email)).filter((m) => m.subject.startsWith('New sign-in'))).toHaveLength(2);
  });

  it('repeated failed sign-ins send one warning per hour at most', async () => {
    const u = await makeUser(t);
    const fail = () => signIn(t, { ...u, password: 'not-the-password' });
    const warnings = async () =>
      (await mailsTo(t, u.user.email)).filter((m) => m.subject === 'Failed sign-ins to your Harvest Farm account');
    await Promise.all([fail(), fail()]);
    expect(await warnings()).toHaveLength(0);
    await Promise.all([fail(), fail(), fail(), fail()]);
    expect(await warnings()).toHaveLength(1);
    expect((await warnings())[0]?.text).toContain('Wrong password');
    hours(t, 1.01);
    for (let i = 0; i < 3; i++) await fail();
    expect(await warnings()).toHaveLength(2);
    // An unknown e-mail sends nothing to anyone.
    expect((await signIn(t, { user: { email: 'nobody@example.com' }, password: 'x' })).statusCode).toBe(401);
  });
});
