import { expect, test, type Page } from '@playwright/test';
import { stepOf, totpAt } from '../../apps/server/src/lib/totp.ts';
import { signIn, signUpInvestor, toast } from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * Re-authentication through the screens: turning two-factor sign-in on, and an administrator's
 * e-mail change, ask for the current password; a wrong one is shown and the session stays.
 */
let app: RunningApp;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => app?.stop());

async function openProfile(page: Page) {
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  return page.getByRole('dialog', { name: 'Profile' });
}

test('an investor turns on two-factor sign-in with their password', async ({ page }) => {
  const ada = await signUpInvestor(app, { firstName: 'Ada', lastName: 'Secure' });
  await signIn(page, app, ada);
  const dialog = await openProfile(page);
  const section = dialog.getByRole('region', { name: 'Two-factor authentication' });
  await section.getByRole('button', { name: 'Turn on with an authenticator app' }).click();
  await section.getByLabel('Password', { exact: true }).fill('not-my-password');
  await section.getByRole('button', { name: 'Continue' }).click();
  await expect(toast(page, 'Current password is incorrect')).toBeVisible();
  // Still signed in: a wrong confirmation password does not end the session.
  await expect(page).toHaveURL(/\/dashboard$/);

  await section.getByLabel('Password', { exact: true }).fill(ada.password);
  await section.getByRole('button', { name: 'Continue' }).click();
  await expect(section.getByRole('img', { name: 'Authenticator QR code' })).toBeVisible();
  const secret = (await section.locator('p.font-mono').innerText()).trim();
  await section.getByLabel('Authentication code').fill(totpAt(secret, stepOf(new Date())));
  await section.getByRole('button', { name: 'Confirm' }).click();
  await expect(section.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await section.getByRole('button', { name: 'I saved them' }).click();
  await expect(section.getByText('On', { exact: true })).toBeVisible();
  const me = await app.api('POST', '/login', { body: { email: ada.email, password: ada.password } });
  expect(me.data.code).toBe('two_factor_required');
});

test('an administrator changes their e-mail with their password', async ({ page }) => {
  await signIn(page, app, ADMIN);
  const dialog = await openProfile(page);
  await dialog.getByRole('button', { name: 'Edit Profile' }).click();
  const newEmail = `e2e-admin.${Date.now()}@harvest.local`;
  await dialog.getByLabel('Email', { exact: true }).fill(newEmail);
  const confirm = dialog.getByLabel('Password to confirm the new email', { exact: true });
  await confirm.fill('not-the-password');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Current password is incorrect')).toBeVisible();
  await confirm.fill(ADMIN.password);
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Profile updated')).toBeVisible();
  await expect(dialog.getByText(newEmail, { exact: true })).toBeVisible();
  expect((await app.api('POST', '/login', { body: { email: newEmail, password: ADMIN.password } })).status).toBe(200);
});
