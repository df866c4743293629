import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import type { Deposit } from '@harvest/shared/schemas/deposits';
import { stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { DepositForm } from './deposit-form.tsx';
import { FailedDeposits } from './failed-deposits.tsx';

const HASH = `0x${'ab'.repeat(32)}`;
const FROM = '0x1111111111111111111111111111111111111111';
const failed: Deposit = {
  _id: 'd1',
  amount: 20,
  status: 'failed',
  type: 'real',
  txHash: HASH,
  fromAddress: FROM,
  createdAt: '2026-11-23T10:00:00.000Z',
  processedAt: '2026-11-23T10:00:00.000Z',
  confirmations: 0,
  requiredConfirmations: 2,
  failureReason: 'Amount differs',
  failureSaid: null,
  failureKind: 'wrong_amount',
  correctable: true,
  userId: 'u1',
};

describe('deposit claim and correction forms (react-hook-form, shared schemas)', () => {
  it("the claim form marks each empty field with the spec's text, then the minimum and a malformed amount, and sends nothing until valid", async () => {
    const user = userEvent.setup();
    const api = stubApi(({ method, path }) => {
      if (method === 'POST' && path === '/user/process-deposit')
        return { message: 'Deposit submitted. It will be credited once it is confirmed.', deposit: failed };
    });
    renderApp(<DepositForm />, { auth: false });
    const form = screen.getByRole('form', { name: 'Submit deposit' });
    await user.click(within(form).getByRole('button', { name: 'Submit Deposit' }));
    expect(await within(form).findAllByText(TEXT.depositRequired)).toHaveLength(3);
    expect(within(form).getByLabelText('Transaction Hash').getAttribute('aria-invalid')).toBe('true');
    await user.type(within(form).getByLabelText('Transaction Hash'), HASH);
    await user.type(within(form).getByLabelText('Amount (USDC)'), '0.4');
    await user.type(within(form).getByLabelText('From Address'), FROM);
    await user.click(within(form).getByRole('button', { name: 'Submit Deposit' }));
    expect(await within(form).findByText(TEXT.minDeposit)).toBeTruthy();
    // A decimal comma reaches the schema as typed (a number field would hand it "" and say "required").
    await user.clear(within(form).getByLabelText('Amount (USDC)'));
    await user.type(within(form).getByLabelText('Amount (USDC)'), '1,5');
    expect(await within(form).findByText(TEXT.invalidDepositAmount)).toBeTruthy();
    expect(api.to('POST /user/process-deposit')).toHaveLength(0);
    await user.clear(within(form).getByLabelText('Amount (USDC)'));
    await user.type(within(form).getByLabelText('Amount (USDC)'), '25');
    await user.click(within(form).getByRole('button', { name: 'Submit Deposit' }));
    await waitFor(() => expect(api.to('POST /user/process-deposit')).toHaveLength(1));
    expect(api.to('POST /user/process-deposit')[0]?.body).toEqual({ txHash: HASH, amount: '25', fromAddress: FROM });
    await waitFor(() => expect(within(form).getByLabelText('Transaction Hash')).toHaveProperty('value', ''));
  });

  it('the claim form refuses a mixed-case sender whose EIP-55 checksum does not match, under the field', async () => {
    const user = userEvent.setup();
    const api = stubApi(() => undefined);
    renderApp(<DepositForm />, { auth: false });
    const form = screen.getByRole('form', { name: 'Submit deposit' });
    await user.type(within(form).getByLabelText('Transaction Hash'), HASH);
    await user.type(within(form).getByLabelText('Amount (USDC)'), '25');
    // One letter's case flipped from the checksummed 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed.
    await user.type(within(form).getByLabelText('From Address'), '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD');
    await user.click(within(form).getByRole('button', { name: 'Submit Deposit' }));
    expect(await within(form).findByText(TEXT.walletChecksum)).toBeTruthy();
    expect(within(form).getByLabelText('From Address').getAttribute('aria-invalid')).toBe('true');
    expect(api.to('POST /user/process-deposit')).toHaveLength(0);
  });

  it('the correction form needs hash and amount, says so under the field, and resubmits with the deposit id', async () => {
    const user = userEvent.setup();
    const api = stubApi(({ method, path }) => {
      if (path === '/withdrawal/failed-deposits') return { deposits: [failed] };
      if (method === 'POST' && path === '/withdrawal/update-failed-deposit')
        return {
          message: 'Deposit updated and submitted for verification again',
          deposit: { ...failed, status: 'pending' },
        };
    });
    renderApp(<FailedDeposits />, { auth: false });
    const form = await screen.findByRole('form', { name: 'Correct failed deposit' });
    const amount = within(form).getByLabelText('Amount (USDC)');
    await user.clear(amount);
    await user.click(within(form).getByRole('button', { name: 'Update & Retry' }));
    expect(await within(form).findByText(TEXT.failedDepositRequired)).toBeTruthy();
    expect(api.to('POST /withdrawal/update-failed-deposit')).toHaveLength(0);
    await user.type(amount, '25');
    await waitFor(() => expect(within(form).queryByText(TEXT.failedDepositRequired)).toBeNull());
    await user.click(within(form).getByRole('button', { name: 'Update & Retry' }));
    await waitFor(() => expect(api.to('POST /withdrawal/update-failed-deposit')).toHaveLength(1));
    const [sent] = api.to('POST /withdrawal/update-failed-deposit');
    expect(sent?.body).toEqual({ depositId: 'd1', txHash: HASH, amount: '25' });
    expect(sent?.headers['idempotency-key']).toBeTruthy();
  });

  it('a transfer the chain watcher read (below the minimum) is shown with why, with no correction form', async () => {
    stubApi(({ path }) => {
      if (path === '/withdrawal/failed-deposits')
        return {
          deposits: [
            {
              ...failed,
              amount: 0.1,
              failureReason: 'Below the minimum deposit',
              failureSaid: null,
              failureKind: null,
              correctable: false,
            },
          ],
        };
    });
    renderApp(<FailedDeposits />, { auth: false });
    expect(await screen.findByText('Below the minimum deposit')).toBeTruthy();
    expect(screen.getByText(/read from the blockchain, so it cannot be corrected/)).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Correct failed deposit' })).toBeNull();
    expect(screen.getByRole('button', { name: /Dismiss failed deposit of 0.10/ })).toBeTruthy();
  });
});
