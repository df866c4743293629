import { expect, test } from '@playwright/test';
import { stepOf, totpAt } from '../../apps/server/src/lib/totp.ts';
import { expectOneLine, expectWholeTabs, framesPainted, look, WIDTHS } from '../support/look.ts';
import {
  creditedDeposit,
  openTab,
  randomTxHash,
  signIn,
  signUpInvestor,
  stat,
  tokenFor,
  type Person,
  toast,
  LONG_FIRST_NAME as FIRST,
  LONG_LAST_NAME as LAST,
  LONG_NAME as NAME,
} from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * The screens as a person meets them: every screen at 1280 px and 375 px passes axe-core with no violation
 * (look() fails the build on one) and leaves a screenshot in e2e/screenshots/; the signup fields are
 * inside the card and wide enough to read; errors raised in dialogs show in them; an expired session
 * returns to sign-in and then to the same screen; weekend rules are shown before anyone clicks.
 *
 * With long real data (a 60-character name, seven-figure balances) the layouts hold: the profile menu
 * fits the phone, amounts never break from their unit, the phone's tab bar shows every label, the balance card
 * is not a stretched box, the process panel comes into view on a phone, the chart's unit is clear of its ticks,
 * the weekend reason comes first; the forms say what is wrong (too long, too large), once; the two-factor step
 * is calm. The back office's screens are in admin-screens.spec.ts.
 */

const MONDAY_9 = '2026-11-16T09:00:00Z';
const SATURDAY = '2026-11-21T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';

let app: RunningApp;
let ada: Person;

// Each look() runs axe and takes a screenshot at two widths: a journey through many screens takes minutes.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

test.beforeAll(async () => {
  expect(NAME).toHaveLength(60);
  app = await startApp();
  await app.setClock(MONDAY_9);
  const admin = await tokenFor(app, ADMIN);
  ada = await signUpInvestor(app, { firstName: FIRST, lastName: LAST, inviterToken: admin });
  // A seven-figure balance after investing in a tier.
  await creditedDeposit(app, ada, 2_500_000.5, FROM);
  await app.api('POST', '/user/invest', { token: ada.token, body: { amount: 100 } });
});
test.afterAll(async () => app?.stop());

test('signup: every field inside the card and readable at both widths; one summary and each field marked', async ({
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
  // Looked at while the toast is on screen (look() holds it; the checks below take longer than it stays).
  await look(page, 'signup-errors', { toast: 'All fields are required, including verification code' });
  // Said once in the form, each empty field marked and pointing at that one sentence.
  const form = page.locator('form');
  await expect(form.getByText('All fields are required, including verification code')).toHaveCount(1);
  for (const label of ['First Name', 'Last Name', 'Email', 'Verification Code', 'Phone Number', 'Password']) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(/All fields are required, including verification code/);
  }
});

test('login: the heading takes focus without a ring; errors; an expired session returns to the same screen', async ({
  page,
}) => {
  await page.goto(`${app.baseURL}/login`);
  const heading = page.getByRole('heading', { name: 'Welcome Back' });
  await expect(heading).toBeFocused();
  // Focus for screen readers, no ring where nobody navigated by key.
  await expect(heading).toHaveCSS('outline-style', 'none');
  await look(page, 'login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(toast(page, 'Email and password are required')).toBeVisible();
  // An error toast on screen: checked by axe and photographed at both widths.
  await look(page, 'login-errors', { toast: 'Email and password are required' });

  await signIn(page, app, ada);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toHaveCSS('outline-style', 'none');
  await openTab(page, 'Investments');
  await expect(page).toHaveURL(/tab=investments/);
  // The session ends elsewhere ("Sign out all others" on another device; a logout there ends that one only):
  // the next poll is a 401, and the sign-in page says why.
  const other = await tokenFor(app, ada);
  await app.api('POST', '/user/sessions/revoke-others', { token: other });
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('This session was signed out from another device. Please sign in again.')).toBeVisible();
  await look(page, 'session-expired');
  await page.getByLabel('Email').fill(ada.email);
  await page.getByLabel('Password', { exact: true }).fill(ada.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=investments$/);
});

test('two-factor sign-in: the code step is a normal step, not an error', async ({ page }) => {
  await app.setClock(MONDAY_9);
  const dee = await signUpInvestor(app, { firstName: 'Dee', lastName: 'Twofactor' });
  const setup = await app.api<{ secret: string }>('POST', '/user/2fa/setup', {
    token: dee.token,
    body: { password: dee.password },
  });
  const on = await app.api('POST', '/user/2fa/enable', {
    token: dee.token,
    body: { password: dee.password, code: totpAt(setup.data.secret, stepOf(new Date(MONDAY_9))) },
  });
  expect(on.status).toBe(200);

  await page.goto(`${app.baseURL}/login`);
  await page.getByLabel('Email').fill(dee.email);
  await page.getByLabel('Password', { exact: true }).fill(dee.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const code = page.getByLabel('Authentication code', { exact: true });
  await expect(code).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Two-factor authentication is on' })).toBeVisible();
  // No red: the field is not invalid, no error text, no toast.
  await expect(code).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toHaveCount(0);
  // The sign-in's answer is handled (the prompt shows): a toast it raised would be on screen two frames later.
  await framesPainted(page);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0);
  await look(page, 'login-two-factor');
});

test('an unknown address: a small not-found page with a way home', async ({ page }) => {
  await page.goto(`${app.baseURL}/no/such/page`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to sign in' })).toBeVisible();
  await look(page, 'not-found');
});

test('investor screens, dialogs and their errors', async ({ page }) => {
  await signIn(page, app, ada);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('note', { name: 'Demo mode' })).toBeVisible();
  await expect(stat(page, 'USDC Balance')).toHaveText('2,499,900.5000\u00a0USDC');
  await look(page, 'investor-dashboard');
  await expectWholeTabs(page);
  for (const size of Object.values(WIDTHS)) {
    await page.setViewportSize(size);
    await expectOneLine(stat(page, 'USDC Balance'), `balance at ${size.width} px`);
  }
  await page.setViewportSize(WIDTHS.desktop);

  await openTab(page, 'Deposit');
  await expect(page.getByText('Current Balance')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recent deposits' })).toBeVisible();
  // The balance card is as tall as its figure, not stretched beside the deposit card.
  const balanceCard = await page.getByText('Current Balance', { exact: true }).locator('..').boundingBox();
  expect(balanceCard?.height).toBeLessThan(160);
  await look(page, 'investor-deposit');

  // A number too large says so, with the limit.
  const depositForm = page.getByRole('form', { name: 'Submit deposit' });
  await depositForm.getByLabel('Transaction Hash').fill(randomTxHash());
  await depositForm.getByLabel('Amount (USDC)').fill('99999999999999999999');
  await depositForm.getByLabel('From Address').fill(FROM);
  await depositForm.getByRole('button', { name: 'Submit Deposit' }).click();
  await expect(depositForm.getByText('Amount must be at most 1,000,000,000 USDC')).toBeVisible();
  await look(page, 'investor-deposit-too-large', { toast: 'Amount must be at most 1,000,000,000 USDC' });

  await openTab(page, 'Tiers');
  await expect(page.getByRole('button', { name: /Invest Now in/ }).first()).toBeEnabled();
  await look(page, 'investor-tiers');
  await page.getByRole('button', { name: 'Invest Now in Starter' }).click();
  const invest = page.getByRole('dialog', { name: 'Confirm investment' });
  await expect(invest.getByText('Earning per completed 8-hour cycle')).toBeVisible();
  await expect(invest.getByRole('button', { name: 'Confirm Investment' })).toBeEnabled();
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

  // The profile menu with a 60-character name: at most 20 rem wide, inside the phone's window.
  await page.setViewportSize(WIDTHS.phone);
  await page.getByRole('button', { name: 'Profile menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByText(NAME)).toBeVisible();
  const box = await menu.boundingBox();
  if (!box) throw new Error('no menu box');
  expect(box.width).toBeLessThanOrEqual(320);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(WIDTHS.phone.width);
  await page.setViewportSize(WIDTHS.desktop);
  expect((await menu.boundingBox())?.width).toBeLessThanOrEqual(320);
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

test('first run: an empty dashboard invites the first deposit; too little balance to invest says it once', async ({
  page,
}) => {
  const bea = await signUpInvestor(app, { firstName: 'Bea', lastName: 'Newcomer' });
  await signIn(page, app, bea);
  await expect(page.getByRole('heading', { name: 'Welcome to Harvest Farm' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Make your first deposit' })).toBeVisible();
  await look(page, 'investor-first-run');

  // The warning once, and Confirm off (not pressable into the same error twice more).
  await openTab(page, 'Tiers');
  await page.getByRole('button', { name: 'Invest Now in Starter' }).click();
  const invest = page.getByRole('dialog', { name: 'Confirm investment' });
  const warning = "Your balance is lower than this tier's amount. Please deposit USDC first.";
  await expect(invest.getByText(warning)).toHaveCount(1);
  const confirm = invest.getByRole('button', { name: 'Confirm Investment' });
  await expect(confirm).toBeDisabled();
  await expect(confirm).toHaveAccessibleDescription(warning);
  await look(page, 'investor-invest-short');
  await invest.getByRole('button', { name: 'Cancel' }).click();

  await openTab(page, 'Dashboard');
  await page.getByRole('link', { name: 'Make your first deposit' }).click();
  await expect(page).toHaveURL(/tab=deposit/);
  await expect(page.getByRole('tab', { name: 'Deposit', exact: true })).toHaveAttribute('aria-selected', 'true');
});

test('weekend: complete, start and invest are off with the reason before anyone clicks', async ({ page }) => {
  const inv = await app.api<{ activeInvestments: { _id: string }[] }>('GET', '/user/dashboard', {
    token: await tokenFor(app, ada),
  });
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
  // One clear line, above the greyed buttons, and no second sentence saying it again.
  const reason = page.getByRole('note').filter({
    hasText: 'Investments are only available Monday through Friday. Please try again on a weekday.',
  });
  await expect(reason).toBeVisible();
  await expect(page.getByText(/Monday through Friday/)).toHaveCount(1);
  await page.setViewportSize(WIDTHS.phone);
  const first = await page
    .getByRole('button', { name: /Invest Now in/ })
    .first()
    .boundingBox();
  expect((await reason.boundingBox())?.y ?? Infinity).toBeLessThan(first?.y ?? 0);
  await expect(page.getByRole('button', { name: /Invest Now in/ }).first()).toHaveAccessibleDescription(
    /only available Monday through Friday/,
  );
  await page.setViewportSize(WIDTHS.desktop);
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
