import { expect, test } from '@playwright/test';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';
import { toast } from '../support/people.ts';

let app: RunningApp;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => app?.stop());

test('invited person signs up, stays signed in, edits profile, invites, is blocked and unblocked', async ({ page }) => {
  const adminToken = await app.adminToken();
  const { code } = (await app.api<{ code: string }>('POST', '/user/generate-invitation', { token: adminToken })).data;

  // The invitation link pre-fills the code.
  await page.goto(`${app.baseURL}/signup?code=${code}`);
  await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible();
  await expect(page.getByLabel('Invitation Code')).toHaveValue(code);
  await expect(page.getByText('Investment Platform', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invite' })).toHaveCount(0);

  // Validation messages, word for word.
  await page.getByRole('button', { name: 'Send Otp' }).click();
  await expect(toast(page, 'Please enter email first')).toBeVisible();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'All fields are required, including verification code')).toBeVisible();

  const email = `ada.${Date.now()}@example.com`;
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Otp' }).click();
  await expect(toast(page, 'Verification code sent to your email')).toBeVisible();
  const otp = app.smtp.codeFor(email);
  await page.getByLabel('Verification Code').fill(otp);
  await expect(page.getByLabel('Country code')).toHaveValue('US');
  expect(await page.getByLabel('Country code').locator('option').count()).toBeGreaterThan(230);
  await page.getByLabel('Phone Number').fill('5551234567');
  await page.getByLabel('Password', { exact: true }).fill('first-pass');
  await page.getByLabel('Confirm Password', { exact: true }).fill('other-pass');
  await page.getByLabel('Withdrawal Password', { exact: true }).fill('withdraw-pass');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'Passwords do not match')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('abc');
  await page.getByLabel('Confirm Password', { exact: true }).fill('abc');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'Password must be at least 6 characters')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('first-pass');
  await page.getByLabel('Confirm Password', { exact: true }).fill('first-pass');
  await page.getByRole('button', { name: 'Show password' }).first().click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('tab', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Deposit' })).toBeVisible();

  // Stays signed in across a reload.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Referrals' })).toBeVisible();

  // Profile menu: name and e-mail, Edit Profile.
  await page.getByRole('button', { name: 'Profile menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText('Ada Lovelace')).toBeVisible();
  await expect(menu.getByText(email)).toBeVisible();
  expect((await menu.boundingBox())?.width).toBeGreaterThanOrEqual(200);
  await menu.getByRole('menuitem', { name: 'Edit Profile' }).click();
  await expect(menu).toHaveCount(0);
  const dialog = page.getByRole('dialog', { name: 'Profile' });
  await expect(dialog.getByText('+1 5551234567')).toBeVisible();
  await dialog.getByRole('button', { name: 'Edit Profile' }).click();
  await expect(dialog.getByLabel('Email')).toBeDisabled();
  await dialog.getByLabel('First Name').fill('Augusta');
  await dialog.getByLabel('New Password', { exact: true }).fill('second-pass');
  await dialog.getByLabel('Confirm New Password', { exact: true }).fill('second-pasx');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'New passwords do not match')).toBeVisible();
  await dialog.getByLabel('New Password', { exact: true }).fill('short');
  await dialog.getByLabel('Confirm New Password', { exact: true }).fill('short');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'New password must be at least 6 characters')).toBeVisible();
  await dialog.getByLabel('New Password', { exact: true }).fill('second-pass');
  await dialog.getByLabel('Confirm New Password', { exact: true }).fill('second-pass');
  await dialog.getByLabel('Current Password', { exact: true }).fill('first-pass');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog.getByText('Augusta Lovelace')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();

  // Invitation dialog with a QR image and the signup URL from this origin.
  await page.getByRole('button', { name: 'Invite' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a Friend' });
  await expect(invite.getByRole('img', { name: /QR code/ })).toBeVisible();
  const myCode = await invite.getByTestId('invitation-code').innerText();
  await expect(invite.getByTestId('signup-url')).toHaveText(`${app.baseURL}/signup?code=${myCode}`);
  await invite.getByRole('button', { name: 'Done' }).click();

  // Logout, then sign in with the new password.
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(toast(page, 'Email and password are required')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('first-pass');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(toast(page, 'Invalid email or password')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('second-pass');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // An admin blocks this person: the next call shows the Account Blocked screen.
  const me = (await app.api('POST', '/login', { body: { email, password: 'second-pass' } })).data.user;
  expect((await app.api('POST', `/user/admin/toggle-block/${me._id}`, { token: adminToken })).status).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account Blocked' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'help@harvest.example' })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('second-pass');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Account Blocked' })).toBeVisible();

  // Unblocking restores access.
  await app.api('POST', `/user/admin/toggle-block/${me._id}`, { token: adminToken });
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('second-pass');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('admin sign-in shows the admin tabs; admins cannot be blocked; / redirects', async ({ page }) => {
  await page.goto(`${app.baseURL}/`);
  await expect(page).toHaveURL(/\/signup$/);
  await page.goto(`${app.baseURL}/dashboard`);
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  for (const tab of ['Admin', 'Analytics', 'Users', 'Deposits', 'Withdrawals', 'Referrals'])
    await expect(page.getByRole('tab', { name: tab, exact: true })).toBeVisible();
  await page.goto(`${app.baseURL}/`);
  await expect(page).toHaveURL(/\/dashboard$/);
  const token = await app.adminToken();
  const me = (await app.api('GET', '/user/me', { token })).data.user;
  expect((await app.api('POST', `/user/admin/toggle-block/${me._id}`, { token })).status).toBe(400);
});

test('works at phone width', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${app.baseURL}/signup`);
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
  // Focus starts on the page heading; the first Tab reaches the first field. Before it come the header's language
  // menu and, first of all, the skip link.
  await expect(page.getByRole('heading', { name: 'Create Account' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Invitation Code')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByLabel('Language')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
});
