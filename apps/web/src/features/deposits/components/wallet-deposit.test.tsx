import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import { WALLET_TEXT } from '@harvest/shared/wallet-texts';
import type { DepositSettings } from '@harvest/shared/schemas/deposit-settings';
import type { Deposit } from '@harvest/shared/schemas/deposits';
import { stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { WalletDeposit } from './wallet-deposit.tsx';

const USDC = '0x3333333333333333333333333333333333333333';
const MINE = '0x4444444444444444444444444444444444444444';
const FROM = '0x5555555555555555555555555555555555555555';
const HASH = `0x${'cd'.repeat(32)}`;
const settings: DepositSettings = { ownAddress: true, chainId: 137, usdcContract: USDC, requiredConfirmations: 3 };

/**
 * A scripted EIP-1193 wallet (the browser journey e2e/tests/wallet-deposits.spec.ts uses one backed by
 * anvil): on `chainId`, holding `usdc` micro-USDC; `reject` makes it refuse that method as a user would.
 */
function wallet(opts: { chainId?: number; usdc?: bigint; reject?: string; canSwitch?: boolean; gas?: boolean } = {}) {
  let chainId = opts.chainId ?? 137;
  const calls: { method: string; params?: unknown }[] = [];
  const provider = {
    request: vi.fn(async ({ method, params }: { method: string; params?: unknown }) => {
      calls.push({ method, params });
      if (method === opts.reject) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [FROM];
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`;
        case 'wallet_switchEthereumChain':
          if (opts.canSwitch === false) throw Object.assign(new Error('Unrecognized chain ID "0x89".'), { code: 4902 });
          chainId = Number((params as [{ chainId: string }])[0].chainId);
          return null;
        case 'eth_call':
          return `0x${(opts.usdc ?? 10_000_000n).toString(16).padStart(64, '0')}`;
        case 'eth_sendTransaction':
          if (opts.gas === false)
            throw Object.assign(new Error('Insufficient funds for gas * price + value'), { code: -32003 });
          return HASH;
        case 'eth_getTransactionReceipt':
          return receipt;
        case 'eth_blockNumber':
          return '0x10';
        default:
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
      }
    }),
  };
  vi.stubGlobal('ethereum', provider);
  return { provider, calls };
}

const receipt = {
  transactionHash: HASH,
  transactionIndex: '0x0',
  blockHash: `0x${'ef'.repeat(32)}`,
  blockNumber: '0x10',
  from: FROM,
  to: USDC,
  cumulativeGasUsed: '0x1',
  gasUsed: '0x1',
  effectiveGasPrice: '0x1',
  contractAddress: null,
  logs: [],
  logsBloom: `0x${'00'.repeat(256)}`,
  status: '0x1',
  type: '0x2',
};

const pending = (amount: number): Deposit => ({
  _id: 'd1',
  amount,
  status: 'pending',
  type: 'real',
  txHash: HASH,
  fromAddress: FROM.toLowerCase(),
  createdAt: '2026-11-23T10:00:00.000Z',
  processedAt: null,
  confirmations: 1,
  requiredConfirmations: 3,
  failureReason: null,
  failureSaid: null,
  failureKind: null,
  correctable: false,
  userId: 'u1',
});

function api() {
  return stubApi(({ method, path }) => {
    if (path === '/user/me') return [401, { error: 'Please sign in to continue', code: 'unauthorized' }];
    if (method === 'POST' && path === '/user/process-deposit')
      return { message: 'Deposit submitted. It will be credited once it is confirmed.', deposit: pending(2.5) };
  });
}

const form = () => screen.getByRole('form', { name: 'Send from my wallet' });
async function send(amount: string) {
  const user = userEvent.setup();
  const f = await screen.findByRole('form', { name: 'Send from my wallet' });
  await user.clear(within(f).getByLabelText('Amount to send (USDC)'));
  if (amount) await user.type(within(f).getByLabelText('Amount to send (USDC)'), amount);
  await user.click(within(f).getByRole('button', { name: 'Send from my wallet' }));
}

describe('Send from my wallet', () => {
  it('is hidden without a browser wallet, with the shared address, or without a chain', () => {
    api();
    const shown = (s: DepositSettings) => {
      const { unmount } = renderApp(<WalletDeposit settings={s} address={MINE} />, { auth: false });
      const button = screen.queryByRole('button', { name: 'Send from my wallet' });
      unmount();
      return button !== null;
    };
    expect(shown(settings)).toBe(false);
    wallet();
    expect(shown({ ...settings, ownAddress: false })).toBe(false);
    expect(shown({ ...settings, usdcContract: null })).toBe(false);
    expect(shown(settings)).toBe(true);
  });

  it('checks the amount with the deposit rules before the wallet is asked', async () => {
    api();
    const w = wallet();
    renderApp(<WalletDeposit settings={settings} address={MINE} />, { auth: false });
    await send('');
    expect(await within(form()).findByText(TEXT.depositRequired)).toBeTruthy();
    await send('0.4');
    expect(await within(form()).findByText(TEXT.minDeposit)).toBeTruthy();
    await send('1.1234567');
    expect(await within(form()).findByText(TEXT.invalidDepositAmount)).toBeTruthy();
    expect(w.calls).toEqual([]);
  });

  it('switches the wallet to the chain, sends the USDC transfer to the own address and submits its hash once', async () => {
    const a = api();
    const w = wallet({ chainId: 1 });
    renderApp(<WalletDeposit settings={settings} address={MINE} />, { auth: false });
    await send('2.5');
    await waitFor(() => expect(a.to('POST /user/process-deposit')).toHaveLength(1));
    const [submitted] = a.to('POST /user/process-deposit');
    expect(submitted?.body).toEqual({ txHash: HASH, amount: '2.5', fromAddress: FROM });
    expect(submitted?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(w.calls.find((c) => c.method === 'wallet_switchEthereumChain')?.params).toEqual([{ chainId: '0x89' }]);
    const tx = w.calls.find((c) => c.method === 'eth_sendTransaction')?.params as [{ to: string; data: string }];
    expect(tx[0].to.toLowerCase()).toBe(USDC);
    // transfer(address,uint256): the own address and 2.5 USDC in the token's 6 decimals.
    expect(tx[0].data).toBe(
      `0xa9059cbb${MINE.slice(2).padStart(64, '0')}${(2_500_000).toString(16).padStart(64, '0')}`,
    );
    await waitFor(() => expect(within(form()).getByLabelText('Amount to send (USDC)')).toHaveProperty('value', ''));
  });

  it.each([
    ['a request rejected in the wallet', { reject: 'eth_sendTransaction' }, WALLET_TEXT.rejected],
    ['an account request rejected', { reject: 'eth_requestAccounts' }, WALLET_TEXT.rejected],
    ['a chain the wallet cannot switch to', { chainId: 1, canSwitch: false }, WALLET_TEXT.wrongChain],
    ['too little USDC', { usdc: 1_000_000n }, WALLET_TEXT.insufficientUsdc],
    ['no POL for the fee', { gas: false }, WALLET_TEXT.insufficientGas],
  ] as const)('%s shows its reason inline and submits nothing', async (_, opts, text) => {
    const a = api();
    wallet(opts);
    renderApp(<WalletDeposit settings={settings} address={MINE} />, { auth: false });
    await send('2.5');
    expect((await within(form()).findByRole('alert')).textContent).toBe(text);
    expect(a.to('POST /user/process-deposit')).toHaveLength(0);
  });
});
