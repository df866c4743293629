import { expect, test, type Browser, type Page } from '@playwright/test';
import { look } from '../support/look.ts';
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
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * Withdrawal limits and holds: the administrator sets the limits on the Withdrawals tab; an investor with a
 * seven-figure balance is refused a Withdraw All over their 24-hour limit (the error toast says when it becomes
 * possible), sees their limits and what is used of them in Profile, and after a password change sees the hold, in
 * English and in Arabic. Each screen is looked at (axe, 1280 and 375 px).
 */
const MONDAY = '2026-11-16T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';
const WALLET = '0x2222222222222222222222222222222222222222';

let app: RunningApp;
let maxi: Person;

test.describe.configure({ mode: 'serial', timeout: 300_000 });

test.beforeAll(async () => {
  app = await startApp();
  await app.setClock(MONDAY);
  maxi = await signUpInvestor(app, { firstName: LONG_FIRST_NAME, lastName: LONG_LAST_NAME });
  await creditedDeposit(app, maxi, 600_000, FROM);
});
test.afterAll(async () => app?.stop());

async function signedIn(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, app, who);
  return page;
}

async function withdrawAll(page: Page, who: Person) {
  await openTab(page, 'Investments');
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Cycle Withdrawals' }) });
  await section.getByRole('button', { name: 'Withdraw All' }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdraw All' });
  await dialog.getByLabel('Wallet Address (Polygon USDC)').fill(WALLET);
  await dialog.getByLabel('Withdrawal Password', { exact: true }).fill(who.withdrawalPassword);
  await dialog.getByRole('button', { name: 'Review Withdrawal' }).click();
  await dialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();
  return dialog;
}

async function openProfile(page: Page, menu: RegExp, item: string, title: string) {
  await page.getByRole('button', { name: menu }).click();
  await page.getByRole('menuitem', { name: item }).click();
  return page.getByRole('dialog', { name: title });
}

test('the administrator sets the withdrawal limits on the Withdrawals tab', async ({ browser }) => {
  const admin = await signedIn(browser, ADMIN);
  await openTab(admin, 'Withdrawals');
  const panel = admin.getByRole('form', { name: 'Withdrawal limits' });
  await panel.getByLabel('Per investor, 24 hours (USDC)').fill('1000000');
  await panel.getByLabel('Per investor, 30 days (USDC)').fill('2500000.5');
  await panel.getByLabel('Whole platform, 24 hours (USDC)').fill('0');
  await panel.getByRole('button', { name: 'Save limits' }).click();
  await expect(
    panel.getByText('A limit must be a USDC amount greater than 0 with at most 6 decimals, or empty for no limit'),
  ).toBeVisible();
  await panel.getByLabel('Whole platform, 24 hours (USDC)').fill('');
  await panel.getByRole('button', { name: 'Save limits' }).click();
  await expect(toast(admin, 'Withdrawal limits saved')).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await look(admin, 'limits-admin-policy', { toast: 'Withdrawal limits saved' });
  // The same panel in Arabic, right to left.
  await admin.getByLabel('Language').selectOption('ar');
  const arabic = admin.getByRole('form', { name: 'حدود السحب' });
  await expect(arabic.getByLabel('لكل مستثمر، 24 ساعة (USDC)')).toHaveValue('1000000');
  await arabic.scrollIntoViewIfNeeded();
  await look(admin, 'limits-admin-policy-ar');
  await admin.getByLabel('اللغة').selectOption('en');
  const saved = await app.api('GET', '/admin/withdrawal-policy', { token: await tokenFor(app, ADMIN) });
  expect(saved.data.policy).toMatchObject({
    perInvestorDay: 1_000_000,
    perInvestorMonth: 2_500_000.5,
    platformDay: null,
  });
  await admin.context().close();
});

test('an investor over their 24-hour limit is refused with when it becomes possible; Profile shows the use', async ({
  browser,
}) => {
  // The clock moves on from here (the first test may take over a minute): the refusal names this time plus 24 hours.
  await app.setClock('2026-11-16T10:00:00Z');
  const page = await signedIn(browser, maxi);
  // 600,000 is within 1,000,000: it is requested.
  let dialog = await withdrawAll(page, maxi);
  await expect(toast(page, /^Withdrawal request submitted for/)).toBeVisible();
  await expect(dialog).toBeHidden();
  // Two hours later 634,567.891234 more arrives: 1,234,567.891234 in 24 hours would go over.
  await app.setClock('2026-11-16T12:00:00Z');
  await creditedDeposit(app, maxi, 634_567.891234, FROM);
  await page.reload();
  dialog = await withdrawAll(page, maxi);
  const refusal =
    'This withdrawal of 634,567.891234\u00a0USDC would go over your limit of 1,000,000.00\u00a0USDC per 24 hours: possible again on Nov 17, 2026, 10:00 (UTC).';
  await expect(toast(page, refusal)).toBeVisible();
  await look(page, 'limits-refused', { toast: refusal });
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const profile = await openProfile(page, /^Profile menu/, 'Edit Profile', 'Profile');
  const limits = profile.getByRole('region', { name: 'Withdrawal limits' });
  await expect(limits.getByText('600,000.00\u00a0USDC used of 1,000,000.00\u00a0USDC')).toBeVisible();
  await expect(limits.getByText('600,000.00\u00a0USDC used of 2,500,000.50\u00a0USDC')).toBeVisible();
  await limits.scrollIntoViewIfNeeded();
  await look(page, 'limits-profile');
  await page.context().close();
});

test('after a password change the hold shows in Profile, and Withdraw All says when, in Arabic', async ({
  browser,
}) => {
  await app.setClock('2026-11-17T11:00:00Z');
  const token = await tokenFor(app, maxi);
  const changed = await app.api('PUT', '/user/profile', {
    token,
    body: {
      firstName: LONG_FIRST_NAME,
      lastName: LONG_LAST_NAME,
      currentPassword: maxi.password,
      newPassword: `${maxi.password}-2`,
      confirmPassword: `${maxi.password}-2`,
    },
  });
  expect(changed.status).toBe(200);
  maxi = { ...maxi, password: `${maxi.password}-2` };
  await app.api('PUT', '/user/preferences', { token: await tokenFor(app, maxi), body: { locale: 'ar' } });
  const page = await signedIn(browser, maxi);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByRole('tab', { name: 'الاستثمارات', exact: true }).click();
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'سحوبات الدورات' }) });
  await section.getByRole('button', { name: 'سحب الكل' }).click();
  const dialog = page.getByRole('dialog', { name: 'سحب الكل' });
  await dialog.getByRole('textbox').first().fill(WALLET);
  await dialog.locator('input[type="password"]').fill(maxi.withdrawalPassword);
  await dialog.getByRole('button', { name: 'مراجعة السحب' }).click();
  await dialog.getByRole('button', { name: 'تأكيد السحب' }).click();
  const held = page
    .locator('.Toastify')
    .getByText(/^عمليات السحب معلّقة مدة 24 ساعة بعد تغيير أمني في حسابك: ممكن مجددًا في /);
  await expect(held).toBeVisible();
  await look(page, 'limits-hold-ar', { toast: (await held.textContent()) ?? '' });
  await page.keyboard.press('Escape');

  const profile = await openProfile(page, /^قائمة الملف الشخصي/, 'تعديل الملف الشخصي', 'الملف الشخصي');
  const limits = profile.getByRole('region', { name: 'حدود السحب' });
  await expect(limits.getByRole('status')).toContainText('عمليات السحب معلّقة حتى');
  await limits.scrollIntoViewIfNeeded();
  await look(page, 'limits-profile-ar');
  await page.context().close();
});
