import { expect, test, type Page } from '@playwright/test';
import { openTab, randomTxHash, signIn, signUpInvestor, type Person, toast, stat } from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * Deposit rejection as people see it: an administrator rejects a pending deposit with a reason, the investor
 * reads it in Failed Deposits (and by e-mail), corrects the hash, amount and from-address, the
 * administrator approves the corrected deposit and the balance is credited (and mailed). A second
 * failed deposit is dismissed from the list and stays in the history.
 */

const FROM = '0x1111111111111111111111111111111111111111';
const RIGHT_FROM = '0x3333333333333333333333333333333333333333';
const REASON = 'Wrong sender: nothing arrived from 0x1111…1111. Enter the address you sent from.';

let app: RunningApp;
let ada: Person;
test.beforeAll(async () => {
  app = await startApp({ MAIL_OUTBOX_INTERVAL_MS: '200' });
  ada = await signUpInvestor(app, { firstName: 'Ada', lastName: 'Reject' });
});
test.afterAll(async () => app?.stop());

async function submitDeposit(page: Page, hash: string, amount: string) {
  const form = page.getByRole('form', { name: 'Submit deposit' });
  await form.getByLabel('Transaction Hash').fill(hash);
  await form.getByLabel('Amount (USDC)').fill(amount);
  await form.getByLabel('From Address').fill(FROM);
  await form.getByRole('button', { name: 'Submit Deposit' }).click();
  await expect(toast(page, 'Deposit submitted. It will be credited once it is confirmed.')).toBeVisible();
}

test('admin rejects with a reason, the investor corrects it, the admin approves, the balance is credited', async ({
  page,
  browser,
}) => {
  await signIn(page, app, ada);
  await openTab(page, 'Deposit');
  await submitDeposit(page, randomTxHash(), '40');

  // The administrator rejects it: a dialog asks for the reason and confirms.
  const adminPage = await (await browser.newContext()).newPage();
  await signIn(adminPage, app, ADMIN);
  await openTab(adminPage, 'Deposits');
  const filters = adminPage.getByRole('group', { name: 'Filter deposits by status' });
  await filters.getByRole('button', { name: 'Pending (1)' }).click();
  await adminPage.getByRole('button', { name: 'Reject deposit of 40.00 USDC by Ada Reject' }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Reject deposit' });
  await expect(dialog).toContainText('Reject the deposit of 40.00 USDC by Ada Reject?');
  await dialog.getByRole('button', { name: 'Reject deposit' }).click();
  await expect(toast(adminPage, 'Please enter the reason for rejecting this deposit')).toBeVisible();
  await dialog.getByLabel('Reason').fill(REASON);
  await dialog.getByRole('button', { name: 'Reject deposit' }).click();
  await expect(toast(adminPage, 'Deposit rejected')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(filters.getByRole('button', { name: 'Pending (0)' })).toBeVisible();
  await expect(filters.getByRole('button', { name: 'Failed (1)' })).toBeVisible();

  // The investor reads the reason in Failed Deposits (and in an e-mail).
  await page.reload();
  await openTab(page, 'Deposit');
  const failedArea = page.locator('section', { has: page.getByRole('heading', { name: 'Failed Deposits' }) });
  await expect(failedArea.getByText(REASON, { exact: true })).toBeVisible();
  await expect.poll(() => app.smtp.mailsTo(ada.email).map((m) => m.subject)).toContain('Deposit failed: 40.00 USDC');
  expect(app.smtp.mailsTo(ada.email).find((m) => m.subject.startsWith('Deposit failed'))?.text).toContain(REASON);

  // The correction form offers the from-address for a rejected deposit.
  const fix = failedArea.getByRole('form', { name: 'Correct failed deposit' });
  await expect(fix.getByLabel('From Address')).toHaveValue(FROM);
  await fix.getByLabel('From Address').fill('0x1234');
  await fix.getByRole('button', { name: 'Update & Retry' }).click();
  await expect(toast(page, 'Invalid wallet address: expected 0x followed by 40 hex characters')).toBeVisible();
  const corrected = randomTxHash();
  await fix.getByLabel('Transaction Hash').fill(corrected);
  await fix.getByLabel('Amount (USDC)').fill('42.5');
  await fix.getByLabel('From Address').fill(RIGHT_FROM);
  await fix.getByRole('button', { name: 'Update & Retry' }).click();
  await expect(toast(page, 'Deposit updated and submitted for verification again')).toBeVisible();
  await expect(failedArea).toBeHidden();
  const recent = page.getByRole('list', { name: 'Recent deposits' });
  await expect(recent.getByRole('listitem').first().getByText('Pending', { exact: true })).toBeVisible();

  // The administrator approves the corrected deposit.
  await adminPage.reload();
  await openTab(adminPage, 'Deposits');
  await filters.getByRole('button', { name: 'Pending (1)' }).click();
  await expect(adminPage.getByText(`from ${RIGHT_FROM}`)).toBeVisible();
  await adminPage.getByRole('button', { name: 'Approve deposit of 42.50 USDC by Ada Reject' }).click();
  await adminPage
    .getByRole('alertdialog', { name: 'Approve deposit?' })
    .getByRole('button', { name: 'Approve and credit' })
    .click();
  await expect(toast(adminPage, 'Deposit approved and credited')).toBeVisible();
  await adminPage.context().close();

  // The balance is credited, and the receipt says so.
  await page.reload();
  await openTab(page, 'Deposit');
  await expect(stat(page, 'Current Balance')).toHaveText('42.5000 USDC');
  await expect(recent.getByRole('listitem').first().getByText('Confirmed', { exact: true })).toBeVisible();
  await expect.poll(() => app.smtp.mailsTo(ada.email).map((m) => m.subject)).toContain('Deposit confirmed: 42.50 USDC');
  expect(app.smtp.mailsTo(ada.email).find((m) => m.subject.startsWith('Deposit confirmed'))?.text).toMatch(
    /New balance:\s+42\.50 USDC/,
  );
});

test('a failed deposit the investor no longer wants is dismissed from the list and kept in the history', async ({
  page,
}) => {
  const hash = randomTxHash();
  const admin = await app.adminToken();
  await signIn(page, app, ada);
  await openTab(page, 'Deposit');
  await submitDeposit(page, hash, '7');
  const history = await app.api<{ deposits: { _id: string; txHash: string }[] }>('GET', '/user/deposit-history', {
    token: ada.token,
  });
  const id = history.data.deposits.find((d) => d.txHash === hash)?._id;
  const rejected = await app.api('POST', '/admin/reject-deposit', {
    token: admin,
    body: { depositId: id, reason: 'Sent twice by mistake' },
  });
  expect(rejected.status).toBe(200);

  await page.reload();
  await openTab(page, 'Deposit');
  const failedArea = page.locator('section', { has: page.getByRole('heading', { name: 'Failed Deposits' }) });
  await expect(failedArea.getByText('Sent twice by mistake', { exact: true })).toBeVisible();
  await failedArea.getByRole('button', { name: 'Dismiss failed deposit of 7.00 USDC' }).click();
  await expect(toast(page, 'Deposit removed from the failed deposits list')).toBeVisible();
  await expect(failedArea).toBeHidden();
  const recent = page.getByRole('list', { name: 'Recent deposits' });
  await expect(recent.getByRole('listitem').first().getByText('Failed', { exact: true })).toBeVisible();
  await expect(recent.getByRole('listitem').first()).toContainText('7.00 USDC');
});
