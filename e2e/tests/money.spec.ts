import { expect, test, type Browser, type Page } from '@playwright/test';
import type { Address } from 'viem';
import { anvilAvailability, sendToken, type Anvil, type Token } from '../../apps/server/test/anvil.ts';
import { startChainApp, type ChainApp } from '../support/chain-app.ts';
import { openTab, randomTxHash, signIn, signUpInvestor, type Person, toast, stat } from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * Money as a user sees it: a demo deposit approved by the admin, a tier bought on
 * a weekday (refused on Saturday), one 8-hour earning cycle on the test clock, referral rewards
 * three levels up, Withdraw All approved with a hash (48 h wait) and rejected (money back),
 * and a failed on-chain deposit corrected against a real anvil node.
 */

const MONDAY_9 = '2026-11-23T09:00:00Z';
const MONDAY_17 = '2026-11-23T17:00:30Z';
const SATURDAY = '2026-11-21T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';
const WALLET = '0x2222222222222222222222222222222222222222';

async function asAdmin(browser: Browser, app: RunningApp): Promise<Page> {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await signIn(page, app, ADMIN);
  return page;
}

test.describe('demo deposits, investments, withdrawals', () => {
  test.describe.configure({ mode: 'serial' });

  let app: RunningApp;
  let ada: Person; // the investor
  let iris: Person; // invited Ada (level 1)
  let tom: Person; // invited Iris (level 2)
  let una: Person; // invited Tom (level 3)
  const depositHash = randomTxHash();

  test.beforeAll(async () => {
    app = await startApp();
    await app.setClock(MONDAY_9);
    una = await signUpInvestor(app, { firstName: 'Una', lastName: 'Third' });
    tom = await signUpInvestor(app, { firstName: 'Tom', lastName: 'Second', inviterToken: una.token });
    iris = await signUpInvestor(app, { firstName: 'Iris', lastName: 'First', inviterToken: tom.token });
    ada = await signUpInvestor(app, { firstName: 'Ada', lastName: 'Lovelace', inviterToken: iris.token });
  });
  test.afterAll(async () => app?.stop());

  test('deposit: submit, see it pending, admin approves, balance and recent list update', async ({
    page,
    browser,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseURL });
    await signIn(page, app, ada);
    await openTab(page, 'Deposit');

    // Address with a copy button, the Polygon warning, the instructions.
    const address = page.getByTestId('deposit-address');
    await expect(address).toHaveText('0x000000000000000000000000000000000000dEaD');
    await page.getByRole('button', { name: 'Copy Address' }).click();
    await expect(toast(page, 'Deposit address copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      '0x000000000000000000000000000000000000dEaD',
    );
    await expect(
      page.locator('#main').getByRole('alert').filter({ hasText: 'Only USDC on the Polygon network is accepted.' }),
    ).toBeVisible();
    await expect(stat(page, 'Current Balance')).toHaveText('0.0000 USDC');
    await expect(page.getByText('No deposits yet.')).toBeVisible();

    // The spec's messages.
    const form = page.getByRole('form', { name: 'Submit deposit' });
    await form.getByRole('button', { name: 'Submit Deposit' }).click();
    await expect(toast(page, 'Please fill all required fields')).toBeVisible();
    await form.getByLabel('Transaction Hash').fill(depositHash);
    await form.getByLabel('Amount (USDC)').fill('0.4');
    await form.getByLabel('From Address').fill(FROM);
    await form.getByRole('button', { name: 'Submit Deposit' }).click();
    await expect(toast(page, 'Minimum deposit is $0.5 USDC')).toBeVisible();

    await form.getByLabel('Amount (USDC)').fill('150');
    await form.getByRole('button', { name: 'Submit Deposit' }).click();
    await expect(toast(page, 'Deposit submitted. It will be credited once it is confirmed.')).toBeVisible();
    await expect(form.getByLabel('Transaction Hash')).toHaveValue('');

    const recent = page.getByRole('list', { name: 'Recent deposits' });
    const row = recent.getByRole('listitem').first();
    await expect(row).toContainText('150.00 USDC');
    await expect(row.getByText('Demo', { exact: true })).toBeVisible();
    await expect(row.getByText('Pending', { exact: true })).toBeVisible();
    await expect(row.getByText(`${depositHash.slice(0, 20)}...`, { exact: true })).toBeVisible();

    // The same hash again is refused.
    await form.getByLabel('Transaction Hash').fill(depositHash);
    await form.getByLabel('Amount (USDC)').fill('5');
    await form.getByLabel('From Address').fill(FROM);
    await form.getByRole('button', { name: 'Submit Deposit' }).click();
    await expect(toast(page, 'This transaction hash has already been submitted for a deposit')).toBeVisible();

    // The admin approves it.
    const admin = await asAdmin(browser, app);
    await openTab(admin, 'Deposits');
    const filters = admin.getByRole('group', { name: 'Filter deposits by status' });
    await expect(filters.getByRole('button', { name: 'All (1)' })).toBeVisible();
    await expect(filters.getByRole('button', { name: 'Pending (1)' })).toBeVisible();
    await expect(filters.getByRole('button', { name: 'Confirmed (0)' })).toBeVisible();
    await expect(filters.getByRole('button', { name: 'Failed (0)' })).toBeVisible();
    await filters.getByRole('button', { name: 'Pending (1)' }).click();
    await expect(admin.getByText(`(${ada.email})`)).toBeVisible();
    await expect(admin.getByText('Ada Lovelace', { exact: false }).first()).toBeVisible();
    await expect(admin.getByText(`${depositHash.slice(0, 30)}...`, { exact: true })).toBeVisible();
    // Approving asks first, naming the investor and the amount.
    await admin.getByRole('button', { name: 'Approve deposit of 150.00 USDC by Ada Lovelace' }).click();
    const approveDialog = admin.getByRole('alertdialog', { name: 'Approve deposit?' });
    await expect(approveDialog).toContainText('150.00 USDC will be credited to the balance of Ada Lovelace.');
    await expect(approveDialog).toContainText(ada.email);
    await expect(approveDialog).toContainText(depositHash);
    await approveDialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(approveDialog).toHaveCount(0);
    // Focus is back on the button that opened it; nothing was credited.
    await expect(admin.getByRole('button', { name: 'Approve deposit of 150.00 USDC by Ada Lovelace' })).toBeFocused();
    await expect(filters.getByRole('button', { name: 'Pending (1)' })).toBeVisible();
    await admin.getByRole('button', { name: 'Approve deposit of 150.00 USDC by Ada Lovelace' }).click();
    await approveDialog.getByRole('button', { name: 'Approve and credit' }).click();
    await expect(toast(admin, 'Deposit approved and credited')).toBeVisible();
    await expect(filters.getByRole('button', { name: 'Pending (0)' })).toBeVisible();
    await expect(filters.getByRole('button', { name: 'Confirmed (1)' })).toBeVisible();
    await expect(admin.getByText('No deposits.')).toBeVisible();
    await admin.context().close();

    // Back as the investor: the tab refreshes every 30 s; a reload shows it at once.
    await page.reload();
    await openTab(page, 'Deposit');
    await expect(stat(page, 'Current Balance')).toHaveText('150.0000 USDC');
    await expect(recent.getByRole('listitem').first().getByText('Confirmed', { exact: true })).toBeVisible();
    await openTab(page, 'Dashboard');
    await expect(stat(page, 'USDC Balance')).toHaveText('150.0000 USDC');
  });

  test('invest on a weekday (refused on Saturday), run one 8-hour cycle, referrers are paid 10/3/1%', async ({
    page,
    browser,
  }) => {
    // Saturday: Invest Now is off, with the spec's words shown before anyone clicks; nothing moves. (Signed in on
    // that day: a token is valid from its issue time for 12 hours, so the clock only moves forward from here.)
    await app.setClock(SATURDAY);
    await signIn(page, app, ada);
    await openTab(page, 'Tiers');
    await expect(page.getByRole('button', { name: 'Invest Now in Bronze' })).toBeDisabled();
    await expect(
      page.getByText('Investments are only available Monday through Friday. Please try again on a weekday.'),
    ).toBeVisible();

    // Monday (a new session): bought, after a confirmation with the amount, the balance and the earning per cycle.
    await app.setClock(MONDAY_9);
    await signIn(page, app, ada);
    await openTab(page, 'Tiers');
    await page.getByRole('button', { name: 'Invest Now in Bronze' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm investment' });
    await expect(confirm).toContainText('Invest 100.00 USDC in the Bronze tier?');
    await expect(confirm).toContainText('150.0000 USDC');
    await expect(confirm).toContainText('1.50 USDC'); // earning per cycle: 100 x 1.5%
    await confirm.getByRole('button', { name: 'Confirm Investment' }).click();
    await expect(confirm).toBeHidden();
    await openTab(page, 'Dashboard');
    await expect(stat(page, 'USDC Balance')).toHaveText('50.0000 USDC');
    await expect(stat(page, 'Total Investment')).toHaveText('100.0000 USDC');

    // One cycle: start, 8 hours on the test clock, complete.
    await openTab(page, 'Investments');
    const card = page.getByRole('article', { name: 'Bronze investment' });
    await expect(card.getByText('Ready to start earning', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'Start Earning (Mon-Fri only)' }).click();
    await expect(card.getByText('Earning in progress', { exact: true })).toBeVisible();
    await expect(card).toContainText(/Earning in progress: [78]h \d+m \d+s left/);
    await expect(card.getByRole('progressbar', { name: 'Cycle progress' })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Complete Cycle' })).toHaveCount(0);

    await app.setClock(MONDAY_17);
    await expect(card.getByText('Ready to complete', { exact: true })).toBeVisible(); // the tab refreshes every 2 s
    await card.getByRole('button', { name: 'Complete Cycle' }).click();
    await expect(card.getByText('Next cycle tomorrow', { exact: true })).toBeVisible();
    await expect(card.getByText('Total earned').locator('xpath=following-sibling::dd[1]')).toHaveText('1.50 USDC');
    await expect(card.getByText('Cycles completed').locator('xpath=following-sibling::dd[1]')).toHaveText('1');

    await openTab(page, 'Dashboard');
    await expect(stat(page, 'USDC Balance')).toHaveText('50.0000 USDC');
    await expect(stat(page, 'Total Investment')).toHaveText('100.0000 USDC');
    await expect(stat(page, 'Total Earnings')).toHaveText('1.50 USDC');
    await expect(stat(page, 'Available to Withdraw')).toHaveText('51.50 USDC');
    await expect(stat(page, 'Pending Approval')).toHaveText('0.00 USDC');
    await expect(stat(page, 'Successfully Withdrawn')).toHaveText('0.00 USDC');
    await expect(stat(page, 'Referral Rewards')).toHaveText('0.00 USDC');

    // The three referrers above Ada each see their reward on their own dashboard.
    for (const [who, reward] of [
      [iris, '10.00 USDC'],
      [tom, '3.00 USDC'],
      [una, '1.00 USDC'],
    ] as const) {
      const ctx = await browser.newContext();
      const p = await ctx.newPage();
      await signIn(p, app, who);
      await expect(stat(p, 'Referral Rewards')).toHaveText(reward);
      await expect(stat(p, 'Available to Withdraw')).toHaveText(reward);
      await ctx.close();
    }
  });

  test('Withdraw All: breakdown, admin approves one with a hash (48 h wait) and rejects the other (money back)', async ({
    page,
    browser,
  }) => {
    await signIn(page, app, ada);
    await openTab(page, 'Investments');
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Cycle Withdrawals' }) });
    await expect(
      section
        .getByRole('region', { name: 'Withdrawal Summary' })
        .getByText('Available', { exact: true })
        .locator('xpath=following-sibling::*[1]'),
    ).toHaveText('51.50 USDC');
    await section.getByRole('button', { name: 'Withdraw All' }).click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw All' });
    await dialog.getByRole('button', { name: 'Review Withdrawal' }).click();
    await expect(toast(page, 'Please enter your wallet address')).toBeVisible();
    await dialog.getByLabel('Wallet Address (Polygon USDC)').fill(WALLET);
    await dialog.getByLabel('Withdrawal Password', { exact: true }).fill('not-the-password');
    await dialog.getByRole('button', { name: 'Review Withdrawal' }).click();
    // The breakdown is shown before anything is sent: gross, 15% fee on the earning, net.
    const breakdown = dialog.getByLabel('Withdrawal breakdown');
    const row = (label: string) =>
      breakdown.getByText(label, { exact: true }).locator('xpath=following-sibling::dd[1]');
    await expect(row('Cycle earnings (1)')).toHaveText('1.50 USDC');
    await expect(row('Rewards and balance')).toHaveText('50.00 USDC');
    await expect(row('Gross')).toHaveText('51.50 USDC');
    await expect(row('Fee (15% on earnings)')).toHaveText('−0.225 USDC');
    await expect(row('You receive (net)')).toHaveText('51.275 USDC');
    await dialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();
    await expect(toast(page, 'Withdrawal password is incorrect')).toBeVisible();
    await dialog.getByLabel('Withdrawal Password', { exact: true }).fill(ada.withdrawalPassword);
    await dialog.getByRole('button', { name: 'Review Withdrawal' }).click();
    await dialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();
    await expect(toast(page, /^Withdrawal request submitted for/)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(section.getByRole('article', { name: 'Withdrawal Pending' })).toHaveCount(2);
    await expect(
      section
        .getByRole('region', { name: 'Withdrawal Summary' })
        .getByText('Pending', { exact: true })
        .locator('xpath=following-sibling::*[1]'),
    ).toHaveText('51.50 USDC');
    await expect(section.getByRole('button', { name: 'Withdraw All' })).toBeDisabled();

    // The admin pays the cycle earning and rejects the balance withdrawal.
    const payout = randomTxHash();
    const admin = await asAdmin(browser, app);
    await openTab(admin, 'Withdrawals');
    await expect(admin.getByRole('tab', { name: 'Pending (2)' })).toBeVisible();
    await admin.getByRole('button', { name: /Cycle #1 · Bronze/ }).click();
    const panel = admin.locator('section', { has: admin.getByRole('heading', { name: 'Process Withdrawal' }) });
    await expect(panel).toContainText('Ada Lovelace');
    await expect(panel).toContainText('1.275 USDC');
    await panel.getByRole('button', { name: 'Approve' }).click();
    await expect(toast(admin, 'Please enter transaction hash')).toBeVisible();
    await panel.getByLabel('Transaction Hash').fill(payout);
    await panel.getByRole('button', { name: 'Approve' }).click();
    await expect(toast(admin, 'Withdrawal approved')).toBeVisible();
    await expect(admin.getByRole('tab', { name: 'Pending (1)' })).toBeVisible();
    await admin.getByRole('button', { name: /Balance/ }).click();
    await panel.getByLabel('Notes (optional)').fill('Wallet not verified');
    await panel.getByRole('button', { name: 'Reject' }).click();
    // Rejecting asks first.
    const sure = admin.getByRole('alertdialog', { name: 'Reject this withdrawal?' });
    await sure.getByRole('button', { name: 'Reject' }).click();
    await expect(toast(admin, 'Withdrawal rejected')).toBeVisible();
    await expect(admin.getByRole('tab', { name: 'Pending (0)' })).toBeVisible();
    await expect(admin.getByText('No pending withdrawals.')).toBeVisible();
    await admin.getByRole('tab', { name: 'History (2)' }).click();
    await expect(admin.getByRole('button', { name: /Completed/ })).toContainText(`Tx ${payout.slice(0, 20)}...`);
    await admin.context().close();

    // The investor's screen (refreshes every 2 s): Completed with the hash, Rejected with the notes, the 48 h wait.
    const done = section.getByRole('article', { name: 'Withdrawal Completed' });
    await expect(done).toBeVisible();
    await expect(done).toContainText(`${payout.slice(0, 20)}...`);
    await expect(done).toContainText('Cycle #1 · Bronze');
    const rejected = section.getByRole('article', { name: 'Withdrawal Rejected' });
    await expect(rejected).toContainText('Notes: Wallet not verified');
    const card = page.getByRole('article', { name: 'Bronze investment' });
    await expect(card.getByText('Waiting for next cycle', { exact: true })).toBeVisible();
    await expect(card).toContainText(/next cycle is available in (47h 5\dm \d+s|48h 0m 0s)/);
    await expect(
      section
        .getByRole('region', { name: 'Withdrawal Summary' })
        .getByText('Available', { exact: true })
        .locator('xpath=following-sibling::*[1]'),
    ).toHaveText('50.00 USDC');
    await expect(
      section
        .getByRole('region', { name: 'Withdrawal Summary' })
        .getByText('Completed', { exact: true })
        .locator('xpath=following-sibling::*[1]'),
    ).toHaveText('1.275 USDC');

    await openTab(page, 'Dashboard');
    await expect(stat(page, 'USDC Balance')).toHaveText('50.0000 USDC');
    await expect(stat(page, 'Available to Withdraw')).toHaveText('50.00 USDC');
    await expect(stat(page, 'Pending Approval')).toHaveText('0.00 USDC');
    await expect(stat(page, 'Successfully Withdrawn')).toHaveText('1.275 USDC');
  });

  test('the investments tab fits a 375 px phone', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, app, ada);
    await openTab(page, 'Investments');
    await expect(page.getByRole('article', { name: 'Bronze investment' })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Withdrawal Completed' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
  });
});

test.describe('on-chain deposit (anvil)', () => {
  const avail = anvilAvailability();
  test.skip(!avail.ok, avail.ok ? '' : `anvil cannot run here: ${avail.why}`);

  let running: ChainApp;
  let chain: Anvil;
  let token: Token;
  let app: RunningApp;
  let sender: Address;

  test.beforeAll(async () => {
    running = await startChainApp({
      funded: [1],
      micro: 1_000_000_000n,
      env: (c) => ({
        DEPOSIT_ADDRESS: c.accounts[9] as string,
        DEPOSIT_CONFIRMATIONS: '2',
        DEPOSIT_CHECK_INTERVAL_MS: '500',
      }),
    });
    ({ chain, token, app } = running);
    sender = chain.accounts[1] as Address;
  });
  test.afterAll(async () => {
    await running?.stop();
  });

  test('a wrong amount fails with its reason; the owner corrects it; confirmed once a block is mined', async ({
    page,
  }) => {
    const bob = await signUpInvestor(app, { firstName: 'Bob', lastName: 'Chain' });
    const hash = await sendToken(chain, token, sender, 'transfer', [chain.accounts[9], 25_000_000n]);
    await signIn(page, app, bob);
    await openTab(page, 'Deposit');
    await expect(page.getByTestId('deposit-address')).toHaveText(chain.accounts[9] as string);

    const form = page.getByRole('form', { name: 'Submit deposit' });
    await form.getByLabel('Transaction Hash').fill(hash);
    await form.getByLabel('Amount (USDC)').fill('20');
    await form.getByLabel('From Address').fill(sender);
    await form.getByRole('button', { name: 'Submit Deposit' }).click();
    const reason =
      'Amount differs: the chain shows 25 USDC for this transfer, but you entered 20 USDC. Correct the amount to 25.';
    await expect(toast(page, reason)).toBeVisible();

    const failedArea = page.locator('section', { has: page.getByRole('heading', { name: 'Failed Deposits' }) });
    await expect(failedArea.getByText(reason, { exact: true })).toBeVisible();
    const recent = page.getByRole('list', { name: 'Recent deposits' });
    await expect(recent.getByRole('listitem').first().getByText('Failed', { exact: true })).toBeVisible();
    await expect(recent.getByRole('listitem').first().getByText('On-chain', { exact: true })).toBeVisible();

    const fix = failedArea.getByRole('form', { name: 'Correct failed deposit' });
    await expect(fix.getByLabel('Transaction Hash')).toHaveValue(hash);
    await fix.getByLabel('Amount (USDC)').fill('');
    await fix.getByRole('button', { name: 'Update & Retry' }).click();
    await expect(toast(page, 'Please fill transaction hash and amount')).toBeVisible();
    await fix.getByLabel('Amount (USDC)').fill('25');
    await fix.getByRole('button', { name: 'Update & Retry' }).click();
    await expect(toast(page, 'Deposit updated and submitted for verification again')).toBeVisible();
    await expect(failedArea).toBeHidden();
    const row = recent.getByRole('listitem').first();
    await expect(row.getByText('Pending', { exact: true })).toBeVisible();
    await expect(row.getByRole('progressbar', { name: 'Confirmations 1 of 2' })).toBeVisible();
    await expect(
      page.getByText('Current Balance', { exact: true }).locator('xpath=following-sibling::*[1]'),
    ).toHaveText('0.0000 USDC');

    // One more block: the background job confirms it; the tab shows it on its next refresh (reload here).
    await chain.mine(1);
    await expect
      .poll(
        async () =>
          (await app.api<{ deposits: { status: string }[] }>('GET', '/user/deposit-history', { token: bob.token })).data
            .deposits[0]?.status,
        { timeout: 15_000 },
      )
      .toBe('confirmed');
    await page.reload();
    await openTab(page, 'Deposit');
    await expect(recent.getByRole('listitem').first().getByText('Confirmed', { exact: true })).toBeVisible();
    await expect(
      page.getByText('Current Balance', { exact: true }).locator('xpath=following-sibling::*[1]'),
    ).toHaveText('25.0000 USDC');
  });
});
