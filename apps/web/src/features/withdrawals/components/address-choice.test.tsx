import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { DashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { User } from '@harvest/shared/schemas/user';
import type { WithdrawalAddress } from '@harvest/shared/schemas/security';
import { fail, stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { WithdrawalsSection } from './withdrawals-section.tsx';

/** With the address lock on, Withdraw All chooses from the book or adds to it; it asks for the authenticator. */
const OWN = '0x52908400098527886E0F7030069857D2E4169EE7';
const NEW = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const user: User = {
  _id: 'u1',
  id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: null,
  isAdmin: false,
  role: null,
  fourEyes: false,
  isBlocked: false,
  depositAddress: '0x1111111111111111111111111111111111111111',
  withdrawalWallet: '0x2222222222222222222222222222222222222222',
  invitationCode: null,
  twoFactorEnabled: true,
  locale: 'en',
  withdrawalLock: { status: 'on', endsAt: null, required: false },
  withdrawalsFrozen: false,
  cycleReminders: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const dashboard: DashboardResponse = {
  accountSummary: {
    balance: 1_234_567.5,
    totalInvestment: 0,
    referralRewards: 0,
    withdrawalWallet: null,
    totalEarnings: 0,
    availableToWithdraw: 1_234_567.5,
    pendingApproval: 0,
    successfullyWithdrawn: 0,
  },
  activeInvestments: [],
  serverTime: '2026-01-01T00:00:00.000Z',
};
const address = (a: Partial<WithdrawalAddress>): WithdrawalAddress => ({
  _id: 'a1',
  label: 'Ledger',
  address: OWN,
  status: 'active',
  proven: false,
  usableAt: '2026-01-02T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...a,
});

describe('Withdraw All with the address lock on', () => {
  it('offers the active addresses of the book, not a typed one; adds one; sends the chosen one with the code', async () => {
    localStorage.setItem('token', 'tok');
    const u = userEvent.setup();
    let book = [address({}), address({ _id: 'a2', label: 'Cold', address: NEW, status: 'cooling_down' })];
    const api = stubApi(({ method, path, body }) => {
      if (path === '/user/me') return { user, platform: { timeZone: 'UTC', demoDeposits: true } };
      if (path.startsWith('/user/dashboard')) return dashboard;
      if (path.startsWith('/withdrawal/my-withdrawals')) return { withdrawals: [] };
      if (path.startsWith('/user/withdrawal-addresses?'))
        return { addresses: book, pagination: { page: 1, pageSize: 50, total: book.length } };
      if (method === 'POST' && path === '/user/withdrawal-addresses') {
        const b = body as { password: string };
        if (b.password !== 'login-1') return fail(401, 'Current password is incorrect', 'wrong_password');
        const added = address({ _id: 'a3', label: 'New one', address: NEW, status: 'unconfirmed' });
        book = [added, ...book.filter((x) => x._id !== 'a2')];
        return [201, { message: 'Address added.', address: added }];
      }
      if (path.startsWith('/withdrawal/request-all')) return { message: 'Withdrawal request submitted' };
    });
    renderApp(<WithdrawalsSection />);
    const open = await screen.findByRole('button', { name: 'Withdraw All' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await u.click(open);
    const dialog = screen.getByRole('dialog', { name: 'Withdraw All' });
    expect(within(dialog).queryByLabelText('Wallet Address (Polygon USDC)')).toBeNull();
    const ledger = await within(dialog).findByRole('radio', { name: /Ledger/ });
    expect((within(dialog).getByRole('radio', { name: /Cold/ }) as HTMLInputElement).disabled).toBe(true);

    await u.click(within(dialog).getByRole('button', { name: 'Add a new address' }));
    await u.type(within(dialog).getByLabelText('Label'), 'New one');
    await u.type(within(dialog).getByLabelText('Wallet address (Polygon USDC)'), NEW);
    await u.type(within(dialog).getByLabelText('Login password'), 'wrong');
    await u.click(within(dialog).getByRole('button', { name: 'Add address' }));
    expect(await within(dialog).findByText('Current password is incorrect')).toBeTruthy();
    await u.clear(within(dialog).getByLabelText('Login password'));
    await u.type(within(dialog).getByLabelText('Login password'), 'login-1');
    await u.click(within(dialog).getByRole('button', { name: 'Add address' }));
    const added = await within(dialog).findByRole('radio', { name: /New one/ });
    expect((added as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).getByText('Confirm it from the e-mail we sent you')).toBeTruthy();

    await u.click(ledger);
    await u.type(within(dialog).getByLabelText('Withdrawal Password'), 'withdraw-1');
    await u.click(within(dialog).getByRole('button', { name: 'Review Withdrawal' }));
    expect(await within(dialog).findByText('Enter the 6-digit code from your authenticator app')).toBeTruthy();
    await u.type(within(dialog).getByLabelText('Authentication or recovery code'), '123456');
    await u.click(within(dialog).getByRole('button', { name: 'Review Withdrawal' }));
    await u.click(await screen.findByRole('button', { name: 'Confirm Withdrawal' }));
    await waitFor(() => expect(api.to('POST /withdrawal/request-all')).toHaveLength(1));
    expect(api.to('POST /withdrawal/request-all')[0]?.body).toEqual({
      walletAddress: OWN,
      withdrawalPassword: 'withdraw-1',
      totpCode: '123456',
    });
  });
});

describe('Withdraw All with the lock on and the only address still cooling down', () => {
  it('says when that address becomes usable, not "enter your wallet address"; nothing is sent', async () => {
    localStorage.setItem('token', 'tok');
    const u = userEvent.setup();
    const book = [address({ label: 'Cold', status: 'cooling_down', usableAt: '2026-01-02T09:30:00.000Z' })];
    const api = stubApi(({ path }) => {
      if (path === '/user/me') return { user, platform: { timeZone: 'UTC', demoDeposits: true } };
      if (path.startsWith('/user/dashboard')) return dashboard;
      if (path.startsWith('/withdrawal/my-withdrawals')) return { withdrawals: [] };
      if (path.startsWith('/user/withdrawal-addresses?'))
        return { addresses: book, pagination: { page: 1, pageSize: 50, total: 1 } };
    });
    renderApp(<WithdrawalsSection />);
    const open = await screen.findByRole('button', { name: 'Withdraw All' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await u.click(open);
    const dialog = screen.getByRole('dialog', { name: 'Withdraw All' });
    const note = 'No address of your book is usable yet: Cold becomes usable on Jan 2, 2026, 9:30 AM UTC.';
    expect(await within(dialog).findByText(note)).toBeTruthy();
    await u.type(within(dialog).getByLabelText('Withdrawal Password'), 'withdraw-1');
    await u.type(within(dialog).getByLabelText('Authentication or recovery code'), '123456');
    await u.click(within(dialog).getByRole('button', { name: 'Review Withdrawal' }));
    // The toast says the same; the field's "Please enter your wallet address" is not said anywhere.
    await waitFor(() => expect(screen.getAllByText(note)).toHaveLength(2));
    expect(screen.queryByText('Please enter your wallet address')).toBeNull();
    expect(api.to('POST /withdrawal')).toHaveLength(0);
  });
});

describe('Withdraw All on a frozen account', () => {
  it('shows what is held and why, with no field to fill in and nothing to send', async () => {
    localStorage.setItem('token', 'tok');
    const u = userEvent.setup();
    const api = stubApi(({ path }) => {
      if (path === '/user/me')
        return { user: { ...user, withdrawalsFrozen: true }, platform: { timeZone: 'UTC', demoDeposits: true } };
      if (path.startsWith('/user/dashboard')) return dashboard;
      if (path.startsWith('/withdrawal/my-withdrawals')) return { withdrawals: [] };
    });
    renderApp(<WithdrawalsSection />);
    const open = await screen.findByRole('button', { name: 'Withdraw All' });
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    await u.click(open);
    const dialog = screen.getByRole('dialog', { name: 'Withdraw All' });
    await within(dialog).findByText(
      'Withdrawals are frozen on this account. Contact support to have the freeze lifted.',
    );
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(within(dialog).queryByLabelText('Withdrawal Password')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Review Withdrawal' })).toBeNull();
    await u.click(within(dialog).getByText('Close', { selector: 'button' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.to('POST /withdrawal')).toHaveLength(0);
  });
});
