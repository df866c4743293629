import { expect, test } from '@playwright/test';
import { look } from '../support/look.ts';
import { freshDataDir } from '../support/fresh-data-dir.ts';
import {
  LONG_FIRST_NAME,
  LONG_LAST_NAME,
  creditedDeposit,
  openTab,
  signIn,
  signUpInvestor,
  toast,
  tokenFor,
  type Person,
} from '../support/people.ts';
import { ADMIN, startApp, type RunningApp } from '../support/server.ts';

/**
 * Staff roles and four-eyes in the browser: an owner invites a finance member (who sets a password on the e-mailed
 * link's page), then, with FOUR_EYES=on, the finance member's Update Balance waits in Approvals until the owner
 * approves it; the investor's Profile says two staff members decide. English and Arabic, 1280 and 375 px.
 */
test.describe.configure({ mode: 'serial' });

const data = freshDataDir();
let app: RunningApp;
let investor: Person;
const finance = { email: 'finance.member@example.com', password: 'finance-member-pass-1' };

test.afterAll(async () => {
  await app?.stop();
  data.remove();
});

test('an owner invites a finance member, who chooses a password on the link’s page', async ({ page }) => {
  // One person runs the platform (four-eyes off) while the staff is put together.
  app = await startApp({ DATA_DIR: data.dir });
  const owner = await tokenFor(app, ADMIN);
  const sent = await app.api('POST', '/admin/staff/invite', {
    token: owner,
    body: { email: finance.email, firstName: LONG_FIRST_NAME, lastName: LONG_LAST_NAME, role: 'finance' },
  });
  expect(sent.data).toEqual({ message: `Invitation sent to ${finance.email}` });
  investor = await signUpInvestor(app, { firstName: 'Ada', lastName: 'Lovelace' });
  await creditedDeposit(app, investor, 1_250_000, '0x52908400098527886E0F7030069857D2E4169EE7');

  await expect.poll(() => app.smtp.mailsTo(finance.email).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const mail = app.smtp.mailsTo(finance.email).at(-1)!;
  const link = /(http:\/\/\S+\/staff-invite#token=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect(link).toBeDefined();
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Join the staff' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(finance.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(finance.password);
  await look(page, 'staff-invite');
  await page.getByRole('button', { name: 'Set my password' }).click();
  await expect(page.getByRole('status')).toHaveText('Welcome to the team. Sign in with your e-mail and new password.');
  await app.stop();
});

test('with four-eyes, a finance member proposes; the owner approves in Approvals', async ({ page }) => {
  app = await startApp({ DATA_DIR: data.dir, FOUR_EYES: 'on' });
  // The finance member sees the money screens but not the Staff tab.
  await signIn(page, app, finance);
  await expect(page.getByRole('tab', { name: 'Approvals', exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Staff', exact: true })).toHaveCount(0);
  const proposed = await app.api('POST', '/admin/update-user-balance', {
    token: await tokenFor(app, finance),
    body: { userId: investor.id, newBalance: 1_500_000.5, expectedBalance: 1_250_000, note: 'Correction' },
  });
  expect(proposed.status).toBe(202);
  await openTab(page, 'Approvals');
  await expect(page.getByText('You proposed this: another staff member approves it.')).toBeVisible();
  await look(page, 'staff-approvals-proposer');

  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signIn(page, app, ADMIN);
  await openTab(page, 'Approvals');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Update Balance' }) });
  await expect(card).toContainText('Ada Lovelace');
  await expect(card).toContainText('1,250,000.0000\u00a0USDC → 1,500,000.5000\u00a0USDC');
  await expect(card).toContainText(`${LONG_FIRST_NAME} ${LONG_LAST_NAME}`);
  await look(page, 'staff-approvals');
  await card.getByRole('button', { name: 'Approve' }).click();
  await look(page, 'staff-approve-confirm');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
  await expect(toast(page, 'Approved: the change is made')).toBeVisible();
  await expect(page.getByText('Nothing waits for approval.')).toBeVisible();

  // A tier edit as the Tiers form sends it (every field): the approver sees each change it makes, a long name too.
  const financeToken = await tokenFor(app, finance);
  const tiers = (await app.api('GET', '/admin/tiers', { token: financeToken })).data.tiers as {
    _id: string;
    name: string;
    amount: number;
    dailyRate: number;
    active: boolean;
    sortOrder: number;
  }[];
  const tier = tiers[0]!;
  const longName = 'Platinum Harvest Reserve Tier for Long-Term Patient Investors';
  const { name, amount, active, sortOrder } = tier;
  const edited = await app.api('PUT', `/admin/tiers/${tier._id}`, {
    token: financeToken,
    body: { name: longName, amount, dailyRate: tier.dailyRate + 0.5, active, sortOrder },
  });
  expect(edited.status).toBe(202);
  await page.reload();
  const tierCard = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Tier amount or rate' }) });
  await expect(tierCard).toContainText(longName);
  await expect(tierCard).toContainText(name);
  await expect(tierCard).toContainText('Daily rate');
  await expect(tierCard).not.toContainText('Amount');
  await look(page, 'staff-approvals-tier');
  await tierCard.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Nothing waits for approval.')).toBeVisible();
  const after = (await app.api('GET', '/admin/tiers', { token: financeToken })).data.tiers as typeof tiers;
  expect(after.find((x) => x._id === tier._id)).toMatchObject({ name: longName, dailyRate: tier.dailyRate + 0.5 });

  await openTab(page, 'Staff');
  await expect(page.getByText(finance.email)).toBeVisible();
  await look(page, 'staff-list');
});

test('Arabic: the Approvals and Staff tabs read right to left', async ({ page }) => {
  await app.api('PUT', '/user/preferences', { token: await tokenFor(app, ADMIN), body: { locale: 'ar' } });
  await signIn(page, app, ADMIN);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await openTab(page, 'الموافقات');
  await expect(page.getByText('لا شيء ينتظر الموافقة.')).toBeVisible();
  await look(page, 'staff-ar-approvals');
  await openTab(page, 'الموظفون');
  await look(page, 'staff-ar-list');
});

test('the investor’s Profile says changes to their money need two staff members', async ({ page }) => {
  await signIn(page, app, investor);
  await page.getByRole('button', { name: /^Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  await expect(page.getByText('Changes to your money need two staff members')).toBeVisible();
  await look(page, 'staff-investor-profile');
});
