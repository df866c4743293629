import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FoundPayout } from '@harvest/shared/schemas/withdrawals';
import { stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { FoundPayouts } from './found-payouts.tsx';
import { ExportBatchDialog } from './payout-batches.tsx';

const wallet = '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc';
const payout: FoundPayout = {
  _id: 'p1',
  txHash: `0x${'ab'.repeat(32)}`,
  logIndex: 0,
  walletAddress: wallet,
  amount: 5,
  blockNumber: 1234,
  status: 'ambiguous',
  detail: '2 sets of pending withdrawals to this wallet add up to this amount: choose the one it paid',
  candidates: [['w1'], ['w2']],
  pendingToWallet: [
    {
      _id: 'w1',
      requestId: 'r1',
      netAmount: 5,
      source: 'balance',
      cycleNumber: null,
      requestedAt: '2026-11-25T10:00:00.000Z',
    },
    {
      _id: 'w2',
      requestId: 'r2',
      netAmount: 5,
      source: 'balance',
      cycleNumber: null,
      requestedAt: '2026-11-26T10:00:00.000Z',
    },
  ],
};

describe('payouts found on chain and payout batches', () => {
  it('an ambiguous payout: nothing is sent until the administrator picks which withdrawals it paid', async () => {
    const user = userEvent.setup();
    const api = stubApi(({ method, path }) => {
      if (path === '/withdrawal/admin/payouts') return { payouts: [payout] };
      if (method === 'POST' && path === '/withdrawal/admin/payouts/p1/assign')
        return { message: 'Withdrawals approved with this payout' };
    });
    renderApp(<FoundPayouts />, { staff: 'owner' });
    expect(await screen.findByText(/2 sets of pending withdrawals/)).toBeTruthy();
    const approve = screen.getByRole('button', { name: 'Approve with this payout' });
    expect(approve).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('radio', { name: /Nov 26, 2026/ }));
    await user.click(approve);
    await waitFor(() => expect(api.to('POST /withdrawal/admin/payouts/p1/assign')).toHaveLength(1));
    expect(api.to('POST /withdrawal/admin/payouts/p1/assign')[0]?.body).toEqual({ withdrawalIds: ['w2'] });
  });

  it("a held payout (a frozen account's) is badged with its reason, and can still be assigned", async () => {
    const detail =
      "Held: the account's withdrawals are frozen, and this transfer left the payout wallet anyway. Investigate before assigning it.";
    stubApi(({ path }) =>
      path === '/withdrawal/admin/payouts'
        ? { payouts: [{ ...payout, status: 'held', detail, candidates: [['w1']] }] }
        : undefined,
    );
    renderApp(<FoundPayouts />, { staff: 'owner' });
    expect(await screen.findByText('Held: account frozen')).toBeTruthy();
    expect(screen.getByText(detail)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Approve with this payout' })).toBeTruthy();
  });

  it('nothing to decide: the card is not shown', async () => {
    stubApi(({ path }) => (path === '/withdrawal/admin/payouts' ? { payouts: [] } : undefined));
    const { container } = renderApp(<FoundPayouts />, { staff: 'owner' });
    await waitFor(() => expect(container.textContent).toBe(''));
  });

  it('exporting a batch sends the ticked withdrawals and the transfer choice, and says a refusal in the dialog', async () => {
    const user = userEvent.setup();
    const api = stubApi(({ method, path }) => {
      if (method === 'POST' && path === '/withdrawal/admin/batches')
        return {
          __status: 409,
          error:
            'Some of these withdrawals are no longer pending or are already in a payout batch. Refresh and select again.',
          code: 'conflict',
        };
    });
    renderApp(<ExportBatchDialog open ids={['w1', 'w2']} onClose={() => undefined} onDone={() => undefined} />, {
      auth: false,
    });
    await user.click(screen.getByRole('radio', { name: 'One per withdrawal' }));
    await user.click(screen.getByRole('button', { name: 'Create batch and download' }));
    await waitFor(() => expect(api.to('POST /withdrawal/admin/batches')).toHaveLength(1));
    expect(api.to('POST /withdrawal/admin/batches')[0]?.body).toEqual({ withdrawalIds: ['w1', 'w2'], grouped: false });
    expect((await screen.findByRole('alert')).textContent).toMatch(/already in a payout batch/);
  });
});
