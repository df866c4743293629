import { expect, test } from '@playwright/test';
import type { Address, Hex } from 'viem';
import { anvilAvailability, sendToken } from '../../apps/server/test/anvil.ts';
import { devXpub } from '../../apps/server/test/support/dev-wallet.ts';
import { startChainApp, type ChainApp } from '../support/chain-app.ts';
import { look } from '../support/look.ts';
import { ADMIN } from '../support/server.ts';
import { openTab, signIn, signUpInvestor, type Person } from '../support/people.ts';

/**
 * Money in on screen, against a real anvil node: an investor's below-minimum transfer is shown with why and no
 * correction form; after a re-organisation deeper than the confirmations takes away a credited seven-figure
 * transfer, the administrator's Solvency panel shows the alarms, and "Reconcile now" names the credit the chain
 * no longer backs. Screens at 1280 and 375 px, axe clean.
 */
const CONFIRMATIONS = 2;
const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));

test.describe('money in against the chain (anvil, DEPOSIT_XPUB)', () => {
  test.describe.configure({ mode: 'serial' });
  const avail = anvilAvailability();
  test.skip(!avail.ok, avail.ok ? '' : `anvil cannot run here: ${avail.why}`);

  let running: ChainApp;
  let investor: Person;
  let address: Address;
  let sender: Address;

  test.beforeAll(async () => {
    running = await startChainApp({
      funded: [9],
      micro: usdc(5_000_000),
      env: (chain) => ({
        DEPOSIT_XPUB: devXpub("m/44'/60'/13'/0"),
        DEPOSIT_CONFIRMATIONS: String(CONFIRMATIONS),
        DEPOSIT_CHECK_INTERVAL_MS: '300',
        PAYOUT_ADDRESS: chain.accounts[5] as Address,
      }),
    });
    sender = running.chain.accounts[9] as Address;
    investor = await signUpInvestor(running.app, {
      firstName: 'Maximiliana-Eleonora-Wilhelmina',
      lastName: 'Featherstonehaugh-Montgomery',
    });
    const me = await running.app.api<{ user: { depositAddress: Address } }>('GET', '/user/me', {
      token: investor.token,
    });
    address = me.data.user.depositAddress;
  });
  test.afterAll(async () => {
    await running?.stop();
  });

  const send = (amount: number) => sendToken(running.chain, running.token, sender, 'transfer', [address, usdc(amount)]);
  async function historyStatus(hash: Hex) {
    const r = await running.app.api<{ deposits: { txHash: string; status: string }[] }>(
      'GET',
      '/user/deposit-history',
      {
        token: investor.token,
      },
    );
    return r.data.deposits.find((d) => d.txHash === hash.toLowerCase())?.status;
  }

  test('a below-minimum transfer the watcher read is shown with why, without a correction form', async ({ page }) => {
    const below = await send(0.1);
    await running.chain.mine(CONFIRMATIONS + 1);
    await expect.poll(() => historyStatus(below), { timeout: 15_000 }).toBe('failed');
    await signIn(page, running.app, investor);
    await openTab(page, 'Deposit');
    const area = page.getByRole('region', { name: 'Failed Deposits' });
    await expect(area.getByText('Below the minimum deposit')).toBeVisible();
    await expect(area.getByText(/read from the blockchain, so it cannot be corrected/)).toBeVisible();
    await expect(area.getByRole('form', { name: 'Correct failed deposit' })).toHaveCount(0);
    await look(page, 'money-in-failed-deposit-from-chain');
  });

  test('a deep re-organisation: the alarms, and "Reconcile now" names the credit the chain took back', async ({
    page,
  }) => {
    const chain = running.chain;
    const snapshot = (await chain.publicClient.request({ method: 'evm_snapshot' as never })) as Hex;
    const big = await send(1_234_567.891234);
    await chain.mine(CONFIRMATIONS + 3);
    await expect.poll(() => historyStatus(big), { timeout: 15_000 }).toBe('confirmed');
    // The chain is replaced from before the transfer by a longer one without it.
    await chain.publicClient.request({ method: 'evm_revert' as never, params: [snapshot] as never });
    await chain.mine(CONFIRMATIONS + 12);

    await signIn(page, running.app, ADMIN);
    const panel = page.getByTestId('solvency');
    await expect(page.getByRole('heading', { name: 'Chain alarms' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(/re-organisation deeper than the 2 confirmations/)).toBeVisible();
    await expect(page.getByText(/is no longer on the chain/)).toBeVisible();
    await page.getByRole('button', { name: 'Reconcile now' }).click();
    await expect(page.getByTestId('reconciliation-status')).toHaveText(/1 difference with the chain/, {
      timeout: 20_000,
    });
    await expect(panel.getByText('Credited without a transfer')).toBeVisible();
    await expect(panel.getByText(/Credited 1,234,567.891234/)).toBeVisible();
    await expect(page.getByText(/a credited deposit of 1,234,567.891234 USDC/)).toBeVisible();
    await look(page, 'money-in-solvency-alarms');
  });
});
