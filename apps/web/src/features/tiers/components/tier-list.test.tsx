import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastContainer } from 'react-toastify';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import { TierList } from './tier-list.tsx';

beforeAll(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});
afterEach(() => vi.unstubAllGlobals());

const TIERS = { tiers: [{ _id: 't1', name: 'Bronze', amount: 100, dailyRate: 1.5 }] };

function setup(investReply: Response) {
  const fetchMock = vi.fn((url: string) =>
    Promise.resolve(url.startsWith('/api/user/investment-tiers') ? new Response(JSON.stringify(TIERS)) : investReply),
  );
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <TierList balance={250} />
      <ToastContainer />
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('TierList', () => {
  it('shows each tier and asks for confirmation before money moves', async () => {
    const fetchMock = setup(
      new Response(
        JSON.stringify({
          message: 'Investment successful',
          investment: {
            _id: 'i1',
            tier: 'Bronze',
            amount: 100,
            dailyRate: 1.5,
            totalEarned: 0,
            earningStarted: false,
            earningCompleted: false,
            cycleEndTime: null,
            withdrawalApprovedAt: null,
            nextCycleAvailableAt: null,
            lastCycleDay: null,
            createdAt: '2026-01-14T00:00:00.000Z',
            cycleEarnings: [],
          },
        }),
      ),
    );
    expect(await screen.findByText('Bronze')).toBeTruthy();
    expect(screen.getByText('100.00 USDC')).toBeTruthy();
    expect(screen.getByText('1.5%')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Invest Now in Bronze' }));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/user/invest')).toBe(false);
    expect(screen.getByText('1.5 USDC')).toBeTruthy(); // earning per cycle
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Investment' }));
    expect(await screen.findByText('Investment successful')).toBeTruthy();
    const investCall = fetchMock.mock.calls.find(([url]) => url === '/api/user/invest') as unknown as
      [string, RequestInit] | undefined;
    expect(JSON.parse(String(investCall?.[1].body))).toEqual({ amount: 100 });
  });

  it('falls back to the spec text when the server sends none', async () => {
    setup(new Response('', { status: 502 }));
    await userEvent.click(await screen.findByRole('button', { name: 'Invest Now in Bronze' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Investment' }));
    expect(await screen.findByText(TEXT.investFailed)).toBeTruthy();
  });
});
