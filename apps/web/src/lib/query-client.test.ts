import { QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLL_INVESTMENTS_MS } from '@harvest/shared/constants';
import { dashboardQuery } from './query-keys.ts';
import { queryClient } from './query-client.ts';

/**
 * A poll the server sheds for overload (503 `overloaded`, decision 0096) backs off: Retry-After at least, longer
 * each time; the last data stays and the query never turns to an error; answered again, it polls at its interval.
 */
const summary = {
  balance: 1,
  totalInvestment: 0,
  referralRewards: 0,
  withdrawalWallet: null,
  totalEarnings: 0,
  availableToWithdraw: 0,
  pendingApproval: 0,
  successfullyWithdrawn: 0,
};
let overloaded = false;
const fetches: number[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      fetches.push(Date.now());
      return overloaded
        ? new Response(JSON.stringify({ error: 'The server is busy.', code: 'overloaded' }), {
            status: 503,
            headers: { 'retry-after': '5' },
          })
        : new Response(
            JSON.stringify({ accountSummary: summary, activeInvestments: [], serverTime: new Date().toISOString() }),
            { status: 200 },
          );
    }),
  );
});
afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('a poll shed for overload', () => {
  it('waits Retry-After, then twice as long each time, keeps its data, and polls at its interval once answered', async () => {
    const observer = new QueryObserver(queryClient, dashboardQuery(POLL_INVESTMENTS_MS));
    const states: string[] = [];
    const stop = observer.subscribe((r) => states.push(r.status));
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().data?.accountSummary.balance).toBe(1);

    overloaded = true;
    fetches.length = 0;
    const from = Date.now();
    await vi.advanceTimersByTimeAsync(60_000);
    // Shed at 2 s (the interval), then asked again after 5 s (Retry-After over the 4 s of doubling), 8 and 16 s.
    expect(fetches.map((at) => at - from)).toEqual([2_000, 7_000, 15_000, 31_000]);
    expect(observer.getCurrentResult().data?.accountSummary.balance).toBe(1);
    expect(states).not.toContain('error');

    overloaded = false;
    fetches.length = 0;
    await vi.advanceTimersByTimeAsync(32_000);
    expect(fetches.length).toBeGreaterThanOrEqual(1);
    fetches.length = 0;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetches).toHaveLength(5);
    expect(observer.getCurrentResult().status).toBe('success');
    stop();
  });
});
