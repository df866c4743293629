import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastContainer } from 'react-toastify';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import type { DashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { Withdrawal } from '@harvest/shared/schemas/withdrawals';
import { AuthProvider } from '../../../lib/auth.tsx';
import { withdrawBreakdown } from '../lib/breakdown.ts';
import { WithdrawalsSection } from './withdrawals-section.tsx';

beforeAll(() => {
  // jsdom may lack the modal API of <dialog>.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});
afterEach(() => vi.unstubAllGlobals());

const HASH = `0x${'ab'.repeat(32)}`;
const dashboard: DashboardResponse = {
  accountSummary: {
    balance: 10,
    totalInvestment: 100,
    referralRewards: 3,
    withdrawalWallet: '0x2222222222222222222222222222222222222222',
    totalEarnings: 2.734567,
    availableToWithdraw: 15.734567,
    pendingApproval: 4,
    successfullyWithdrawn: 1.275,
  },
  activeInvestments: [
    {
      _id: 'inv1',
      tier: 'Gold',
      amount: 100,
      dailyRate: 1.5,
      totalEarned: 2.734567,
      earningStarted: false,
      earningCompleted: true,
      cycleEndTime: null,
      withdrawalApprovedAt: null,
      nextCycleAvailableAt: null,
      lastCycleDay: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      cycleEarnings: [
        {
          _id: 'c1',
          cycleNumber: 1,
          grossAmount: 1.234567,
          withdrawalRequested: false,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
        {
          _id: 'c2',
          cycleNumber: 2,
          grossAmount: 1.5,
          withdrawalRequested: false,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
        { _id: 'c3', cycleNumber: 3, grossAmount: 4, withdrawalRequested: true, createdAt: '2026-01-01T00:00:00.000Z' },
      ],
    },
  ],
  serverTime: '2026-01-01T00:00:00.000Z',
};
const base = {
  requestId: 'r1',
  walletAddress: '0x2222222222222222222222222222222222222222',
  requestedAt: '2026-01-02T00:00:00.000Z',
  notes: null,
};
const withdrawals: Withdrawal[] = [
  {
    ...base,
    _id: 'w1',
    status: 'approved',
    source: 'earning',
    amount: 1.5,
    feeAmount: 0.225,
    netAmount: 1.275,
    cycleNumber: 4,
    investmentId: { _id: 'inv1', tier: 'Gold', amount: 100 },
    processedAt: '2026-01-03T00:00:00.000Z',
    txHash: HASH,
    notes: 'Paid',
  },
  {
    ...base,
    _id: 'w2',
    status: 'pending',
    source: 'earning',
    amount: 4,
    feeAmount: 0.6,
    netAmount: 3.4,
    cycleNumber: 3,
    investmentId: { _id: 'inv1', tier: 'Gold', amount: 100 },
    processedAt: null,
    txHash: null,
  },
  {
    ...base,
    _id: 'w3',
    status: 'rejected',
    source: 'rewards',
    amount: 2,
    feeAmount: 0,
    netAmount: 2,
    cycleNumber: null,
    investmentId: null,
    processedAt: '2026-01-03T00:00:00.000Z',
    txHash: null,
  },
];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function stubApi(requestAll: () => Response) {
  const calls: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.startsWith('/api/user/dashboard')) return json(dashboard);
      if (url.startsWith('/api/withdrawal/my-withdrawals')) return json({ withdrawals });
      if (url.startsWith('/api/withdrawal/request-all')) return requestAll();
      return json({ error: 'Not found', code: 'not_found' }, 404);
    }),
  );
  return calls;
}

function renderSection() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthProvider>
        <WithdrawalsSection />
        <ToastContainer />
      </AuthProvider>
    </QueryClientProvider>,
  );
}

describe('withdrawBreakdown', () => {
  it('charges 15% per unrequested earning, rounded down to the micro-USDC, and nothing on rewards and balance', () => {
    // 1.234567 -> fee 0.185185; 1.5 -> fee 0.225; rewards + balance 13 USDC.
    expect(withdrawBreakdown(dashboard)).toEqual({
      earningsCount: 2,
      earnings: 2.734567,
      other: 13,
      gross: 15.734567,
      fee: 0.410185,
      net: 15.324382,
    });
  });
});

describe('WithdrawalsSection', () => {
  it('shows the summary and the history cards with the spec status words and hashes cut to 20 characters', async () => {
    stubApi(() => json({ message: 'ok' }));
    renderSection();
    expect(await screen.findByText('Cycle Withdrawals')).toBeTruthy();
    const summary = screen.getByLabelText('Withdrawal Summary');
    await waitFor(() => expect(within(summary).getByText('15.73 USDC')).toBeTruthy());
    expect(within(summary).getByText('4.00 USDC')).toBeTruthy();
    expect(within(summary).getByText('1.28 USDC')).toBeTruthy();
    expect(within(summary).getByText('0.23 USDC')).toBeTruthy();
    expect(await screen.findByLabelText('Withdrawal Completed')).toBeTruthy();
    expect(screen.getByLabelText('Withdrawal Pending')).toBeTruthy();
    expect(screen.getByLabelText('Withdrawal Rejected')).toBeTruthy();
    expect(screen.getByText(`${HASH.slice(0, 20)}...`)).toBeTruthy();
    expect(screen.getByText('Notes: Paid')).toBeTruthy();
  });

  it('Withdraw All: asks for the wallet, shows gross, fee and net before confirming, then sends the request', async () => {
    const user = userEvent.setup();
    const calls = stubApi(() => json({ message: 'Withdrawal request submitted for 4 items' }));
    renderSection();
    const open = await screen.findByRole('button', { name: 'Withdraw All' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await user.click(open);
    const wallet = screen.getByLabelText<HTMLInputElement>('Wallet Address (Polygon USDC)');
    expect(wallet.value).toBe('0x2222222222222222222222222222222222222222');
    await user.clear(wallet);
    await user.click(screen.getByRole('button', { name: 'Review Withdrawal' }));
    expect(await screen.findByText(TEXT.walletRequired)).toBeTruthy();

    await user.type(wallet, '0x4444444444444444444444444444444444444444');
    await user.type(screen.getByLabelText('Withdrawal Password'), 'withdraw-1');
    await user.click(screen.getByRole('button', { name: 'Review Withdrawal' }));
    const breakdown = await screen.findByLabelText('Withdrawal breakdown');
    expect(within(breakdown).getByText('15.734567 USDC')).toBeTruthy();
    expect(within(breakdown).getByText('−0.410185 USDC')).toBeTruthy();
    expect(within(breakdown).getByText('15.324382 USDC')).toBeTruthy();
    expect(calls.some((c) => c.url.startsWith('/api/withdrawal/request-all'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Confirm Withdrawal' }));
    expect(await screen.findByText('Withdrawal request submitted for 4 items')).toBeTruthy();
    expect(calls.find((c) => c.url.startsWith('/api/withdrawal/request-all'))?.body).toEqual({
      walletAddress: '0x4444444444444444444444444444444444444444',
      withdrawalPassword: 'withdraw-1',
    });
  });

  it("shows the server's refusal, or 'Failed to request withdrawal' when it sent no text", async () => {
    const user = userEvent.setup();
    let n = 0;
    stubApi(() =>
      n++ === 0 ? json({ error: TEXT.noFunds, code: 'no_funds' }, 400) : new Response('', { status: 502 }),
    );
    renderSection();
    const open = await screen.findByRole('button', { name: 'Withdraw All' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await user.click(open);
    await user.type(screen.getByLabelText('Withdrawal Password'), 'withdraw-1');
    await user.click(screen.getByRole('button', { name: 'Review Withdrawal' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm Withdrawal' }));
    expect(await screen.findByText(TEXT.noFunds)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Review Withdrawal' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm Withdrawal' }));
    expect(await screen.findByText(TEXT.withdrawFailed)).toBeTruthy();
  });
});
