import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '@harvest/shared/schemas/admin';
import { stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { UsersPanel } from './users-panel.tsx';

const base = {
  phone: null,
  withdrawalWallet: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  balance: 12.5,
  totalInvestment: 100,
  totalEarnings: 1.5,
  referralRewards: 3,
  totalDeposits: 112.5,
  totalAdjustments: 0,
};
const admin: AdminUser = {
  ...base,
  _id: 'a1',
  firstName: 'Root',
  lastName: 'Admin',
  email: 'root@example.com',
  isAdmin: true,
  isBlocked: false,
  withdrawalsFrozen: false,
};
const ada: AdminUser = {
  ...base,
  _id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  isAdmin: false,
  isBlocked: false,
  withdrawalsFrozen: false,
};
const userDto = (u: AdminUser) => ({
  ...u,
  id: u._id,
  role: u.isAdmin ? ('owner' as const) : null,
  fourEyes: false,
  depositAddress: '0x1',
  invitationCode: null,
  twoFactorEnabled: false,
  locale: 'en' as const,
  withdrawalLock: { status: 'off', endsAt: null, required: false },
  cycleReminders: false,
});

function renderPanel(slots: Parameters<typeof UsersPanel>[0] = {}) {
  return renderApp(<UsersPanel {...slots} />, { staff: 'owner' });
}

describe('UsersPanel', () => {
  it('shows badges and the account summary; no Block for admins; blocking shows the server state', async () => {
    const user = userEvent.setup();
    let blocked = false;
    let failNext = false;
    const api = stubApi(({ path }) => {
      if (path.startsWith('/admin/users?'))
        return { users: [admin, { ...ada, isBlocked: blocked }], page: 1, pageSize: 20, total: 2 };
      if (path === '/user/admin/toggle-block/u1') {
        if (failNext) return [500, { error: 'boom', code: 'internal' }];
        blocked = !blocked;
        return { message: blocked ? 'User blocked' : 'User unblocked', user: userDto({ ...ada, isBlocked: blocked }) };
      }
      if (path.startsWith('/admin/users/u1/deposits')) {
        return {
          deposits: [
            {
              _id: 'd1',
              amount: 112.5,
              status: 'confirmed',
              type: 'demo',
              txHash: '0xabc',
              fromAddress: null,
              confirmations: 0,
              requiredConfirmations: 0,
              failureReason: null,
              failureSaid: null,
              failureKind: null,
              correctable: false,
              note: null,
              createdAt: '2026-01-02T00:00:00.000Z',
              processedAt: null,
              userId: { _id: 'u1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
            },
          ],
          page: 1,
          pageSize: 20,
          total: 1,
        };
      }
    });
    renderPanel();
    const adminCard = (await screen.findByText('root@example.com')).closest('section');
    const adaCard = screen.getByText('ada@example.com').closest('section');
    if (!adminCard || !adaCard) throw new Error('cards missing');
    expect(within(adminCard).getByText('ADMIN')).toBeTruthy();
    expect(within(adminCard).queryByRole('button', { name: /Block/ })).toBeNull();
    expect(within(adaCard).getByText('12.5000 USDC')).toBeTruthy();
    expect(within(adaCard).getByText('112.50 USDC')).toBeTruthy();
    expect(within(adaCard).queryByText('BLOCKED')).toBeNull();

    await user.click(within(adaCard).getByRole('button', { name: 'Block' }));
    // Blocking asks first.
    const dialog = await screen.findByRole('alertdialog', { name: 'Block Ada Lovelace?' });
    expect(api.to('POST /user/admin/toggle-block')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await within(adaCard).findByText('BLOCKED')).toBeTruthy();
    // Said once it is done, with the name.
    expect(await screen.findByText('User blocked: Ada Lovelace')).toBeTruthy();
    expect(within(adaCard).getByRole('button', { name: 'Unblock' })).toBeTruthy();

    // Unblocking asks too; a failed toggle is silent and the screen keeps the server's state (refetched).
    failNext = true;
    await user.click(within(adaCard).getByRole('button', { name: 'Unblock' }));
    const unblock = await screen.findByRole('alertdialog', { name: 'Unblock Ada Lovelace?' });
    expect(api.to('POST /user/admin/toggle-block')).toHaveLength(1);
    await user.click(within(unblock).getByRole('button', { name: 'Unblock' }));
    await waitFor(() => expect(api.to('GET /admin/users?').length).toBeGreaterThanOrEqual(3));
    expect(within(adaCard).getByText('BLOCKED')).toBeTruthy();
    expect(screen.queryByText(/User unblocked/)).toBeNull();

    // View Deposits loads on demand.
    expect(api.calls.some((c) => c.path.includes('/deposits'))).toBe(false);
    await user.click(within(adaCard).getByRole('button', { name: 'View Deposits' }));
    expect(await within(adaCard).findByText(/0xabc/)).toBeTruthy();
  });

  it('searches and hands the current search to the toolbar (CSV respects the filter)', async () => {
    const user = userEvent.setup();
    const api = stubApi(() => ({ users: [ada], page: 1, pageSize: 20, total: 1 }));
    renderPanel({
      toolbar: (search) => <span data-testid="toolbar">{`csv:${search}`}</span>,
      balanceForm: (u) => <p>form for {u._id}</p>,
    });
    await screen.findByText('ada@example.com');
    await user.type(screen.getByLabelText('Search users by name or e-mail'), 'love lace');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(api.calls.at(-1)?.path).toBe('/admin/users?page=1&pageSize=20&search=love+lace'));
    expect(screen.getByTestId('toolbar').textContent).toBe('csv:love lace');
    await user.click(screen.getByRole('button', { name: 'Update Balance' }));
    expect(screen.getByText('form for u1')).toBeTruthy();
  });
});
