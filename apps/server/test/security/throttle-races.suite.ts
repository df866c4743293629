import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { stepOf, totpAt } from '../../src/lib/totp.ts';
import { fund, createTestApp, makeUser, type TestApp, type TestUser } from '../helpers.ts';
import { httpFrom, listenOnLoopback, statusCounts } from '../http.ts';

/**
 * Wrong secrets are counted before they are checked (so parallel
 * guesses cannot outrun the limit), the hard stop is per account AND client address (so an
 * attacker cannot lock the owner out), and a wider per-account budget across addresses slows
 * a guesser spread over many addresses without stopping the owner's known addresses. Real
 * HTTP from distinct loopback addresses (127.0.0.x), parallel requests; run on PostgreSQL
 * with DATABASE_URL (the database store) and with Redis (the Redis store).
 */
const WALLET = '0x2222222222222222222222222222222222222222';
const OWNER = '127.0.0.1';
/** The limits as an attacker meets them (src/lib/throttle.ts THROTTLE_LIMITS). */
const LIMITS = { password: 10, passwordPerAccount: 100, withdrawalPassword: 5, totp: 5 };
/**
 * Each test's attacker has an address of its own, so the per-IP request limits (login: 30 per
 * 15 minutes) never answer for the failure throttles under test.
 */
const ATTACKER = {
  passwords: '127.0.0.2',
  withdrawal: '127.0.0.3',
  codes: '127.0.0.4',
  lockout: '127.0.0.5',
  lockoutWithdrawal: '127.0.0.6',
  lockoutCodes: '127.0.0.7',
};

export function suite(name: string, env: () => Record<string, string>) {
  describe(`failure throttles (${name})`, () => {
    let t: TestApp;
    let to: { host: string; port: number };
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMITS: 'on', ...env() });
      to = await listenOnLoopback(t.app);
    });
    afterAll(() => t.close());

    const login = (from: string, email: string, password: string, totpCode?: string) =>
      httpFrom(to, from, 'POST', '/api/login', { body: { email, password, ...(totpCode ? { totpCode } : {}) } });
    const withdraw = (from: string, u: TestUser, withdrawalPassword: string) =>
      httpFrom(to, from, 'POST', '/api/withdrawal/request-all', {
        token: u.token,
        body: { walletAddress: WALLET, withdrawalPassword },
      });

    async function withTwoFactor(): Promise<{ u: TestUser; secret: string }> {
      const u = await makeUser(t);
      const setup = await httpFrom(to, OWNER, 'POST', '/api/user/2fa/setup', {
        token: u.token,
        body: { password: u.password },
      });
      expect(setup.status).toBe(200);
      const secret: string = setup.data.secret;
      const code = totpAt(secret, stepOf(t.clock.now()));
      const enable = await httpFrom(to, OWNER, 'POST', '/api/user/2fa/enable', {
        token: u.token,
        body: { password: u.password, code },
      });
      expect(enable.status).toBe(200);
      return { u, secret };
    }
    /** A code that is surely wrong now (far outside the drift window). */
    const wrongCode = (secret: string, i: number) => totpAt(secret, stepOf(t.clock.now()) + 100 + i);

    it('25 wrong passwords at once: exactly the limit (10) are checked, the rest get 429', async () => {
      const u = await makeUser(t);
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) => login(ATTACKER.passwords, u.user.email, `wrong-${i}`)),
      );
      expect(statusCounts(answers)).toEqual({ 401: LIMITS.password, 429: 15 });
      for (const a of answers.filter((x) => x.status === 429)) {
        expect(a.data).toEqual({ error: MSG.tooManyRequests, code: 'rate_limited' });
        expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
      }
    });

    it('12 wrong withdrawal passwords at once: exactly 5 are checked, nothing is held', async () => {
      const u = await makeUser(t);
      await fund(t, u.user.id, 5_000_000n);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => withdraw(ATTACKER.withdrawal, u, `nope-${i}`)),
      );
      expect(statusCounts(answers)).toEqual({ 400: LIMITS.withdrawalPassword, 429: 7 });
      const held = await t.ctx.db.query.withdrawals.findMany({ where: (w, { eq }) => eq(w.userId, u.user.id) });
      expect(held).toHaveLength(0);
    });

    it('12 wrong sign-in codes at once (right password): exactly 5 are checked', async () => {
      const { u, secret } = await withTwoFactor();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => login(ATTACKER.codes, u.user.email, u.password, wrongCode(secret, i))),
      );
      expect(statusCounts(answers)).toEqual({ 401: LIMITS.totp, 429: 7 });
      expect(answers.filter((a) => a.status === 401).every((a) => a.data.code === 'two_factor_invalid')).toBe(true);
    });

    it("an attacker's address is stopped while the owner signs in from another", async () => {
      const u = await makeUser(t);
      const guesses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => login(ATTACKER.lockout, u.user.email, `wrong-${i}`)),
      );
      expect(statusCounts(guesses)).toEqual({ 401: 10 });
      expect((await login(ATTACKER.lockout, u.user.email, u.password)).status).toBe(429);
      const owner = await login(OWNER, u.user.email, u.password);
      expect(owner.status, JSON.stringify(owner.data)).toBe(200);
      expect((await login(ATTACKER.lockout, u.user.email, u.password)).status).toBe(429);
    });

    it('the same for the withdrawal password and for sign-in codes', async () => {
      const u = await makeUser(t);
      await fund(t, u.user.id, 5_000_000n);
      const guesses = await Promise.all(
        Array.from({ length: 5 }, (_, i) => withdraw(ATTACKER.lockoutWithdrawal, u, `nope-${i}`)),
      );
      expect(statusCounts(guesses)).toEqual({ 400: 5 });
      expect((await withdraw(ATTACKER.lockoutWithdrawal, u, u.withdrawalPassword)).status).toBe(429);
      const mine = await withdraw(OWNER, u, u.withdrawalPassword);
      expect(mine.status, JSON.stringify(mine.data)).toBe(200);

      const { u: v, secret } = await withTwoFactor();
      const codes = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          login(ATTACKER.lockoutCodes, v.user.email, v.password, wrongCode(secret, i)),
        ),
      );
      expect(statusCounts(codes)).toEqual({ 401: 5 });
      const step = stepOf(t.clock.now());
      expect((await login(ATTACKER.lockoutCodes, v.user.email, v.password, totpAt(secret, step + 1))).status).toBe(429);
      const owner = await login(OWNER, v.user.email, v.password, totpAt(secret, step + 1));
      expect(owner.status, JSON.stringify(owner.data)).toBe(200);
    });

    it('a guesser spread over many addresses uses up the account budget; the owner still gets in from a known address', async () => {
      const u = await makeUser(t);
      // The owner signed in from 127.0.0.1 before: that address is known.
      expect((await login(OWNER, u.user.email, u.password)).status).toBe(200);
      const max = LIMITS.passwordPerAccount;
      const perAddress = LIMITS.password;
      const addresses = Array.from({ length: Math.ceil(max / perAddress) + 1 }, (_, i) => `127.0.0.${10 + i}`);
      const answers = await Promise.all(
        addresses.flatMap((from, a) =>
          Array.from({ length: perAddress }, (_, i) => login(from, u.user.email, `wrong-${a}-${i}`)),
        ),
      );
      // Never more wrong passwords checked than the budget, however they were spread.
      expect(statusCounts(answers)[401]).toBe(max);
      // A new address is refused even with the right password; the owner's known address is not.
      expect((await login('127.0.0.200', u.user.email, u.password)).status).toBe(429);
      const owner = await login(OWNER, u.user.email, u.password);
      expect(owner.status, JSON.stringify(owner.data)).toBe(200);
    });
  });
}
