import { expect, test } from '@playwright/test';
import { look, WIDTHS } from '../support/look.ts';
import { openTab, randomTxHash, signIn, signUpInvestor, tokenFor, type Person, toast } from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * Issue 14 as a person meets it: every screen at 1280 px and 375 px passes axe-core with no violation
 * (look() fails the build on one) and leaves a screenshot in e2e/screenshots/; the signup fields are
 * inside the card and wide enough to read; errors raised in dialogs show in them; an expired session
 * returns to sign-in and then to the same screen; weekend rules are shown before anyone clicks.
 */

const MONDAY_9 = '2026-11-16T09:00:00Z';
const SATURDAY = '2026-11-21T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';

let app: RunningApp;
let ada: Person;

// Each look() runs axe and takes a screenshot at two widths: a journey through many screens takes minutes.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

test.beforeAll(async () => {
  app = await startApp();
  await app.setClock(MONDAY_9);
  const admin = await tokenFor(app, ADMIN);
  ada = await signUpInvestor(app, { firstName: 'Ada', lastName: 'Lovelace', inviterToken: admin });
  const d = await app.api<{ deposit: { _id: string } }>('POST', '/user/process-deposit', {
    token: ada.token,
    body: { txHash: randomTxHash(), amount: 250, fromAddress: FROM },
  });
  await app.api('POST', '/admin/process-deposit', { token: admin, body: { depositId: d.data.deposit._id } });
  await app.api('POST', '/user/invest', { token: ada.token, body: { amount: 100 } });
});
test.afterAll(async () => app?.stop());

test('signup: every field inside the card and readable at both widths; inline errors and the toast', async ({
  page,
}) => {
  const code = (await app.api<{ code: string }>('POST', '/user/generate-invitation', { token: ada.token })).data.code;
  for (const size of Object.values(WIDTHS)) {
    await page.setViewportSize(size);
    await page.goto(`${app.baseURL}/signup?code=${code}`);
    await expect(page.getByRole('heading', { name: 'Create Account' })).toBeFocused();
    await expect(page.getByText('invitation code from an existing member')).toBeVisible();
    const card = await page
      .locator('form')
      .locator('xpath=ancestor::div[contains(@class,"rounded-2xl")][1]')
      .boundingBox();
    if (!card) throw new Error('no signup card');
    const inputs = page.locator('form input, form select');
    const n = await inputs.count();
    expect(n).toBeGreaterThanOrEqual(10);
    for (let i = 0; i < n; i++) {
      const box = await inputs.nth(i).boundingBox();
      if (!box) throw new Error(`input ${i} has no box`);
      const label = (await inputs.nth(i).getAttribute('aria-label')) ?? (await inputs.nth(i).getAttribute('name'));
      expect(box.width, `${label} at ${size.width} px`).toBeGreaterThanOrEqual(120);
      expect(box.x, `${label} left edge`).toBeGreaterThanOrEqual(card.x);
      expect(box.x + box.width, `${label} right edge`).toBeLessThanOrEqual(card.x + card.width + 0.5);
    }
    const phone = page.getByLabel('Phone Number');
    await phone.fill('2025550123');
    await expect(phone).toHaveValue('2025550123');
  }
  await page.setViewportSize(WIDTHS.desktop);
  await look(page, 'signup');

  await page.getByLabel('Phone Number').fill('');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'All fields are required, including verification code')).toBeVisible();
  // Each empty field says so where it is.
  for (const label of ['First Name', 'Last Name', 'Email', 'Verification Code', 'Phone Number'])
    await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await look(page, 'signup-errors', { toast: 'All fields are required, including verification code' });
});

test('login, its errors, and an expired session that returns to the same screen', async ({ page }) => {
  await page.goto(`${app.baseURL}/login`);
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeFocused();
  await look(page, 'login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(toast(page, 'Email and password are required')).toBeVisible();
  // An error toast on screen: checked by axe and photographed at both widths.
  await look(page, 'login-errors', { toast: 'Email and password are required' });

  await signIn(page, app, ada);
  await openTab(page, 'Investments');
  await expect(page).toHaveURL(/tab=investments/);
  // The session ends elsewhere (logout on another device): the next poll is a 401.
  const other = await tokenFor(app, ada);
  await app.api('POST', '/user/logout', { token: other });
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your session has expired. Please sign in again.')).toBeVisible();
  await look(page, 'session-expired');
  await page.getByLabel('Email').fill(ada.email);
  await page.getByLabel('Password', { exact: true }).fill(ada.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=investments$/);
});

test('investor screens, dialogs and their errors', async ({ page }) => {
  await signIn(page, app, ada);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('note', { name: 'Demo mode' })).toBeVisible();
  await look(page, 'investor-dashboard');

  await openTab(page, 'Deposit');
  await expect(page.getByText('Current Balance')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recent deposits' })).toBeVisible();
  await look(page, 'investor-deposit');

  await openTab(page, 'Tiers');
  await expect(page.getByRole('button', { name: /Invest Now in/ }).first()).toBeEnabled();
  await look(page, 'investor-tiers');
  await page.getByRole('button', { name: 'Invest Now in Starter' }).click();
  const invest = page.getByRole('dialog', { name: 'Confirm investment' });
  await expect(invest.getByText('Earning per completed 8-hour cycle')).toBeVisible();
  await look(page, 'investor-invest-dialog');
  await invest.getByRole('button', { name: 'Cancel' }).click();

  await openTab(page, 'Investments');
  await expect(page.getByRole('button', { name: /Start Earning/ })).toBeEnabled();
  await expect(page.getByText('No available funds to withdraw')).toHaveCount(0);
  await look(page, 'investor-investments');

  // Withdraw All with an empty wallet: the error is in the dialog, at the field.
  await page.getByRole('button', { name: 'Withdraw All' }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdraw All' });
  await dialog.getByLabel('Wallet Address (Polygon USDC)').fill('');
  await dialog.getByRole('button', { name: 'Review Withdrawal' }).click();
  await expect(dialog.getByText('Please enter your wallet address')).toBeVisible();
  await expect(toast(page, 'Please enter your wallet address')).toBeVisible();
  await look(page, 'investor-withdraw-all-error', { toast: 'Please enter your wallet address' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await openTab(page, 'Referrals');
  await look(page, 'investor-referrals');

  await page.getByRole('button', { name: 'Profile menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await look(page, 'investor-profile-menu');
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Profile' });
  await expect(profile.getByText('Two-factor authentication', { exact: true })).toBeVisible();
  await look(page, 'investor-profile');

  // Two-factor set-up: the password step, the QR code, and a wrong code refused inside the dialog.
  await profile.getByRole('button', { name: 'Turn on with an authenticator app' }).click();
  await look(page, 'investor-2fa-password');
  await profile.getByLabel('Password', { exact: true }).fill(ada.password);
  await profile.getByRole('button', { name: 'Continue' }).click();
  await expect(profile.getByRole('img', { name: 'Authenticator QR code' })).toBeVisible();
  await look(page, 'investor-2fa-setup');
  await profile.getByLabel('Authentication code', { exact: true }).fill('12345');
  await profile.getByRole('button', { name: 'Confirm' }).click();
  await expect(profile.getByLabel('Authentication code', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await look(page, 'investor-2fa-code-error');
  await page.keyboard.press('Escape');

  // A wrong current password: said at that field, in the dialog, and in a toast.
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  await profile.getByRole('button', { name: 'Edit Profile' }).click();
  await profile.getByLabel('Current Password', { exact: true }).fill('not-my-password-1');
  await profile.getByLabel('New Password', { exact: true }).fill('a-new-password-1');
  await profile.getByLabel('Confirm New Password', { exact: true }).fill('a-new-password-1');
  await profile.getByRole('button', { name: 'Save Changes' }).click();
  await expect(profile.getByText('Current password is incorrect')).toBeVisible();
  await expect(profile.getByLabel('Current Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await look(page, 'investor-profile-password-error', { toast: 'Current password is incorrect' });
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Invite a Friend' }).getByRole('img', { name: /QR code/ }),
  ).toBeVisible();
  await look(page, 'investor-invite');
  await page.keyboard.press('Escape');
});

test('first run: an empty dashboard invites the first deposit', async ({ page }) => {
  const bea = await signUpInvestor(app, { firstName: 'Bea', lastName: 'Newcomer' });
  await signIn(page, app, bea);
  await expect(page.getByRole('heading', { name: 'Welcome to Harvest Farm' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Make your first deposit' })).toBeVisible();
  await look(page, 'investor-first-run');
  await page.getByRole('link', { name: 'Make your first deposit' }).click();
  await expect(page).toHaveURL(/tab=deposit/);
  await expect(page.getByRole('tab', { name: 'Deposit', exact: true })).toHaveAttribute('aria-selected', 'true');
});

test('weekend: complete, start and invest are off with the reason before anyone clicks', async ({ page }) => {
  const admin = await tokenFor(app, ADMIN);
  const inv = await app.api<{ activeInvestments: { _id: string }[] }>('GET', '/user/dashboard', {
    token: await tokenFor(app, ada),
  });
  void admin;
  await app.api('POST', '/user/start-earning', {
    token: await tokenFor(app, ada),
    body: { investmentId: inv.data.activeInvestments[0]?._id },
  });
  await app.setClock(SATURDAY);
  await signIn(page, app, ada);
  await openTab(page, 'Investments');
  await expect(page.getByText('Complete on Monday')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Complete Cycle' })).toBeDisabled();
  await expect(page.getByText('Earnings cannot be completed on weekends. Please wait until Monday.')).toBeVisible();
  await look(page, 'weekend-investments');
  await openTab(page, 'Tiers');
  await expect(page.getByRole('button', { name: /Invest Now in/ }).first()).toBeDisabled();
  await expect(
    page.getByText('Investments are only available Monday through Friday. Please try again on a weekday.'),
  ).toBeVisible();
  await look(page, 'weekend-tiers');
  await app.setClock(MONDAY_9);
});

test('cycle running and the 48-hour wait: countdowns beside their end time, each with a progress bar', async ({
  page,
}) => {
  // The cycle started on Monday 9:00 (weekend test); at 13:00 it is half-way.
  await app.setClock('2026-11-16T13:00:00Z');
  await signIn(page, app, ada);
  await openTab(page, 'Investments');
  await expect(page.getByText(/left \(ends Mon,? 5:\d\d PM UTC\)/)).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Cycle progress' })).toBeVisible();
  await look(page, 'investor-cycle-running');

  // Completed, withdrawn and approved: the next cycle waits 48 hours.
  await app.setClock('2026-11-16T17:05:00Z');
  const token = await tokenFor(app, ada);
  const admin = await tokenFor(app, ADMIN);
  const inv = await app.api<{ activeInvestments: { _id: string }[] }>('GET', '/user/dashboard', { token });
  const done = await app.api('POST', '/user/complete-cycle', {
    token,
    body: { investmentId: inv.data.activeInvestments[0]?._id },
  });
  expect(done.status).toBe(200);
  const asked = await app.api('POST', '/withdrawal/request-all', {
    token,
    body: { walletAddress: FROM, withdrawalPassword: ada.withdrawalPassword },
  });
  expect(asked.status).toBe(200);
  const pending = await app.api<{ withdrawals: { _id: string; source: string }[] }>(
    'GET',
    '/withdrawal/admin/pending',
    { token: admin },
  );
  for (const w of pending.data.withdrawals)
    expect(
      (
        await app.api('POST', '/withdrawal/admin/approve', {
          token: admin,
          body: { withdrawalId: w._id, txHash: randomTxHash() },
        })
      ).status,
    ).toBe(200);
  await app.setClock('2026-11-17T09:00:00Z');
  await signIn(page, app, ada);
  await openTab(page, 'Investments');
  await expect(page.getByText('Your withdrawal was approved.', { exact: false })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: '48-hour wait' })).toBeVisible();
  await expect(page.getByText(/\(Wed,? 5:\d\d PM UTC\)/)).toBeVisible();
  await look(page, 'investor-48h-wait');
  await app.setClock(MONDAY_9);
});

test('admin screens and their confirmations', async ({ page }) => {
  // Something to process: Cy asks for a withdrawal.
  const admin = await tokenFor(app, ADMIN);
  const cy = await signUpInvestor(app, { firstName: 'Cy', lastName: 'Withdrawer' });
  const d = await app.api<{ deposit: { _id: string } }>('POST', '/user/process-deposit', {
    token: cy.token,
    body: { txHash: randomTxHash(), amount: 40, fromAddress: FROM },
  });
  await app.api('POST', '/admin/process-deposit', { token: admin, body: { depositId: d.data.deposit._id } });
  const w = await app.api('POST', '/withdrawal/request-all', {
    token: cy.token,
    body: { walletAddress: FROM, withdrawalPassword: cy.withdrawalPassword },
  });
  expect(w.status).toBe(200);

  await signIn(page, app, ADMIN);
  await expect(page.getByRole('heading', { level: 1, name: /Back office/ })).toBeVisible();
  await look(page, 'admin-overview');
  for (const [tab, name] of [
    ['Analytics', 'admin-analytics'],
    ['Deposits', 'admin-deposits'],
    ['Withdrawals', 'admin-withdrawals'],
    ['Referrals', 'admin-referrals'],
    ['Tiers', 'admin-tiers'],
    ['Audit Log', 'admin-audit'],
  ] as const) {
    await openTab(page, tab);
    await page.waitForLoadState('networkidle');
    await look(page, name);
  }

  // Withdrawals: the process panel, and the rejection's confirmation.
  await openTab(page, 'Withdrawals');
  await page.getByRole('button', { name: /Cy Withdrawer/ }).click();
  await expect(page.getByLabel('Transaction Hash')).toBeVisible();
  await look(page, 'admin-withdrawal-process');
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(page.getByRole('alertdialog', { name: 'Reject this withdrawal?' })).toBeVisible();
  await look(page, 'admin-withdrawal-reject-confirm');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();

  // Referrals: look up a user's network.
  await openTab(page, 'Referrals');
  await page.getByRole('searchbox', { name: 'Search users by name or e-mail' }).fill('Ada');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page
    .getByRole('list', { name: 'Matching users' })
    .getByRole('button', { name: 'Show network' })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: /Referral Network of Ada Lovelace/ })).toBeVisible();
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
  await look(page, 'admin-users');
  await card.getByRole('button', { name: 'View Deposits' }).click();
  await expect(card.getByText('· Demo')).toBeVisible();
  await look(page, 'admin-user-deposits');
  await card.getByRole('button', { name: 'Hide Deposits' }).click();
  await card.getByRole('button', { name: 'Block' }).click();
  await expect(page.getByRole('alertdialog', { name: 'Block Ada Lovelace?' })).toBeVisible();
  await look(page, 'admin-block-confirm');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByText('BLOCKED')).toHaveCount(0);

  await card.getByRole('button', { name: 'Update Balance' }).click();
  // Open, the toggle reads "Close Update Balance": the submit is the form's button.
  const balanceForm = card.getByRole('form', { name: /Update balance/ });
  await balanceForm.getByLabel('New Balance (USDC)').fill('200');
  await balanceForm.getByRole('button', { name: 'Update Balance' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Update balance?' });
  await expect(confirm.getByText('Difference')).toBeVisible();
  await look(page, 'admin-balance-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
});

test('blocked screen, and Logout works from it', async ({ page }) => {
  const admin = await tokenFor(app, ADMIN);
  await signIn(page, app, ada);
  await app.api('POST', `/user/admin/toggle-block/${ada.id}`, { token: admin });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account Blocked' })).toBeVisible();
  await look(page, 'blocked');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await app.api('POST', `/user/admin/toggle-block/${ada.id}`, { token: admin });
});
