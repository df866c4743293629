import { expect, test } from '@playwright/test';
import type { Address, Hex } from 'viem';
import { anvilAvailability, sendToken } from '../../apps/server/test/anvil.ts';
import { DEV_XPUB } from '../../apps/server/test/support/dev-wallet.ts';
import { startChainApp, type ChainApp } from '../support/chain-app.ts';
import { look } from '../support/look.ts';
import { ADMIN } from '../support/server.ts';
import { openTab, signIn, signUpInvestor, toast, type Person } from '../support/people.ts';

/**
 * Issue 40 on screen, against a real anvil node: the administrator ticks pending withdrawals and exports a payout
 * batch; the batch is executed from the payout address and completes by itself; a payout two withdrawals would fit
 * waits for the administrator, who picks; a sweep into the treasury shows on the Solvency panel. Screens at 1280 and
 * 375 px with long real data, axe clean.
 */
const CONFIRMATIONS = 2;
const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));

test.describe('treasury: payout batches, payouts found on chain, sweeps (anvil)', () => {
  test.describe.configure({ mode: 'serial' });
  const avail = anvilAvailability();
  test.skip(!avail.ok, avail.ok ? '' : `anvil cannot run here: ${avail.why}`);

  let running: ChainApp;
  let payout: Address;
  let treasury: Address;
  let big: Person;
  let small: Person;

  test.beforeAll(async () => {
    running = await startChainApp({
      funded: [5, 9],
      micro: usdc(5_000_000),
      env: (chain) => ({
        // DEV_XPUB's children are anvil's unlocked accounts: a deposit address can send (a sweep, here).
        DEPOSIT_XPUB: DEV_XPUB,
        DEPOSIT_CONFIRMATIONS: String(CONFIRMATIONS),
        DEPOSIT_CHECK_INTERVAL_MS: '300',
        PAYOUT_ADDRESS: chain.accounts[5] as Address,
        TREASURY_ADDRESS: chain.accounts[7] as Address,
      }),
    });
    payout = running.chain.accounts[5] as Address;
    treasury = running.chain.accounts[7] as Address;
    const { app, chain, token } = running;
    big = await signUpInvestor(app, {
      firstName: 'Maximiliana-Eleonora-Wilhelmina',
      lastName: 'Featherstonehaugh-Montgomery',
    });
    small = await signUpInvestor(app, { firstName: 'Ann', lastName: 'Small' });
    const bigAddress = (await app.api<{ user: { depositAddress: Address } }>('GET', '/user/me', { token: big.token }))
      .data.user.depositAddress;
    await app.api('GET', '/user/me', { token: small.token });
    await sendToken(chain, token, chain.accounts[9] as Address, 'transfer', [bigAddress, usdc(1_234_567.891234)]);
    await chain.mine(CONFIRMATIONS + 1);
    await expect
      .poll(async () => (await app.api('GET', '/user/dashboard', { token: big.token })).data.accountSummary.balance, {
        timeout: 20_000,
      })
      .toBe(1_234_567.891234);
    const withdraw = await app.api('POST', '/withdrawal/request-all', {
      token: big.token,
      body: { walletAddress: chain.accounts[8], withdrawalPassword: big.withdrawalPassword },
    });
    expect(withdraw.status).toBe(200);
    // Two requests of 5 USDC to one wallet: a 5 USDC payout would fit either.
    const admin = await app.adminToken();
    for (let i = 0; i < 2; i++) {
      await app.api('POST', '/admin/update-user-balance', { token: admin, body: { userId: small.id, newBalance: 5 } });
      const r = await app.api('POST', '/withdrawal/request-all', {
        token: small.token,
        body: { walletAddress: chain.accounts[6], withdrawalPassword: small.withdrawalPassword },
      });
      expect(r.status).toBe(200);
    }
  });
  test.afterAll(async () => {
    await running?.stop();
  });

  test('the administrator exports a batch; executed from the payout address, it completes by itself', async ({
    page,
  }) => {
    const { app, chain, token } = running;
    await signIn(page, app, ADMIN);
    await openTab(page, 'Withdrawals');
    await page.getByRole('checkbox', { name: /Add to a payout batch: 1,234,567.891234/ }).check();
    await page.getByRole('button', { name: 'Export payout batch (1)' }).click();
    await expect(page.getByRole('dialog', { name: 'Export payout batch' })).toBeVisible();
    await look(page, 'treasury-export-batch');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Create batch and download' }).click();
    expect((await download).suggestedFilename()).toMatch(/^payout-batch-.*\.safe\.json$/);
    await expect(toast(page, 'Payout batch of 1 withdrawal created')).toBeVisible();
    await expect(page.getByText('In payment').first()).toBeVisible();
    await look(page, 'treasury-batch-in-payment');

    // The multisig executes it: the Safe file's call, from the payout address.
    const batches = await app.api<{ batches: { _id: string }[] }>('GET', '/withdrawal/admin/batches', {
      token: await app.adminToken(),
    });
    const id = batches.data.batches[0]!._id;
    const file = await app.api<{ transactions: { contractInputsValues: { to: Address; value: string } }[] }>(
      'GET',
      `/withdrawal/admin/batches/${id}/file?format=safe`,
      { token: await app.adminToken() },
    );
    const [tx] = file.data.transactions;
    await sendToken(chain, token, payout, 'transfer', [
      tx!.contractInputsValues.to,
      BigInt(tx!.contractInputsValues.value),
    ]);
    await chain.mine(CONFIRMATIONS + 1);
    await expect(page.getByText('Completed').first()).toBeVisible({ timeout: 40_000 });
  });

  test('a payout two withdrawals would fit waits for the administrator, who picks', async ({ page }) => {
    const { app, chain, token } = running;
    await sendToken(chain, token, payout, 'transfer', [chain.accounts[6] as Address, usdc(5)]);
    await chain.mine(CONFIRMATIONS + 1);
    await signIn(page, app, ADMIN);
    await openTab(page, 'Withdrawals');
    await expect(page.getByRole('heading', { name: 'Payouts found on chain' })).toBeVisible({ timeout: 30_000 });
    await look(page, 'treasury-found-payout');
    await page.getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Approve with this payout' }).click();
    await expect(toast(page, 'Withdrawals approved with this payout')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Payouts found on chain' })).toHaveCount(0);
  });

  test('a sweep into the treasury shows on the Solvency panel, with the treasury counted', async ({ page }) => {
    const { app, chain, token } = running;
    const bigAddress = (await app.api<{ user: { depositAddress: Address } }>('GET', '/user/me', { token: big.token }))
      .data.user.depositAddress;
    const held = (await chain.publicClient.readContract({
      address: token.address,
      abi: token.abi,
      functionName: 'balanceOf',
      args: [bigAddress],
    })) as bigint;
    const sweep: Hex = await sendToken(chain, token, bigAddress, 'transfer', [treasury, held]);
    expect(sweep).toMatch(/^0x/);
    await chain.mine(CONFIRMATIONS + 1);
    await signIn(page, app, ADMIN);
    await expect(page.getByTestId('solvency-sweep')).toHaveText(/Last sweep: 1 deposit address, 1,234,567.891234/, {
      timeout: 30_000,
    });
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(page.getByText('In the treasury')).toBeVisible();
    await look(page, 'treasury-solvency-after-sweep');
  });
});
