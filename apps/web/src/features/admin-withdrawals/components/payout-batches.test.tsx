import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PayoutBatch } from '@harvest/shared/schemas/withdrawals';
import { stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { PayoutBatches } from './payout-batches.tsx';

const open: PayoutBatch = {
  _id: 'b1',
  status: 'open',
  grouped: true,
  token: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
  createdAt: '2026-11-25T10:00:00.000Z',
  closedAt: null,
  withdrawals: 4,
  pending: 3,
  transfers: 2,
  total: 40,
  paid: 10,
  frozen: 1,
  refused: 2,
  downloadedAt: null,
  graceUntil: null,
};
const grace = 'Payout batch cancelled: its withdrawals stay in payment for the grace period.';

/** The batches as given; a cancel answers the batch cancelled. */
function showBatches(batches: PayoutBatch[]) {
  const api = stubApi(({ method, path }) => {
    if (path === '/withdrawal/admin/batches') return { batches };
    if (method === 'POST' && path === '/withdrawal/admin/batches/b1/cancel')
      return { message: grace, batch: { ...open, status: 'cancelled' } };
  });
  renderApp(<PayoutBatches />, { staff: 'owner' });
  return api;
}
const confirmButton = (dialog: HTMLElement) =>
  within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Cancel batch' });

describe('payout batches', () => {
  it('shows what a batch paid and the withdrawals its file leaves out', async () => {
    showBatches([open]);
    expect(await screen.findByText(/10\.00 USDC paid/)).toBeTruthy();
    expect(screen.getByText('1 withdrawal of a frozen account left out of the file')).toBeTruthy();
    expect(screen.getByText('2 withdrawals to wallets the token refuses left out of the file')).toBeTruthy();
  });

  it('a batch whose file was downloaded is cancelled only with the confirmation that it was not executed', async () => {
    const user = userEvent.setup();
    const api = showBatches([{ ...open, downloadedAt: '2026-11-25T10:01:00.000Z' }]);
    await user.click(await screen.findByRole('button', { name: 'Cancel batch' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this payout batch?' });
    expect(dialog.textContent).toMatch(/stay in payment for the grace period/);
    expect(confirmButton(dialog).disabled).toBe(true);
    await user.click(within(dialog).getByRole('checkbox', { name: /was not and will not be executed/ }));
    await user.click(confirmButton(dialog));
    await waitFor(() => expect(api.to('POST /withdrawal/admin/batches/b1/cancel')).toHaveLength(1));
    expect(api.to('POST /withdrawal/admin/batches/b1/cancel')[0]?.body).toEqual({ confirmNotExecuted: true });
  });

  it('a batch never downloaded is cancelled as before: no confirmation asked, no body sent', async () => {
    const user = userEvent.setup();
    const api = showBatches([open]);
    await user.click(await screen.findByRole('button', { name: 'Cancel batch' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this payout batch?' });
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    await user.click(confirmButton(dialog));
    await waitFor(() => expect(api.to('POST /withdrawal/admin/batches/b1/cancel')).toHaveLength(1));
    expect(api.to('POST /withdrawal/admin/batches/b1/cancel')[0]?.body).toBeUndefined();
  });

  it('a cancelled batch in its grace period says until when its withdrawals stay in payment', async () => {
    showBatches([{ ...open, status: 'cancelled', closedAt: open.createdAt, graceUntil: '2099-01-01T10:00:00.000Z' }]);
    expect(await screen.findByText(/^Cancelled: its withdrawals stay in payment until Jan 1, 2099/)).toBeTruthy();
  });
});
