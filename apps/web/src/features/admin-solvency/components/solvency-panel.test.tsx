import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Solvency } from '@harvest/shared/schemas/solvency';
import { SolvencyPanel } from './solvency-panel.tsx';
import { renderApp } from '../../../test/render.tsx';

afterEach(() => vi.unstubAllGlobals());

const base: Solvency = {
  liabilities: 1000,
  assets: { depositAddresses: 900, payoutAddress: 200, treasury: 0 },
  lastSweep: null,
  coverage: 1.1,
  asOf: '2026-11-23T10:00:00.000Z',
  readingAge: { seconds: 240, stale: false, staleAfterSeconds: 900 },
  watcher: null,
  reconciliation: null,
  alarms: [],
  unexplainedOutflow: { payoutWallet: 0, depositAddresses: 0 },
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function show(s: Solvency, onPost: (path: string) => Response = () => json({ error: 'no', code: 'internal' }, 500)) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) =>
    init?.method === 'POST' ? onPost(new URL(url, 'http://x').pathname) : json(s),
  );
  vi.stubGlobal('fetch', fetch);
  // A finance member: the treasury's controls are theirs.
  renderApp(<SolvencyPanel />, { staff: 'finance' });
  return fetch;
}

describe('SolvencyPanel', () => {
  it('shows coverage, liabilities, assets and the reading time; green at or above 100 %', async () => {
    show(base);
    const coverage = await screen.findByTestId('solvency-coverage');
    expect(coverage.textContent).toBe('110.0% covered');
    expect(coverage.dataset.covered).toBe('yes');
    expect(coverage.className).toMatch(/emerald/);
    expect(screen.getByText('1,000.00 USDC')).toBeTruthy();
    expect(screen.getByTestId('solvency-readings').textContent).toMatch(/^On-chain balances read .* \(4m ago\)$/);
  });

  it('says how old the readings are, and that they are stale past the server’s limit', async () => {
    show({ ...base, readingAge: { seconds: 2 * 3600 + 5 * 60, stale: true, staleAfterSeconds: 900 } });
    const line = await screen.findByTestId('solvency-readings');
    expect(line.dataset.stale).toBe('yes');
    expect(line.textContent).toMatch(
      /^Stale: the on-chain balances were read 2h 5m ago \(Nov 23, 2026.*\), more than 15m ago/,
    );
  });

  it('is red below 100 %', async () => {
    show({ ...base, assets: { depositAddresses: 500, payoutAddress: 100, treasury: 0 }, coverage: 0.6 });
    const coverage = await screen.findByTestId('solvency-coverage');
    expect(coverage.textContent).toBe('60.0% covered');
    expect(coverage.dataset.covered).toBe('no');
    expect(coverage.className).toMatch(/rose/);
    expect(screen.getByText(/On-chain balances read Nov 23, 2026/)).toBeTruthy();
  });

  it('before the balances were ever read: no alarm, no zeros, it says they are not read yet', async () => {
    show({
      ...base,
      assets: { depositAddresses: 0, payoutAddress: 0, treasury: 0 },
      coverage: null,
      asOf: null,
      readingAge: null,
    });
    const coverage = await screen.findByTestId('solvency-coverage');
    expect(coverage.textContent).toBe('Coverage not known yet');
    expect(coverage.className).not.toMatch(/rose|red/);
    expect(screen.getByText(/On-chain balances not read yet/)).toBeTruthy();
    expect(screen.queryByText('0.00 USDC')).toBeNull();
  });

  it('Refresh now posts and shows the fresh figures; too soon shows the server text', async () => {
    const user = userEvent.setup();
    let calls = 0;
    const fetch = show(base, (path) => {
      expect(path).toBe('/api/admin/solvency/refresh');
      calls++;
      return calls === 1
        ? json({ ...base, coverage: 2, asOf: '2026-11-24T10:00:00.000Z' })
        : json({ error: 'The balances were read a moment ago. Try again in 9 seconds.', code: 'rate_limited' }, 429);
    });
    await user.click(await screen.findByRole('button', { name: 'Refresh now' }));
    await waitFor(() => expect(screen.getByTestId('solvency-coverage').textContent).toBe('200.0% covered'));
    await user.click(screen.getByRole('button', { name: 'Refresh now' }));
    await waitFor(() => expect(calls).toBe(2));
    expect(fetch).toHaveBeenCalled();
  });

  it('a watcher that has not read the chain for a while, a reconciliation with differences and an open alarm are red', async () => {
    show({
      ...base,
      watcher: { checkedAt: '2026-11-20T10:00:00.000Z', headBlock: 1200, cursorBlock: 1100 },
      reconciliation: {
        _id: 'r1',
        trigger: 'daily',
        status: 'differences',
        startedAt: '2026-11-23T09:00:00.000Z',
        finishedAt: '2026-11-23T09:01:00.000Z',
        throughBlock: 1100,
        checked: { deposits: 12, transfers: 14, addresses: 10, payouts: 3 },
        differenceCount: 1,
        differences: [
          {
            kind: 'unbacked',
            depositId: 'd1',
            userId: 'u1',
            address: '0xabc',
            txHash: `0x${'12'.repeat(32)}`,
            logIndex: null,
            chainAmount: null,
            creditedAmount: 5000,
            detail: 'credited, but no such USDC transfer to this address is on the chain',
          },
        ],
        error: null,
      },
      alarms: [
        {
          _id: 'a1',
          kind: 'deep_reorg',
          detail: 'a re-organisation deeper than the 30 confirmations replaced blocks 10-20',
          blockNumber: 10,
          createdAt: '2026-11-23T08:00:00.000Z',
        },
      ],
    });
    expect((await screen.findByTestId('solvency-watcher')).textContent).toMatch(/Deposits are not being found/);
    expect(screen.getByTestId('reconciliation-status').textContent).toMatch(
      /1 difference with the chain \(12 credited deposits, 14 transfers and 3 transfers out through block 1,100/,
    );
    expect(screen.getByText(/Credited without a transfer/)).toBeTruthy();
    expect(screen.getByText(/Credited 5,000.00/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Acknowledge alarm: a re-organisation deeper/ })).toBeTruthy();
  });

  it('money that left without the books releasing it is a visible loss, red above zero, with where it left from', async () => {
    show({ ...base, unexplainedOutflow: { payoutWallet: 250, depositAddresses: 0 } });
    const outflow = await screen.findByTestId('solvency-outflow');
    expect(within(outflow).getByText(/Left the payout wallet with no withdrawal to account for it/)).toBeTruthy();
    expect(
      within(outflow).getByText(/Left investors' deposit addresses for somewhere other than the treasury/),
    ).toBeTruthy();
    const loss = within(outflow).getByText('250.00 USDC');
    expect(loss.className).toMatch(/rose/);
    expect(within(outflow).getByText('0.00 USDC').className).not.toMatch(/rose/);
  });

  it('differences and alarms about money out have their own words', async () => {
    show({
      ...base,
      reconciliation: {
        _id: 'r2',
        trigger: 'manual',
        status: 'differences',
        startedAt: '2026-11-23T09:00:00.000Z',
        finishedAt: '2026-11-23T09:01:00.000Z',
        throughBlock: 1100,
        checked: { deposits: 1, transfers: 1, addresses: 1, payouts: 1 },
        differenceCount: 2,
        differences: [
          {
            kind: 'overpaid',
            depositId: null,
            userId: null,
            address: '0xabc',
            txHash: `0x${'34'.repeat(32)}`,
            logIndex: 0,
            chainAmount: 120,
            creditedAmount: 100,
            detail: 'this payout carried more to the wallet than the withdrawals approved with it',
          },
          {
            kind: 'sweep_elsewhere',
            depositId: null,
            userId: null,
            address: '0xdef',
            txHash: `0x${'56'.repeat(32)}`,
            logIndex: 1,
            chainAmount: 7,
            creditedAmount: null,
            detail: 'USDC left this deposit address for 0x999, not for the treasury',
          },
        ],
        error: null,
      },
      alarms: [
        {
          _id: 'a2',
          kind: 'sweep_elsewhere',
          detail: 'USDC left deposit address 0xdef for 0x999, not for the treasury',
          blockNumber: 11,
          createdAt: '2026-11-23T08:00:00.000Z',
        },
      ],
    });
    expect(await screen.findByText('Paid more than approved')).toBeTruthy();
    expect(screen.getByText(/Approved 100.00/)).toBeTruthy();
    expect(screen.getByText('Left a deposit address, not for the treasury')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Acknowledge alarm: USDC left deposit address/ })).toBeTruthy();
  });
});
