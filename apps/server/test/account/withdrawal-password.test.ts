import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema.ts';
import { userBalances } from '../../src/ledger/ledger.ts';
import { stepOf, totpAt } from '../../src/lib/totp.ts';
import { timeText } from '../../src/mail/templates.ts';
import { call, createTestApp, expectLedgerClean, fund, makeUser, saidError, sessionToken } from '../helpers.ts';
import type { TestApp, TestUser } from '../helpers.ts';
import { OWN_WALLET, lastMail, linkToken, mailsTo } from './support.ts';

/**
 * Profile's withdrawal-password change: the current one and the authenticator code are asked, the new one is not the
 * login password; the owner is e-mailed a "this wasn't me" link, and withdrawals are held for SECURITY_HOLD_HOURS.
 */
let t: TestApp;
const START = new Date('2027-04-05T09:00:00.000Z');
const HOUR = 3600_000;
const at = (ms: number) => new Date(START.getTime() + ms);
beforeAll(async () => {
  t = await createTestApp({ PLATFORM_TIMEZONE: 'UTC' });
  // Stopped between moves (a SettableClock keeps running): the hold ends exactly when the test says.
  let stopped = START;
  t.clock.now = () => new Date(stopped.getTime());
  t.clock.set = (to: Date) => {
    stopped = to;
  };
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

/** A session signed at the clock's time, at the account's current token version. */
async function fresh(u: TestUser): Promise<string> {
  const [row] = await t.ctx.db.select({ tv: users.tokenVersion }).from(users).where(eq(users.id, u.user.id));
  return sessionToken(t, u.user.id, row!.tv);
}
const change = async (u: TestUser, body: Record<string, string>) =>
  call(t, 'PUT', '/api/user/withdrawal-password', { token: await fresh(u), body });
const withdrawAll = async (u: TestUser, withdrawalPassword: string, extra: Record<string, string> = {}) =>
  call(t, 'POST', '/api/withdrawal/request-all', {
    token: await fresh(u),
    body: { walletAddress: OWN_WALLET, withdrawalPassword, ...extra },
  });
const NEW = 'new-withdraw-7';
const body = (u: TestUser, next = NEW) => ({
  currentWithdrawalPassword: u.withdrawalPassword,
  newWithdrawalPassword: next,
  confirmWithdrawalPassword: next,
});

async function investor() {
  t.clock.set(START);
  const u = await makeUser(t);
  await fund(t, u.user.id, 2_500_000n);
  return u;
}

describe('changing the withdrawal password', () => {
  it('takes the new one, holds Withdraw All for SECURITY_HOLD_HOURS (its message says until when), then pays', async () => {
    const u = await investor();
    const res = await change(u, body(u));
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ message: MSG.withdrawalPasswordChanged });

    t.clock.set(at(2 * HOUR));
    const until = at(24 * HOUR);
    const held = await withdrawAll(u, NEW);
    expect(held.statusCode).toBe(403);
    expect(held.data).toEqual(
      saidError(MSG.withdrawalHold(24, until, timeText(until, t.ctx.config.PLATFORM_TIMEZONE)), 'withdrawal_hold'),
    );
    expect(await userBalances(t.ctx.db, u.user.id)).toMatchObject({ balance: 2_500_000n, pending_withdrawal: 0n });
    const limits = await call(t, 'GET', '/api/user/withdrawal-limits', { token: await fresh(u) });
    expect(limits.data).toMatchObject({ hold: { until: until.toISOString(), reason: 'withdrawal_password_changed' } });

    t.clock.set(until);
    expect((await withdrawAll(u, u.withdrawalPassword)).data).toEqual({
      error: MSG.withdrawalPasswordWrong,
      code: 'validation',
    });
    expect((await withdrawAll(u, NEW)).statusCode).toBe(200);
    expect(await userBalances(t.ctx.db, u.user.id)).toMatchObject({ balance: 0n, pending_withdrawal: 2_500_000n });
    const events = await call(t, 'GET', '/api/user/security-events', { token: await fresh(u) });
    expect(events.data.events.map((e: { type: string }) => e.type)).toContain('withdrawal_password_changed');
  });

  it('refuses a wrong current password, the login password, a short or unconfirmed new one, changing nothing', async () => {
    const u = await investor();
    const wrong = await change(u, { ...body(u), currentWithdrawalPassword: 'not-it-at-all' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.data).toEqual({ error: MSG.withdrawalPasswordWrong, code: 'wrong_password' });
    const same = await change(u, body(u, u.password));
    expect(same.statusCode).toBe(400);
    expect(same.data).toEqual({
      error: MSG.withdrawalPasswordSame,
      code: 'validation',
      field: 'newWithdrawalPassword',
    });
    const short = await change(u, body(u, 'abc12'));
    expect(short.data).toMatchObject({ error: MSG.withdrawalPasswordTooShort });
    const mismatch = await change(u, { ...body(u), confirmWithdrawalPassword: 'something-else' });
    expect(mismatch.data).toMatchObject({ error: MSG.newPasswordsMismatch });

    // Nothing changed: no hold, no e-mail, the old password still pays.
    expect((await mailsTo(t, u.user.email)).filter((m) => m.subject.includes('withdrawal password'))).toHaveLength(0);
    expect((await withdrawAll(u, u.withdrawalPassword)).statusCode).toBe(200);
  });

  it('counts wrong current passwords in the withdrawal-password throttle, as Withdraw All does', async () => {
    const limited = await createTestApp({ RATE_LIMITS: 'on' });
    try {
      const v = await makeUser(limited);
      const put = (b: Record<string, string>) =>
        call(limited, 'PUT', '/api/user/withdrawal-password', { token: v.token, body: b });
      const answers: number[] = [];
      for (let i = 0; i < 6; i++)
        answers.push((await put({ ...body(v), currentWithdrawalPassword: `guess-${i}-xx` })).statusCode);
      expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
      // Even the right password waits now: guessing cannot go faster than at Withdraw All.
      expect((await put(body(v))).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('asks for the authenticator code when it is on', async () => {
    const u = await investor();
    const setup = await call(t, 'POST', '/api/user/2fa/setup', { token: u.token, body: { password: u.password } });
    const secret: string = setup.data.secret;
    const code = () => totpAt(secret, stepOf(t.clock.now()));
    const on = await call(t, 'POST', '/api/user/2fa/enable', {
      token: u.token,
      body: { password: u.password, code: code() },
    });
    expect(on.statusCode).toBe(200);
    t.clock.set(at(60_000));
    expect((await change(u, body(u))).data.code).toBe('two_factor_required');
    expect((await change(u, { ...body(u), totpCode: '000000' })).data.code).toBe('two_factor_invalid');
    expect((await change(u, { ...body(u), totpCode: code() })).statusCode).toBe(200);
  });

  it('e-mails the owner, and its "this wasn\'t me" link freezes withdrawals and signs every session out', async () => {
    const u = await investor();
    const token = await fresh(u);
    expect((await call(t, 'PUT', '/api/user/withdrawal-password', { token, body: body(u) })).statusCode).toBe(200);
    const mail = await lastMail(t, u.user.email, 'Your withdrawal password was changed');
    expect(mail.text).toContain('The withdrawal password of your account was changed');
    const res = await call(t, 'POST', '/api/security/not-me', { body: { token: linkToken(mail, 'not-me') } });
    expect(res.statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/user/me', { token })).statusCode).toBe(401);
    const me = await call(t, 'GET', '/api/user/me', { token: await fresh(u) });
    expect(me.data.user.withdrawalsFrozen).toBe(true);
    t.clock.set(at(48 * HOUR));
    expect((await withdrawAll(u, NEW)).data.code).toBe('withdrawals_frozen');
  });
});
