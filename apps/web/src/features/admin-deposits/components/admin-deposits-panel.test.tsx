import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import type { AdminDeposit } from '@harvest/shared/schemas/deposits';
import { stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { AdminDepositsPanel } from './admin-deposits-panel.tsx';

const pending: AdminDeposit = {
  _id: 'd1',
  amount: 12.5,
  status: 'pending',
  type: 'demo',
  txHash: `0x${'ab'.repeat(32)}`,
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
};

describe('Reject deposit (the reason dialog)', () => {
  it('asks for the reason the investor reads, refuses an empty one at the field, and sends it', async () => {
    const user = userEvent.setup();
    const api = stubApi(({ method, path, body }) => {
      if (method === 'GET' && path.startsWith('/admin/deposits?'))
        return {
          deposits: [pending],
          page: 1,
          pageSize: 50,
          total: 1,
          counts: { all: 1, pending: 1, confirmed: 0, failed: 0 },
        };
      if (method === 'POST' && path === '/admin/reject-deposit')
        return {
          message: 'Deposit rejected',
          deposit: {
            ...pending,
            userId: 'u1',
            status: 'failed',
            failureKind: 'rejected',
            failureReason: (body as { reason: string }).reason,
            failureSaid: null,
          },
        };
      return undefined;
    });
    renderApp(<AdminDepositsPanel />, { staff: 'owner' });
    await user.click(await screen.findByRole('button', { name: /^Reject deposit of 12\.50.USDC by Ada Lovelace/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject deposit' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject deposit' }));
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText(TEXT.rejectReasonRequired)).toBeTruthy();
    expect(api.to('POST /admin/reject-deposit')).toHaveLength(0);
    await user.type(reason, 'Sent from an exchange we cannot credit');
    await user.click(within(dialog).getByRole('button', { name: 'Reject deposit' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reject deposit' })).toBeNull());
    expect(api.to('POST /admin/reject-deposit').map((c) => c.body)).toEqual([
      { depositId: 'd1', reason: 'Sent from an exchange we cannot credit' },
    ]);
  });
});
