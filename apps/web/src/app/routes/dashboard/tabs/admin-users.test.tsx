import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AdminDeposit } from '@harvest/shared/schemas/deposits';
import type { AdminUser } from '@harvest/shared/schemas/admin';
import { fail, stubApi } from '../../../../test/api-stub.ts';
import { renderApp } from '../../../../test/render.tsx';
import AdminUsersTab from './admin-users.tsx';

const ada: AdminUser = {
  _id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: null,
  isAdmin: false,
  isBlocked: false,
  withdrawalsFrozen: false,
  withdrawalWallet: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  balance: 12.5,
  totalInvestment: 0,
  totalEarnings: 0,
  referralRewards: 0,
  totalDeposits: 12.5,
  totalAdjustments: 0,
};
const deposit = (id: string, amount: number, type: AdminDeposit['type']): AdminDeposit => ({
  _id: id,
  amount,
  status: 'confirmed',
  type,
  txHash: null,
  fromAddress: null,
  confirmations: 0,
  requiredConfirmations: 0,
  failureReason: null,
  failureSaid: null,
  failureKind: null,
  correctable: false,
  note: type === 'admin_credit' ? 'Admin balance update' : null,
  createdAt: '2026-01-02T00:00:00.000Z',
  processedAt: null,
  userId: { _id: 'u1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
});

describe('Admin users tab', () => {
  it('Update Balance asks first (current -> new, difference), sends one Idempotency-Key, and the open View Deposits list shows the admin credit', async () => {
    const user = userEvent.setup();
    let balance = 12.5;
    const deposits = [deposit('d1', 12.5, 'demo')];
    const api = stubApi(({ method, path, body }) => {
      if (path.startsWith('/admin/users?')) return { users: [{ ...ada, balance }], page: 1, pageSize: 20, total: 1 };
      if (path.startsWith('/admin/users/u1/deposits'))
        return { deposits, page: 1, pageSize: 20, total: deposits.length };
      if (method === 'POST' && path === '/admin/update-user-balance') {
        const next = Number((body as { newBalance: string }).newBalance);
        deposits.unshift(deposit('d2', next - balance, 'admin_credit'));
        balance = next;
        return { message: 'Balance updated successfully' };
      }
    });
    renderApp(<AdminUsersTab />, { staff: 'finance' });
    const card = (await screen.findByText('ada@example.com')).closest('section');
    if (!card) throw new Error('user card missing');
    await user.click(within(card).getByRole('button', { name: 'View Deposits' }));
    expect(await within(card).findByText('Demo', { exact: false })).toBeTruthy();

    await user.click(within(card).getByRole('button', { name: 'Update Balance' }));
    // An empty amount is marked at the field with the spec's text; nothing is sent.
    await user.click(within(card).getByRole('button', { name: 'Update Balance' }));
    expect(await within(card).findByText('Please enter a valid amount (0 or greater)')).toBeTruthy();
    expect(api.to('POST /admin/update-user-balance')).toHaveLength(0);

    await user.type(within(card).getByLabelText('New Balance (USDC)'), '20');
    await user.click(within(card).getByRole('button', { name: 'Update Balance' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Update balance?' });
    expect(within(dialog).getByText('12.5000 USDC')).toBeTruthy();
    expect(within(dialog).getByText('20.0000 USDC')).toBeTruthy();
    expect(within(dialog).getByText(/\+\s*7\.5000 USDC/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Update Balance' }));

    // The bug: the deposits list kept its old answer because the invalidated key matched nothing.
    expect(await within(card).findByText('Admin credit', { exact: false })).toBeTruthy();
    await waitFor(() => expect(within(card).getByText('20.0000 USDC')).toBeTruthy());
    const sent = api.to('POST /admin/update-user-balance');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{32,36}$/);
    // The balance the confirmation showed goes along: the server sets it only if it is still that.
    expect(sent[0]?.body).toEqual({ userId: 'u1', newBalance: '20', expectedBalance: 12.5 });
  });

  it('a balance that changed meanwhile: the 409 text is shown and alerted, the list shows the new balance, and a new confirmation sends it', async () => {
    const user = userEvent.setup();
    let balance = 12.5;
    const alerts: string[] = [];
    const alert = vi.spyOn(window, 'alert').mockImplementation((text?: string) => void alerts.push(String(text)));
    const changed = 'The balance changed to 0.00\u00a0USDC. Review and try again.';
    const api = stubApi(({ method, path, body }) => {
      if (path.startsWith('/admin/users?')) return { users: [{ ...ada, balance }], page: 1, pageSize: 20, total: 1 };
      if (method === 'POST' && path === '/admin/update-user-balance') {
        const sent = body as { expectedBalance: number; newBalance: string };
        if (sent.expectedBalance !== balance) return fail(409, changed, 'balance_changed');
        balance = Number(sent.newBalance);
        return { message: 'Balance updated successfully' };
      }
    });
    renderApp(<AdminUsersTab />, { staff: 'finance' });
    const card = (await screen.findByText('ada@example.com')).closest('section');
    if (!card) throw new Error('user card missing');
    await user.click(within(card).getByRole('button', { name: 'Update Balance' }));
    await user.type(within(card).getByLabelText('New Balance (USDC)'), '5');
    await user.click(within(card).getByRole('button', { name: 'Update Balance' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Update balance?' });
    balance = 0; // the investor's Withdraw All, between reading and confirming
    await user.click(within(dialog).getByRole('button', { name: 'Update Balance' }));
    expect(
      await within(dialog).findByText(/^The balance changed to 0\.00.USDC\. Review and try again\.$/),
    ).toBeTruthy();
    expect(alerts).toEqual([changed]);
    // The users list is read again: the confirmation now shows the balance as it is.
    await waitFor(() => expect(within(dialog).getByText('0.0000 USDC')).toBeTruthy());
    await user.click(within(dialog).getByRole('button', { name: 'Update Balance' }));
    await waitFor(() => expect(balance).toBe(5));
    const sent = api.to('POST /admin/update-user-balance').map((c) => c.body);
    expect(sent).toEqual([
      { userId: 'u1', newBalance: '5', expectedBalance: 12.5 },
      { userId: 'u1', newBalance: '5', expectedBalance: 0 },
    ]);
    alert.mockRestore();
  });

  it('a failed users read says so with Retry, and Retry reads again', async () => {
    const user = userEvent.setup();
    let down = true;
    stubApi(({ path }) => {
      if (path.startsWith('/admin/users?')) return down ? 'network' : { users: [ada], page: 1, pageSize: 20, total: 1 };
    });
    renderApp(<AdminUsersTab />, { staff: 'finance' });
    const alert = await screen.findByRole('alert');
    expect(screen.queryByText('Ada Lovelace')).toBeNull();
    down = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Ada Lovelace')).toBeTruthy();
  });
});
