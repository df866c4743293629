import { POLLED_READS } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { call, createTestApp, fund, makeUser, type TestApp } from '../helpers.ts';
import { WALLET } from '../support/money.ts';

/**
 * Overload bends (decision 0096). The app runs in this process, so a timer here that holds the loop 60 ms at a time
 * keeps the server's own loop busy, as a flood of requests would. With a limit of 0.8 (busy more than 80 % of two
 * quarter-second windows running), the polls are answered 503
 * `overloaded` with Retry-After in the one error shape, while Withdraw All (money) and the reads nobody polls are
 * served; once the loop is free again, the polls are answered again.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ OVERLOAD_UTILIZATION: '0.8' });
});
afterAll(async () => t.close());

/** Holds the event loop `ms` at a time, again and again, until stopped: busy nearly all the time. */
function lag(ms: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  }, 1);
  return () => clearInterval(timer);
}

describe('overload', () => {
  it('sheds the polled reads, never a money request, and serves them again once the loop keeps up', async () => {
    const investor = await makeUser(t);
    await fund(t, investor.user.id, 25_000_000n);
    const poll = () => call(t, 'GET', '/api/user/dashboard?t=1', { token: investor.token });
    // Creating the investor keeps the embedded database's loop busy a moment: served once it is not.
    await expect.poll(async () => (await poll()).statusCode, { timeout: 20_000, interval: 50 }).toBe(200);

    const stop = lag(60);
    try {
      // The first shed poll comes once two quarter-second windows saw the loop that busy.
      await expect.poll(async () => (await poll()).statusCode, { timeout: 20_000, interval: 50 }).toBe(503);
      const [dashboard, withdrawals, deposits, failed, withdrawAll, me] = await Promise.all([
        poll(),
        call(t, 'GET', '/api/withdrawal/my-withdrawals?t=2', { token: investor.token }),
        call(t, 'GET', '/api/user/deposit-history', { token: investor.token }),
        call(t, 'GET', '/api/withdrawal/failed-deposits', { token: investor.token }),
        call(t, 'POST', '/api/withdrawal/request-all', {
          token: investor.token,
          body: { walletAddress: WALLET, withdrawalPassword: investor.withdrawalPassword },
        }),
        call(t, 'GET', '/api/user/me', { token: investor.token }),
      ]);
      for (const shed of [dashboard, withdrawals, deposits, failed]) {
        expect(shed.statusCode).toBe(503);
        expect(shed.headers['retry-after']).toBe('5');
        expect(shed.data).toEqual({ error: MSG.overloaded, code: 'overloaded' });
      }
      expect(withdrawAll.statusCode, JSON.stringify(withdrawAll.data)).toBe(200);
      expect(me.statusCode).toBe(200);
    } finally {
      stop();
    }

    await expect.poll(async () => (await poll()).statusCode, { timeout: 20_000, interval: 50 }).toBe(200);
    // The Withdraw All made under overload moved the money.
    const mine = await call(t, 'GET', '/api/withdrawal/my-withdrawals?t=3', { token: investor.token });
    expect(mine.data.withdrawals).toHaveLength(1);
  });

  it('names only GET routes the app serves', () => {
    const gets = new Set<string>();
    for (const url of POLLED_READS) if (t.app.hasRoute({ method: 'GET', url })) gets.add(url);
    expect([...gets]).toEqual([...POLLED_READS]);
  });

  it('is on by default on PostgreSQL, off on PGlite (its SQL runs on the event loop), and set by OVERLOAD_UTILIZATION', () => {
    const base = { NODE_ENV: 'test' };
    const pg = { ...base, DATABASE_URL: 'postgres://h/db' };
    expect(loadConfig(pg).overloadUtilization).toBe(0.75);
    expect(loadConfig({ ...pg, OVERLOAD_UTILIZATION: '0' }).overloadUtilization).toBe(0);
    expect(loadConfig(base).overloadUtilization).toBe(0);
    expect(loadConfig({ ...base, OVERLOAD_UTILIZATION: '0.95' }).overloadUtilization).toBe(0.95);
  });
});
