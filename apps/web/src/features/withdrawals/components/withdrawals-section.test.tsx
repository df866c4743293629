import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import type { DashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { Withdrawal } from '@harvest/shared/schemas/withdrawals';
import { fail, stubApi as stubAppApi, type ApiRoutes } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { withdrawBreakdown } from '../lib/breakdown.ts';
import { WithdrawalsSection } from './withdrawals-section.tsx';

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
  payeeRefused: false,
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

/** The investor's API: dashboard and history as above; Withdraw All answers what `requestAll` says. */
function stubApi(requestAll: ApiRoutes) {
  return stubAppApi((call) => {
    if (call.path.startsWith('/user/dashboard')) return dashboard;
    if (call.path.startsWith('/withdrawal/my-withdrawals')) return { withdrawals };
    if (call.path.startsWith('/withdrawal/request-all')) return requestAll(call);
  });
}

const renderSection = () => renderApp(<WithdrawalsSection />);

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
    stubApi(() => ({ message: 'ok' }));
    renderSection();
    expect(await screen.findByText('Cycle Withdrawals')).toBeTruthy();
    // The section has its heading, which names it.
    const summary = await screen.findByRole('region', { name: 'Withdrawal Summary' });
    expect(within(summary).getByRole('heading', { name: 'Withdrawal Summary' })).toBeTruthy();
    // Exact, like the dashboard's cards: 1.275 is not rounded to 1.28.
    await waitFor(() => expect(within(summary).getByText('15.734567 USDC')).toBeTruthy());
    expect(within(summary).getByText('4.00 USDC')).toBeTruthy();
    expect(within(summary).getByText('1.275 USDC')).toBeTruthy();
    expect(within(summary).getByText('0.225 USDC')).toBeTruthy();
    expect(await screen.findByLabelText('Withdrawal Completed')).toBeTruthy();
    expect(screen.getByLabelText('Withdrawal Pending')).toBeTruthy();
    expect(screen.getByLabelText('Withdrawal Rejected')).toBeTruthy();
    expect(screen.getByText(`${HASH.slice(0, 20)}...`)).toBeTruthy();
    expect(screen.getByText('Notes: Paid')).toBeTruthy();
    expect(screen.queryByText(/USDC refuses transfers/)).toBeNull();
  });

  it('a pending withdrawal to a wallet the token refuses says it cannot be paid there and what happens next', async () => {
    const [, pending] = withdrawals;
    stubAppApi((call) => {
      if (call.path.startsWith('/user/dashboard')) return dashboard;
      if (call.path.startsWith('/withdrawal/my-withdrawals'))
        return { withdrawals: [{ ...pending, payeeRefused: true }] };
    });
    renderSection();
    const card = await screen.findByLabelText('Withdrawal Pending');
    expect(
      within(card).getByText(
        'USDC refuses transfers to this address: it cannot be paid there. We will return the money to your account; then withdraw again to another address.',
      ),
    ).toBeTruthy();
  });

  it('Withdraw All: asks for the wallet, shows gross, fee and net before confirming, then sends the request', async () => {
    const user = userEvent.setup();
    const api = stubApi(() => ({ message: 'Withdrawal request submitted for 4 items' }));
    renderSection();
    const open = await screen.findByRole('button', { name: 'Withdraw All' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await user.click(open);
    const wallet = screen.getByLabelText<HTMLInputElement>('Wallet Address (Polygon USDC)');
    expect(wallet.value).toBe('0x2222222222222222222222222222222222222222');
    await user.clear(wallet);
    await user.click(screen.getByRole('button', { name: 'Review Withdrawal' }));
    // Inside the dialog, at the field (and in a toast).
    const dialog = screen.getByRole('dialog', { name: 'Withdraw All' });
    expect(await within(dialog).findByText(TEXT.walletRequired)).toBeTruthy();
    expect(wallet.getAttribute('aria-invalid')).toBe('true');

    await user.type(wallet, '0x4444444444444444444444444444444444444444');
    await user.type(screen.getByLabelText('Withdrawal Password'), 'withdraw-1');
    await user.click(screen.getByRole('button', { name: 'Review Withdrawal' }));
    const breakdown = await screen.findByLabelText('Withdrawal breakdown');
    expect(within(breakdown).getByText('15.734567 USDC')).toBeTruthy();
    expect(within(breakdown).getByText('−0.410185 USDC')).toBeTruthy();
    expect(within(breakdown).getByText('15.324382 USDC')).toBeTruthy();
    expect(api.to('POST /withdrawal/request-all')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Confirm Withdrawal' }));
    expect(await screen.findByText('Withdrawal request submitted for 4 items')).toBeTruthy();
    const sent = api.to('POST /withdrawal/request-all');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['idempotency-key']).toBeTruthy();
    expect(sent[0]?.body).toEqual({
      walletAddress: '0x4444444444444444444444444444444444444444',
      withdrawalPassword: 'withdraw-1',
    });
  });

  it('a mixed-case wallet address whose EIP-55 checksum does not match is a typo: said at the field, nothing sent', async () => {
    const user = userEvent.setup();
    const api = stubApi(() => ({ message: 'Withdrawal request submitted for 4 items' }));
    renderSection();
    const open = await screen.findByRole('button', { name: 'Withdraw All' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await user.click(open);
    const wallet = screen.getByLabelText<HTMLInputElement>('Wallet Address (Polygon USDC)');
    await user.clear(wallet);
    // One letter's case flipped (the last D): the checksum no longer matches.
    await user.type(wallet, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD');
    await user.type(screen.getByLabelText('Withdrawal Password'), 'withdraw-1');
    await user.click(screen.getByRole('button', { name: 'Review Withdrawal' }));
    const dialog = screen.getByRole('dialog', { name: 'Withdraw All' });
    expect(await within(dialog).findByText('This address has a typo: its checksum does not match')).toBeTruthy();
    expect(wallet.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByLabelText('Withdrawal breakdown')).toBeTruthy(); // still the form, not the confirmation
    expect(screen.queryByRole('button', { name: 'Confirm Withdrawal' })).toBeNull();

    // The right checksum (and all lower case) go on.
    await user.clear(wallet);
    await user.type(wallet, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    await user.click(screen.getByRole('button', { name: 'Review Withdrawal' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm Withdrawal' }));
    expect(await screen.findByText('Withdrawal request submitted for 4 items')).toBeTruthy();
    expect(api.to('POST /withdrawal/request-all').map((c) => c.body)).toEqual([
      { walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', withdrawalPassword: 'withdraw-1' },
    ]);
  });

  it("shows the server's refusal, or 'Failed to request withdrawal' when it sent no text", async () => {
    const user = userEvent.setup();
    let n = 0;
    stubApi(() => (n++ === 0 ? fail(400, TEXT.noFunds, 'no_funds') : new Response('', { status: 502 })));
    renderSection();
    const open = await screen.findByRole('button', { name: 'Withdraw All' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await user.click(open);
    await user.type(screen.getByLabelText('Withdrawal Password'), 'withdraw-1');
    await user.click(screen.getByRole('button', { name: 'Review Withdrawal' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm Withdrawal' }));
    const dialog = screen.getByRole('dialog', { name: 'Withdraw All' });
    expect(await within(dialog).findByText(TEXT.noFunds)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Review Withdrawal' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm Withdrawal' }));
    expect(await within(dialog).findByText(TEXT.withdrawFailed)).toBeTruthy();
  });
});
