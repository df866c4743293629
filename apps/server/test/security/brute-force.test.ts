import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { call, createTestApp, fund, makeUser, uniqueEmail, type TestApp } from '../helpers.ts';

const WALLET = '0x2222222222222222222222222222222222222222';

describe('brute force is throttled with 429 and Retry-After (RATE_LIMITS=on)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'on' });
  });
  afterAll(() => t.close());

  it('login: wrong passwords for one account lock it out for a while, even with the right one', async () => {
    const u = await makeUser(t);
    for (let i = 0; i < 10; i++)
      expect(
        (await call(t, 'POST', '/api/login', { body: { email: u.user.email, password: `wrong-${i}` } })).statusCode,
      ).toBe(401);
    const locked = await call(t, 'POST', '/api/login', { body: { email: u.user.email, password: u.password } });
    expect(locked.statusCode).toBe(429);
    expect(locked.data.error).toBe(MSG.tooManyRequests);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('withdrawal password: five wrong guesses, then 429', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 5_000_000n);
    for (let i = 0; i < 5; i++) {
      const res = await call(t, 'POST', '/api/withdrawal/request-all', {
        token: u.token,
        body: { walletAddress: WALLET, withdrawalPassword: `nope-${i}` },
      });
      expect(res.statusCode).toBe(400);
    }
    const res = await call(t, 'POST', '/api/withdrawal/request-all', {
      token: u.token,
      body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
    });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const held = await t.ctx.db.query.withdrawals.findMany({ where: (w, { eq }) => eq(w.userId, u.user.id) });
    expect(held).toHaveLength(0);
  });

  it('send-code and invitation-code guessing (register) are limited per client', async () => {
    let last = 0;
    for (let i = 0; i < 12; i++)
      last = (await call(t, 'POST', '/api/send-code', { body: { email: uniqueEmail() } })).statusCode;
    expect(last).toBe(429);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await call(t, 'POST', '/api/register', {
        body: {
          invitationCode: `GUESS${String(i).padStart(5, '0')}`,
          firstName: 'A',
          lastName: 'B',
          email: uniqueEmail(),
          phone: '+1 5551234567',
          password: 'secret-pass',
          confirmPassword: 'secret-pass',
          withdrawalPassword: 'other-pass',
          verificationCode: '123456',
        },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(20);
    expect(statuses.at(-1)).toBe(429);
  });
});
