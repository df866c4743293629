import { expect, test } from '@playwright/test';
import type { Address, Hex } from 'viem';
import { anvilAvailability, sendToken } from '../../apps/server/test/anvil.ts';
import { DEV_XPUB } from '../../apps/server/test/support/dev-wallet.ts';
import { startChainApp, type ChainApp } from '../support/chain-app.ts';
import { look } from '../support/look.ts';
import { ADMIN } from '../support/server.ts';
import { openTab, signIn, signUpInvestor, toast, type Person } from '../support/people.ts';

/**
 * The treasury on screen, against a real anvil node: the administrator ticks pending withdrawals and exports a payout
 * batch; the batch is executed from the payout address and completes by itself; a payout two withdrawals would fit
 * waits for the administrator, who picks; a sweep into the treasury shows on the Solvency panel. Then the money-out
 * safeguards: a frozen account's withdrawal in a downloaded batch cannot be decided here, and cancelling that batch asks
 * for the not-executed confirmation and keeps it in payment for the grace period; USDC leaving a deposit address for
 * anywhere but the treasury is an alarm and an unexplained outflow. Screens at 1280 and 375 px with long real data, axe
 * clean.
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
    // The refresh's toast is part of the screen looked at (still, not half faded in).
    await look(page, 'treasury-solvency-after-sweep', { toast: 'Balances read from the chain' });
  });

  test("a frozen account's withdrawal in a downloaded batch: badges, the panel says why, the cancel asks for confirmation", async ({
    page,
  }) => {
    const { app, chain } = running;
    const admin = await app.adminToken();
    const wallet = chain.accounts[3] as Address;
    const balance = await app.api('POST', '/admin/update-user-balance', {
      token: admin,
      body: { userId: small.id, newBalance: 40 },
    });
    expect(balance.status).toBe(200);
    const request = await app.api('POST', '/withdrawal/request-all', {
      token: small.token,
      body: { walletAddress: wallet, withdrawalPassword: small.withdrawalPassword },
    });
    expect(request.status).toBe(200);
    const pending = await app.api<{ withdrawals: { _id: string; walletAddress: string }[] }>(
      'GET',
      '/withdrawal/admin/pending',
      { token: admin },
    );
    const mine = pending.data.withdrawals.filter((w) => w.walletAddress.toLowerCase() === wallet.toLowerCase());
    expect(mine).toHaveLength(1);
    const withdrawalId = mine[0]!._id;
    const created = await app.api<{ batch: { _id: string } }>('POST', '/withdrawal/admin/batches', {
      token: admin,
      body: { withdrawalIds: [withdrawalId], grouped: true },
    });
    expect(created.status).toBe(201);
    // Downloading the file is what makes a later cancel ask for the confirmation (the wallet may still execute it).
    const file = await app.api('GET', `/withdrawal/admin/batches/${created.data.batch._id}/file?format=safe`, {
      token: admin,
    });
    expect(file.status).toBe(200);
    const frozen = await app.api('PUT', `/admin/users/${small.id}/withdrawals-frozen`, {
      token: admin,
      body: { frozen: true },
    });
    expect(frozen.status).toBe(200);

    await signIn(page, app, ADMIN);
    await openTab(page, 'Withdrawals');
    const row = page.getByRole('button', { name: /Ann Small/ }).filter({ hasText: new RegExp(wallet, 'i') });
    await expect(row.getByText('Frozen', { exact: true })).toBeVisible();
    await expect(row.getByText('In payment', { exact: true })).toBeVisible();
    await look(page, 'money-out-frozen-in-payment');

    await row.click();
    await expect(
      page.getByText("This account's withdrawals are frozen: it cannot be paid. Lift the freeze in Users first."),
    ).toBeVisible();
    await expect(page.getByText(/This withdrawal is in a payout batch, which decides it/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve', exact: true })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Reject', exact: true })).toBeDisabled();
    await look(page, 'money-out-process-frozen');

    // Only this batch is open (the first one completed): its card has the one Cancel batch button.
    await page.getByRole('button', { name: 'Cancel batch' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel this payout batch?' });
    const notExecuted = dialog.getByRole('checkbox', {
      name: /I confirm this file was not and will not be executed/,
    });
    const confirm = dialog.getByRole('button', { name: 'Cancel batch' });
    await expect(notExecuted).not.toBeChecked();
    await expect(confirm).toBeDisabled();
    await look(page, 'money-out-cancel-downloaded');
    await notExecuted.check();
    await expect(confirm).toBeEnabled();
    await confirm.click();
    const grace =
      'Payout batch cancelled: its withdrawals stay in payment for the grace period, and a payout read on chain until then still completes them.';
    await expect(toast(page, grace)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText(/^Cancelled: its withdrawals stay in payment until /)).toBeVisible();
    await expect(row.getByText(/^In payment until /)).toBeVisible();
    await look(page, 'money-out-cancelled-grace', { toast: grace });
  });

  test('money leaving a deposit address for anywhere but the treasury is an alarm on the Solvency panel', async ({
    page,
  }) => {
    const { app, chain, token } = running;
    const bigAddress = (await app.api<{ user: { depositAddress: Address } }>('GET', '/user/me', { token: big.token }))
      .data.user.depositAddress;
    const elsewhere = chain.accounts[4] as Address;
    const before = (await app.api('GET', '/user/dashboard', { token: big.token })).data.accountSummary.balance;
    await sendToken(chain, token, chain.accounts[9] as Address, 'transfer', [bigAddress, usdc(1_000)]);
    await chain.mine(CONFIRMATIONS + 1);
    await expect
      .poll(async () => (await app.api('GET', '/user/dashboard', { token: big.token })).data.accountSummary.balance, {
        timeout: 20_000,
      })
      .toBe(before + 1_000);
    // The deposit key signs a transfer out, not to the treasury: only whoever holds that key could.
    await sendToken(chain, token, bigAddress, 'transfer', [elsewhere, usdc(1_000)]);
    await chain.mine(CONFIRMATIONS + 1);

    // The watcher raises the alarm on its next read; the panel, read once a minute, shows it from the first load.
    await expect
      .poll(
        async () =>
          (
            await app.api<{ alarms: { kind: string }[] }>('GET', '/admin/solvency', { token: await app.adminToken() })
          ).data.alarms.map((a) => a.kind),
        { timeout: 30_000 },
      )
      .toContain('sweep_elsewhere');
    await signIn(page, app, ADMIN);
    const alarm = page
      .getByRole('region', { name: 'Chain alarms' })
      .getByRole('listitem')
      .filter({
        hasText: new RegExp(`USDC left the deposit address ${bigAddress} for ${elsewhere}, not for the treasury`, 'i'),
      });
    await expect(alarm).toBeVisible({ timeout: 30_000 });
    await expect(alarm).toContainText('1,000.00 USDC');
    await expect(page.getByRole('region', { name: 'Unexplained outflow' })).toBeVisible();
    const fromDeposits = page.getByTestId('solvency-outflow').locator('dd[data-loss="yes"]');
    await expect(fromDeposits).toHaveCount(1);
    await expect(fromDeposits).toHaveText(/1,000\.00/);
    await look(page, 'money-out-solvency-alarm');
  });
});
