import { expect, test } from '@playwright/test';
import { expectOneLine, expectWholeTabs, look, WIDTHS } from '../support/look.ts';
import {
  creditedDeposit,
  openTab,
  randomTxHash,
  signIn,
  signUpInvestor,
  tokenFor,
  type Person,
  toast,
  LONG_FIRST_NAME as FIRST,
  LONG_LAST_NAME as LAST,
  LONG_NAME as NAME,
  UNBROKEN_LAST_NAME as UNBROKEN,
} from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * The back office as the administrator meets it, every screen looked at (axe clean, nothing wider than the window,
 * screenshots at 1280 and 375 px) with long real data: an investor with a 60-character name and a seven-figure
 * balance, a seven-figure withdrawal waiting. Block and unblock are confirmed and said; the CSV says what it
 * exports; the process panel comes into view on a phone; the audit log reads in names.
 */

const MONDAY_9 = '2026-11-16T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';

let app: RunningApp;
let ada: Person;

test.describe.configure({ timeout: 300_000 });

test.beforeAll(async () => {
  expect(NAME).toHaveLength(60);
  app = await startApp();
  await app.setClock(MONDAY_9);
  ada = await signUpInvestor(app, { firstName: FIRST, lastName: LAST, inviterToken: await tokenFor(app, ADMIN) });
  await creditedDeposit(app, ada, 1_000_000, FROM);
});
test.afterAll(async () => app?.stop());

test('admin screens and their confirmations', async ({ page }) => {
  // Something to process: Cy, invited by Ada, asks for a seven-figure withdrawal. His surname has no place to
  // break a line: every list, network and dialog naming him wraps or truncates it.
  const CY = `Cy ${UNBROKEN}`;
  const cy = await signUpInvestor(app, {
    firstName: 'Cy',
    lastName: UNBROKEN,
    inviterToken: await tokenFor(app, ada),
  });
  await creditedDeposit(app, cy, 1_234_567.891234, FROM);
  const w = await app.api('POST', '/withdrawal/request-all', {
    token: cy.token,
    body: { walletAddress: FROM, withdrawalPassword: cy.withdrawalPassword },
  });
  expect(w.status).toBe(200);

  // And a seven-figure demo deposit of Ada's waits for approval.
  const pending = await app.api('POST', '/user/process-deposit', {
    token: ada.token,
    body: { txHash: randomTxHash(), amount: 1_234_567.89, fromAddress: FROM },
  });
  expect(pending.status).toBe(200);

  await signIn(page, app, ADMIN);
  await expect(page.getByRole('heading', { level: 1, name: /Back office/ })).toBeVisible();
  await look(page, 'admin-overview');
  await expectWholeTabs(page);
  for (const [tab, name] of [
    ['Analytics', 'admin-analytics'],
    ['Deposits', 'admin-deposits'],
    ['Withdrawals', 'admin-withdrawals'],
    ['Referrals', 'admin-referrals'],
    ['Tiers', 'admin-tiers'],
  ] as const) {
    await openTab(page, tab);
    await page.waitForLoadState('networkidle');
    if (tab === 'Analytics') await expect(page.getByText('USDC per day')).toHaveCount(2);
    await look(page, name);
  }

  // Approving a deposit asks first, naming the investor and the amount; Cancel leaves it pending.
  await openTab(page, 'Deposits');
  await page.getByRole('button', { name: `Approve deposit of 1,234,567.89\u00a0USDC by ${NAME}` }).click();
  const approve = page.getByRole('alertdialog', { name: 'Approve deposit?' });
  await expect(approve).toContainText(`1,234,567.89\u00a0USDC will be credited to the balance of ${NAME}.`);
  await look(page, 'admin-deposit-approve-confirm');
  await approve.getByRole('button', { name: 'Cancel' }).click();
  await expect(
    page.getByRole('button', { name: `Approve deposit of 1,234,567.89\u00a0USDC by ${NAME}` }),
  ).toBeFocused();

  // Withdrawals on a phone: a tap brings the process panel into view.
  await openTab(page, 'Withdrawals');
  await page.setViewportSize(WIDTHS.phone);
  await page.getByRole('button', { name: CY }).click();
  const panelHeading = page.getByRole('heading', { name: 'Process Withdrawal' });
  await expect(panelHeading).toBeInViewport();
  await expect(panelHeading).toBeFocused();
  await expect(page.getByLabel('Transaction Hash')).toBeVisible();
  await page.setViewportSize(WIDTHS.desktop);
  await look(page, 'admin-withdrawal-process');
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(page.getByRole('alertdialog', { name: 'Reject this withdrawal?' })).toBeVisible();
  await look(page, 'admin-withdrawal-reject-confirm');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();

  // The CSV says what it exports and offers all.
  await page.getByRole('button', { name: 'Download CSV' }).click();
  await expect(page.getByRole('menuitem', { name: 'Pending withdrawals' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'All withdrawals (pending and processed)' })).toBeVisible();
  await look(page, 'admin-withdrawals-csv-menu');
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'All withdrawals (pending and processed)' }).click();
  expect((await download).suggestedFilename()).toMatch(/^withdrawals-.*\.csv$/);
  await expect(toast(page, /^Downloaded withdrawals-.*\.csv: \d+ rows? \(withdrawals\)\.$/)).toBeVisible();
  // Once Cy's is rejected nothing is pending: an export of the pending ones says so instead of a header-only file.
  await page.getByRole('button', { name: CY }).click();
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reject' }).click();
  await expect(toast(page, 'Withdrawal rejected')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending (0)' })).toBeVisible();
  await page.getByRole('button', { name: 'Download CSV' }).click();
  await page.getByRole('menuitem', { name: 'Pending withdrawals' }).click();
  await look(page, 'admin-withdrawals-csv-empty', { toast: 'Nothing to export: there are no pending withdrawals.' });

  // Referrals: look up a user's network; both networks on one page name their regions apart.
  await openTab(page, 'Referrals');
  await page.getByRole('searchbox', { name: 'Search users by name or e-mail' }).fill(FIRST);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page
    .getByRole('list', { name: 'Matching users' })
    .getByRole('button', { name: 'Show network' })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: `Referral Network of ${NAME}` })).toBeVisible();
  await expect(page.getByRole('region', { name: `Level 1 (10%) of ${NAME}` })).toContainText(CY);
  await expect(page.getByRole('region', { name: 'Level 1 (10%)', exact: true })).toContainText(NAME);
  await look(page, 'admin-referral-lookup');

  // Tiers: the form, its inline errors.
  await openTab(page, 'Tiers');
  await page.getByRole('button', { name: 'New Tier' }).click();
  const tierForm = page.getByRole('form', { name: 'New tier' });
  await tierForm.getByRole('button', { name: 'Save Tier' }).click();
  await expect(tierForm.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(tierForm.getByLabel('Amount (USDC)')).toHaveAttribute('aria-invalid', 'true');
  await expect(tierForm.getByLabel('Daily rate (%)')).toHaveAttribute('aria-invalid', 'true');
  await look(page, 'admin-tier-form-errors');
  await tierForm.getByRole('button', { name: 'Cancel' }).click();

  await openTab(page, 'Users');
  const card = page.locator('section').filter({ hasText: ada.email });
  await expect(card).toBeVisible();
  await expect(card.getByText('1,000,000.0000\u00a0USDC')).toBeVisible();
  // Amounts never break from their unit, at either width.
  for (const size of Object.values(WIDTHS)) {
    await page.setViewportSize(size);
    await expectOneLine(card.locator('dd'), `${NAME}'s figures at ${size.width} px`);
  }
  await page.setViewportSize(WIDTHS.desktop);
  await look(page, 'admin-users');
  await card.getByRole('button', { name: 'View Deposits' }).click();
  await expect(card.getByText('· Demo').first()).toBeVisible();
  await look(page, 'admin-user-deposits');
  await card.getByRole('button', { name: 'Hide Deposits' }).click();

  // Block asks, then says it is done; Unblock asks too, and says so.
  await card.getByRole('button', { name: 'Block' }).click();
  await expect(page.getByRole('alertdialog', { name: `Block ${NAME}?` })).toBeVisible();
  await look(page, 'admin-block-confirm');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Block' }).click();
  await expect(card.getByText('BLOCKED')).toBeVisible();
  await look(page, 'admin-block-done', { toast: `User blocked: ${NAME}` });
  await card.getByRole('button', { name: 'Unblock' }).click();
  const unblock = page.getByRole('alertdialog', { name: `Unblock ${NAME}?` });
  await expect(unblock).toContainText('can sign in and use the account again');
  await look(page, 'admin-unblock-confirm');
  await unblock.getByRole('button', { name: 'Unblock' }).click();
  await expect(toast(page, `User unblocked: ${NAME}`)).toBeVisible();
  await expect(card.getByText('BLOCKED')).toHaveCount(0);

  // Cy's balance: the confirmation names him whole, inside the dialog.
  const cyCard = page.locator('section').filter({ hasText: cy.email });
  await cyCard.getByRole('button', { name: 'Update Balance' }).click();
  // Open, the toggle reads "Close Update Balance": the submit is the form's button.
  const balanceForm = cyCard.getByRole('form', { name: /Update balance/ });
  // Too large says so, with the limit.
  await balanceForm.getByLabel('New Balance (USDC)').fill('1000000000000');
  await balanceForm.getByRole('button', { name: 'Update Balance' }).click();
  await expect(balanceForm.getByText('Amount must be at most 1,000,000,000 USDC')).toBeVisible();
  await look(page, 'admin-balance-too-large', { toast: 'Amount must be at most 1,000,000,000 USDC' });
  await balanceForm.getByLabel('New Balance (USDC)').fill('1234567.89');
  await balanceForm.getByRole('button', { name: 'Update Balance' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Update balance?' });
  await expect(confirm.getByText('Difference')).toBeVisible();
  await look(page, 'admin-balance-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  // The audit log in names and words, not "user_block" and ids.
  await openTab(page, 'Audit Log');
  const blocked = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'User blocked' }) });
  await expect(blocked.first()).toContainText(`User ${NAME} (${ada.email})`);
  await expect(page.getByRole('heading', { name: 'Deposit approved' }).first()).toBeVisible();
  await expect(page.getByText('user_block')).toHaveCount(0);
  await expect(page.getByRole('option', { name: 'User unblocked' })).toBeAttached();
  await look(page, 'admin-audit');
});
