import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import type { AdminWithdrawal } from '@harvest/shared/schemas/withdrawals';
import { fail, stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { AdminWithdrawals } from './admin-withdrawals.tsx';

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
  batchId: null,
  inPaymentUntil: null,
  frozen: false,
  addressProven: false,
  payeeRefused: false,
};
const list = {
  withdrawals: [pending],
  pagination: { page: 1, pageSize: 25, total: 1 },
  counts: { pending: 1, total: 7 },
};

/** The admin API with this one pending withdrawal; decisions answer what `decide` says. */
function showOne(w: AdminWithdrawal, decide: (path: string) => unknown = () => undefined) {
  const api = stubApi(({ path }) =>
    path.startsWith('/withdrawal/admin/pending') || path.startsWith('/withdrawal/admin/all')
      ? { ...list, withdrawals: [w] }
      : decide(path),
  );
  renderApp(<AdminWithdrawals />, { staff: 'owner' });
  return api;
}
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

describe('AdminWithdrawals', () => {
  it('shows Pending and History with counts and processes a withdrawal: hash required, server text or fallbacks, Reject asks first', async () => {
    const user = userEvent.setup();
    const approveAnswers = [
      new Response('', { status: 500 }),
      fail(400, 'Payout amount is less than the net amount to pay', 'chain_mismatch'),
    ];
    const api = stubApi(({ path }) => {
      if (path.startsWith('/withdrawal/admin/pending') || path.startsWith('/withdrawal/admin/all')) return list;
      if (path.startsWith('/withdrawal/admin/approve')) return approveAnswers.shift();
      if (path.startsWith('/withdrawal/admin/reject')) return new Response('', { status: 500 });
    });
    renderApp(<AdminWithdrawals />, { staff: 'owner' });
    expect(await screen.findByRole('tab', { name: 'Pending (1)' })).toBeTruthy();
    // History counts what was decided (7 in all, 1 still pending).
    expect(screen.getByRole('tab', { name: 'History (6)' })).toBeTruthy();
    expect(screen.getByText('Process Withdrawal')).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const hashField = screen.getByLabelText('Transaction Hash');
    await waitFor(() => expect(hashField.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText(TEXT.txHashRequired).length).toBeGreaterThan(0);
    expect(api.to('POST /withdrawal/admin/approve')).toHaveLength(0);

    await user.type(hashField, HASH);
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect((await screen.findAllByText(TEXT.approveWithdrawalFailed)).length).toBeGreaterThan(0);
    const first = api.to('POST /withdrawal/admin/approve')[0];
    expect(first?.body).toEqual({ withdrawalId: 'w1', txHash: HASH, notes: null });
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect((await screen.findAllByText('Payout amount is less than the net amount to pay')).length).toBeGreaterThan(0);
    // Two different answers: the first (a 500) ended that action, so the retry carried a new key.
    const keys = api.to('POST /withdrawal/admin/approve').map((c) => c.headers['idempotency-key']);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).not.toBe(keys[0]);

    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reject this withdrawal?' });
    expect(api.to('POST /withdrawal/admin/reject')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    // The refusal shows inside the dialog, where the administrator is looking.
    expect(await within(dialog).findByText(TEXT.rejectWithdrawalFailed)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('tab', { name: 'History (6)' }));
    await waitFor(() => expect(api.to('GET /withdrawal/admin/all').length).toBeGreaterThan(0));
  });

  it('a frozen account: badged, kept out of batches, Approve disabled with the reason; Reject still returns the money', async () => {
    const user = userEvent.setup();
    const api = showOne({ ...pending, frozen: true }, (path) =>
      path.startsWith('/withdrawal/admin/reject') ? { message: 'Withdrawal rejected' } : undefined,
    );
    const row = await screen.findByRole('button', { name: /Ada Lovelace/ });
    expect(within(row).getByText('Frozen')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: /Add to a payout batch/ }).disabled).toBe(true);
    await user.click(row);
    expect(screen.getByRole('status').textContent).toMatch(/withdrawals are frozen: it cannot be paid/);
    expect(button('Approve').disabled).toBe(true);
    expect(button('Reject').disabled).toBe(false);
    await user.click(button('Reject'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reject this withdrawal?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.to('POST /withdrawal/admin/reject')).toHaveLength(1));
    expect(api.to('POST /withdrawal/admin/approve')).toHaveLength(0);
  });

  it('in payment: a batch decides it, so neither Approve nor Reject can be pressed; a cancelled batch says until when', async () => {
    const user = userEvent.setup();
    showOne({ ...pending, batchId: 'b1', inPaymentUntil: '2026-11-29T10:00:00.000Z' });
    const row = await screen.findByRole('button', { name: /Ada Lovelace/ });
    expect(within(row).getByText(/^In payment until Nov 29, 2026/)).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: /Add to a payout batch/ }).disabled).toBe(true);
    await user.click(row);
    expect(screen.getByRole('status').textContent).toMatch(/stays in payment until Nov 29, 2026/);
    expect(button('Approve').disabled).toBe(true);
    expect(button('Reject').disabled).toBe(true);
  });

  it('a wallet the token refuses: Approve disabled, and one press rejects it with the reason in the notes', async () => {
    const user = userEvent.setup();
    const api = showOne({ ...pending, payeeRefused: true }, (path) =>
      path.startsWith('/withdrawal/admin/reject') ? { message: 'Withdrawal rejected' } : undefined,
    );
    const row = await screen.findByRole('button', { name: /Ada Lovelace/ });
    expect(within(row).getByText('Token refuses wallet')).toBeTruthy();
    await user.click(row);
    expect(button('Approve').disabled).toBe(true);
    await user.click(button('Reject: token refuses this wallet'));
    expect(screen.getByLabelText<HTMLTextAreaElement>('Notes (optional)').value).toMatch(/^USDC refuses transfers/);
    const dialog = await screen.findByRole('alertdialog', { name: 'Reject this withdrawal?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.to('POST /withdrawal/admin/reject')).toHaveLength(1));
    expect(api.to('POST /withdrawal/admin/reject')[0]?.body).toEqual({
      withdrawalId: 'w1',
      notes:
        'USDC refuses transfers to this wallet address (its issuer blocked it): withdraw again to another address.',
    });
  });

  it('an address proven by its wallet says so in words, in the row and in Process Withdrawal', async () => {
    const user = userEvent.setup();
    showOne({ ...pending, addressProven: true });
    const row = await screen.findByRole('button', { name: /Ada Lovelace/ });
    expect(within(row).getByText('Proven by its wallet')).toBeTruthy();
    await user.click(row);
    const panel = screen.getByRole('heading', { name: 'Process Withdrawal' }).closest('section');
    if (!panel) throw new Error('no Process Withdrawal panel');
    expect(within(panel).getByText('Proven by its wallet')).toBeTruthy();
  });

  it('an unproven address carries no proven badge', async () => {
    showOne(pending);
    await screen.findByRole('button', { name: /Ada Lovelace/ });
    expect(screen.queryByText('Proven by its wallet')).toBeNull();
  });

  it("says 'Failed to fetch withdrawals' when the list cannot be read", async () => {
    stubApi(() => new Response('', { status: 500 }));
    renderApp(<AdminWithdrawals />, { staff: 'owner' });
    expect((await screen.findAllByText(TEXT.fetchWithdrawalsFailed)).length).toBeGreaterThan(0);
  });
});
