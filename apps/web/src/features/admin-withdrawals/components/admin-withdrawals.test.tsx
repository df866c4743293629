import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastContainer } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import type { AdminWithdrawal } from '@harvest/shared/schemas/withdrawals';
import { AdminWithdrawals } from './admin-withdrawals.tsx';

afterEach(() => vi.unstubAllGlobals());

const HASH = `0x${'cd'.repeat(32)}`;
const pending: AdminWithdrawal = {
  _id: 'w1',
  status: 'pending',
  source: 'earning',
  requestId: 'r1',
  amount: 1.5,
  feeAmount: 0.225,
  netAmount: 1.275,
  cycleNumber: 2,
  investmentId: { _id: 'inv1', tier: 'Gold', amount: 100 },
  walletAddress: '0x2222222222222222222222222222222222222222',
  requestedAt: '2026-01-02T00:00:00.000Z',
  processedAt: null,
  txHash: null,
  notes: null,
  userId: { _id: 'u1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
};
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const list = {
  withdrawals: [pending],
  pagination: { page: 1, pageSize: 25, total: 1 },
  counts: { pending: 1, total: 7 },
};

function renderTab() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AdminWithdrawals />
      <ToastContainer />
    </QueryClientProvider>,
  );
}

describe('AdminWithdrawals', () => {
  it('shows Pending and History with counts and processes a withdrawal: hash required, server text or fallbacks', async () => {
    const user = userEvent.setup();
    const approve = vi
      .fn()
      .mockReturnValueOnce(new Response('', { status: 500 }))
      .mockReturnValueOnce(
        json({ error: 'Payout amount is less than the net amount to pay', code: 'chain_mismatch' }, 400),
      );
    const reject = vi.fn().mockReturnValueOnce(new Response('', { status: 500 }));
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
        if (url.startsWith('/api/withdrawal/admin/pending') || url.startsWith('/api/withdrawal/admin/all'))
          return json(list);
        if (url.startsWith('/api/withdrawal/admin/approve')) return approve();
        if (url.startsWith('/api/withdrawal/admin/reject')) return reject();
        return json({ error: 'Not found', code: 'not_found' }, 404);
      }),
    );
    renderTab();
    expect(await screen.findByRole('tab', { name: 'Pending (1)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'History (7)' })).toBeTruthy();
    expect(screen.getByText('Process Withdrawal')).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(TEXT.txHashRequired)).toBeTruthy();
    expect(approve).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Transaction Hash'), HASH);
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(TEXT.approveWithdrawalFailed)).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/withdrawal/admin/approve')?.body).toEqual({
      withdrawalId: 'w1',
      txHash: HASH,
      notes: null,
    });
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Payout amount is less than the net amount to pay')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(TEXT.rejectWithdrawalFailed)).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'History (7)' }));
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/withdrawal/admin/all'))).toBe(true));
  });

  it("says 'Failed to fetch withdrawals' when the list cannot be read", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 500 })),
    );
    renderTab();
    expect((await screen.findAllByText(TEXT.fetchWithdrawalsFailed)).length).toBeGreaterThan(0);
  });
});
