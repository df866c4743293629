import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { rawRows } from '../../src/db/raw.ts';
import { call, createTestApp, makeUser, saidError, type TestApp, sessionToken } from '../helpers.ts';

/**
 * The answer 'must be different' to a new login password tells whether it is the withdrawal password:
 * someone holding a session and the login password could try them unthrottled, find it, and withdraw
 * everything. At most 5 login-password changes per account per hour, that
 * answer counted among them; then 429 saying when to try again; one 'password changed' e-mail per
 * change that happened. Always on (also with RATE_LIMITS=off, as here).
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const passwordMails = async (userId: string) =>
  Number(
    (
      await rawRows<{ n: number }>(
        t.ctx.db,
        sql`SELECT count(*)::int AS n FROM mail_outbox WHERE user_id = ${userId}::uuid AND subject ILIKE '%password%'`,
      )
    )[0]?.n ?? 0,
  );

describe('login-password changes per account', () => {
  it('5 an hour, the "must be different" answer counted; then 429 with when to try again, whatever the guess', async () => {
    const u = await makeUser(t);
    let token = u.token;
    let current = u.password;
    const change = (newPassword: string) =>
      call(t, 'PUT', '/api/user/profile', {
        token,
        body: {
          firstName: 'Test',
          lastName: 'User',
          currentPassword: current,
          newPassword,
          confirmPassword: newPassword,
        },
      });

    const guesses = ['guess-one-1', u.withdrawalPassword, 'guess-two-2', 'guess-three-3', 'guess-four-4'];
    let changed = 0;
    for (const guess of guesses) {
      const res = await change(guess);
      if (guess === u.withdrawalPassword) {
        expect(res.statusCode).toBe(400);
        expect(res.data.error).toBe(MSG.withdrawalPasswordSame);
        continue;
      }
      expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
      token = res.data.token;
      current = guess;
      changed++;
    }
    // The sixth try, even with the withdrawal password: no answer about it, a wait instead.
    for (const guess of [u.withdrawalPassword, 'guess-five-5']) {
      const res = await change(guess);
      expect(res.statusCode).toBe(429);
      // The test clock ticks: the wait left is just under the hour, said as "1h 0m".
      expect(res.data).toEqual(saidError(MSG.passwordChangesLimit(res.data.params.left), 'rate_limited'));
      expect(res.data.params.left).toBeGreaterThan(3500_000);
      expect(res.data.error).toContain('try again in 1h 0m');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(3500);
    }
    expect(await passwordMails(u.user.id)).toBe(changed);

    // An hour later the owner can change it again.
    t.clock.set(new Date(t.clock.now().getTime() + 3601_000));
    token = await sessionToken(t, u.user.id, u.user.tokenVersion + changed);
    expect((await change('guess-six-6')).statusCode).toBe(200);
    expect(await passwordMails(u.user.id)).toBe(changed + 1);
  });

  it("another account's limit is its own", async () => {
    const other = await makeUser(t);
    const res = await call(t, 'PUT', '/api/user/profile', {
      token: other.token,
      body: { firstName: 'Other', lastName: 'User', currentPassword: other.password, newPassword: 'fresh-pass-9' },
    });
    expect(res.statusCode).toBe(200);
  });
});
