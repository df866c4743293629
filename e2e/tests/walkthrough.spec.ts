import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { WIDTHS } from '../support/look.ts';
import { creditedDeposit, openTab, randomTxHash, signIn, signUpInvestor, tokenFor, toast } from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * Journeys across the app: one session across the tabs of a browser, the server's error text, tabs and history,
 * over-long inputs, one toast per effect on a double click, and a Refresh button that background polls leave
 * alone.
 */

const MONDAY_9 = '2026-11-16T09:00:00Z';
const WALLET = '0x2222222222222222222222222222222222222222';

let app: RunningApp;
test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.beforeAll(async () => {
  app = await startApp();
  await app.setClock(MONDAY_9);
});
test.afterAll(async () => app?.stop());

/** An investor invited by the administrator (a fresh admin session: a test may have signed the admin out). */
const person = async (firstName: string, lastName: string) =>
  signUpInvestor(app, { firstName, lastName, inviterToken: await tokenFor(app, ADMIN) });

test('a sign-out, a block or an expiry in one tab ends the session in every tab at once', async ({ browser }) => {
  const ada = await person('Ada', 'Tabs');
  await creditedDeposit(app, ada, 250, WALLET);
  const context = await browser.newContext();
  const one = await context.newPage();
  const two = await context.newPage();
  // Tab two's timers run on a clock the test can move on at once (time still flows by itself until then), and
  // its page counts the calls it makes to the API, but for the sign-in page's own passkey offer (it asks for a
  // challenge once the page has loaded its passkey code, which may be after the count below was read).
  await two.clock.install();
  await two.addInitScript(() => {
    const w = window as unknown as { apiCalls: number };
    w.apiCalls = 0;
    const real = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes('/api/') && !url.includes('/api/passkey-login/')) w.apiCalls++;
      return real(input, init);
    };
  });

  // Sign-out in tab one: tab two, live on Investments with Withdraw All on, goes to sign-in at once.
  await signIn(one, app, ada);
  await two.goto(`${app.baseURL}/dashboard?tab=investments`);
  await expect(two.getByRole('button', { name: 'Withdraw All' })).toBeEnabled();
  await one.getByRole('button', { name: /Profile menu/ }).click();
  await one.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(one).toHaveURL(/\/login$/);
  await expect(two).toHaveURL(/\/login$/, { timeout: 2_000 });
  await expect(two.getByText('You signed out in another tab. Please sign in again.')).toBeVisible();
  await expect(two.getByRole('button', { name: 'Withdraw All' })).toHaveCount(0);
  await expect(two.getByRole('button', { name: /Profile menu/ })).toHaveCount(0);
  // Nothing keeps polling with the dead token (a poll would answer 401 every 2 s): ten seconds of its timers
  // run at once, and the page made no call.
  const calls = () => two.evaluate(() => (window as unknown as { apiCalls: number }).apiCalls);
  const before = await calls();
  await two.clock.runFor(10_000);
  expect(await calls()).toBe(before);

  // Signing in again in one tab signs the other in too.
  await signIn(one, app, ada);
  await expect(two).toHaveURL(/\/dashboard/, { timeout: 5_000 });

  // A block: the tab that meets it and the other both show the Blocked screen, with no live figures.
  await openTab(one, 'Investments');
  await app.api('POST', `/user/admin/toggle-block/${ada.id}`, { token: await tokenFor(app, ADMIN) });
  await expect(one.getByRole('heading', { name: 'Account Blocked' })).toBeVisible();
  await expect(two.getByRole('heading', { name: 'Account Blocked' })).toBeVisible({ timeout: 2_000 });
  await expect(two.getByRole('tab')).toHaveCount(0);
  // Its Logout signs every tab out.
  await two.getByRole('button', { name: 'Logout' }).click();
  await expect(two).toHaveURL(/\/login$/);
  await expect(one).toHaveURL(/\/login$/, { timeout: 2_000 });
  await app.api('POST', `/user/admin/toggle-block/${ada.id}`, { token: await tokenFor(app, ADMIN) });

  // Signed out from another device: the polling tab's 401 ends it there and in the other tab, both told why.
  await signIn(one, app, ada);
  await expect(two).toHaveURL(/\/dashboard/, { timeout: 5_000 });
  await openTab(one, 'Investments');
  // Another device signs every other session out (its own logout would end only its own session).
  await app.api('POST', '/user/sessions/revoke-others', { token: await tokenFor(app, ada) });
  for (const tab of [one, two]) {
    await expect(tab).toHaveURL(/\/login$/);
    await expect(tab.getByText('This session was signed out from another device. Please sign in again.')).toBeVisible();
  }
  await context.close();
});

test("the server's text is shown whenever it sends one; a duplicate-key e-mail text reads as the spec's", async ({
  page,
}) => {
  // A reply without a code (a proxy, an older server) still shows its text, not "Login failed".
  await page.route('**/api/login', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Custom server text' }),
    }),
  );
  await page.goto(`${app.baseURL}/login`);
  await page.getByLabel('Email').fill('someone@example.com');
  await page.getByLabel('Password', { exact: true }).fill('some-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.locator('#main').getByRole('alert').filter({ hasText: 'Custom server text' })).toBeVisible();
  await expect(toast(page, 'Custom server text')).toBeVisible();
  await expect(page.getByText('Login failed')).toHaveCount(0);

  // Any duplicate-key text about the e-mail, coded or not: 'Email already exists. Please use a different email.'
  await page.route('**/api/register', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'E11000 duplicate key error collection: users index: email_1 dup key' }),
    }),
  );
  await page.goto(`${app.baseURL}/signup?code=ANYCODE123`);
  await page.getByLabel('First Name').fill('Dup');
  await page.getByLabel('Last Name').fill('Licate');
  await page.getByLabel('Email', { exact: true }).fill('dup@example.com');
  await page.getByLabel('Verification Code').fill('123456');
  await page.getByLabel('Phone Number').fill('2025550123');
  await page.getByLabel('Password', { exact: true }).fill('dup-password-1');
  await page.getByLabel('Confirm Password', { exact: true }).fill('dup-password-1');
  await page.getByLabel('Withdrawal Password', { exact: true }).fill('dup-withdraw-1');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'Email already exists. Please use a different email.')).toBeVisible();
  await expect(page.getByText('Registration failed')).toHaveCount(0);
});

test('a tab change is a history entry; an unknown address says so with a way home', async ({ page }) => {
  const bea = await person('Bea', 'History');
  await signIn(page, app, bea);
  await openTab(page, 'Deposit');
  await openTab(page, 'Tiers');
  await openTab(page, 'Investments');
  const selected = (name: string) =>
    expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expect(page).toHaveURL(/tab=tiers$/);
  await selected('Tiers');
  await page.goBack();
  await selected('Deposit');
  await page.goBack();
  await selected('Dashboard');
  await page.goForward();
  await selected('Deposit');

  await page.goto(`${app.baseURL}/dashbord`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/dashbord$/);
  await page.getByRole('link', { name: 'Go to your dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // At 375 px the tab bar shows every label whole (rows of three, nothing scrolled out of sight).
  await page.setViewportSize(WIDTHS.phone);
  for (const tab of await page.getByRole('tab').all())
    expect(
      await tab.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= 375),
    ).toBe(true);
});

test("inputs carry the server's limits, and an over-long value gets its own message", async ({ page }) => {
  await page.goto(`${app.baseURL}/signup?code=ANYCODE123`);
  const first = page.getByLabel('First Name');
  await expect(first).toHaveAttribute('maxlength', '100');
  await first.fill('x'.repeat(300));
  await expect(first).toHaveValue('x'.repeat(100));
  // The server refuses the same with its own words, not "All fields are required".
  const code = (
    await app.api<{ code: string }>('POST', '/user/generate-invitation', { token: await tokenFor(app, ADMIN) })
  ).data.code;
  const res = await app.api('POST', '/register', {
    body: {
      invitationCode: code,
      firstName: 'x'.repeat(300),
      lastName: 'Long',
      email: 'long@example.com',
      phone: '+1 2025550123',
      password: 'long-password-1',
      confirmPassword: 'long-password-1',
      withdrawalPassword: 'long-withdraw-1',
      verificationCode: '123456',
    },
  });
  expect(res.status).toBe(400);
  expect(res.data.error).toBe('First name must be at most 100 characters');
  // A value put in by script or autofill is not held to maxlength: the form says what is wrong, at the field.
  await first.evaluate((el, v) => {
    const input = el as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, 'x'.repeat(300));
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(first).toHaveAccessibleDescription(/First name must be at most 100 characters/);

  // The profile form carries the same limits.
  const cy = await person('Cy', 'Limits');
  await signIn(page, app, cy);
  await page.getByRole('button', { name: /Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Profile' });
  await profile.getByRole('button', { name: 'Edit Profile' }).click();
  await expect(profile.getByLabel('First Name')).toHaveAttribute('maxlength', '100');
  await expect(profile.getByLabel('New Password', { exact: true })).toHaveAttribute('maxlength', '200');
});

test('a double click on Approve, Start Earning or Confirm Withdrawal moves money once and says so once', async ({
  page,
}) => {
  const dee = await person('Dee', 'Double');
  const posts = (path: string) => {
    const seen = { n: 0 };
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/api${path}`)) seen.n++;
    });
    return seen;
  };
  // The second press sent nothing (the count of POSTs is checked after each): the one answer makes the one toast.
  const exactlyOneToast = async (text: string | RegExp) => {
    await expect(toast(page, text)).toBeVisible();
    await expect(toast(page, text)).toHaveCount(1);
  };

  // The administrator approves Dee's deposit with a double click.
  const d = await app.api<{ deposit: { _id: string } }>('POST', '/user/process-deposit', {
    token: dee.token,
    body: { txHash: randomTxHash(), amount: 300, fromAddress: WALLET },
  });
  expect(d.status).toBe(200);
  await signIn(page, app, ADMIN);
  await openTab(page, 'Deposits');
  const approvals = posts('/admin/process-deposit');
  await page.getByRole('button', { name: /^Approve deposit of 300\.00\sUSDC by Dee Double$/ }).click();
  await page
    .getByRole('alertdialog', { name: 'Approve deposit?' })
    .getByRole('button', { name: 'Approve and credit' })
    .dblclick();
  await exactlyOneToast('Deposit approved and credited');
  expect(approvals.n).toBe(1);
  const summary = async () =>
    (await app.api('GET', '/user/dashboard', { token: await tokenFor(app, dee) })).data.accountSummary;
  expect((await summary()).balance).toBe(300);

  // Dee invests, then double-clicks Start Earning.
  expect((await app.api('POST', '/user/invest', { token: dee.token, body: { amount: 100 } })).status).toBe(200);
  await page.getByRole('button', { name: /Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await signIn(page, app, dee);
  await openTab(page, 'Investments');
  const starts = posts('/user/start-earning');
  await page.getByRole('button', { name: /Start Earning/ }).dblclick();
  await exactlyOneToast('Earning cycle started. Come back in 8 hours to complete it.');
  expect(starts.n).toBe(1);

  // Withdraw All, confirmed with a double click.
  const requests = posts('/withdrawal/request-all');
  await page.getByRole('button', { name: 'Withdraw All' }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdraw All' });
  await dialog.getByLabel('Wallet Address (Polygon USDC)').fill(WALLET);
  await dialog.getByLabel('Withdrawal Password', { exact: true }).fill(dee.withdrawalPassword);
  await dialog.getByRole('button', { name: 'Review Withdrawal' }).click();
  await dialog.getByRole('button', { name: 'Confirm Withdrawal' }).dblclick();
  await exactlyOneToast(/^Withdrawal request submitted/);
  expect(requests.n).toBe(1);
  expect((await summary()).pendingApproval).toBe(200);
});

test('background polls leave the Refresh button alone; only a press changes it; axe finds nothing', async ({
  page,
}) => {
  const eve = await person('Eve', 'Polls');
  await creditedDeposit(app, eve, 120, WALLET);
  await signIn(page, app, eve);
  await openTab(page, 'Investments');
  const refresh = page.getByRole('button', { name: 'Refresh withdrawals' });
  await expect(refresh).toBeEnabled();
  const polls = { n: 0 };
  page.on('request', (r) => {
    if (r.url().includes('/api/withdrawal/my-withdrawals')) polls.n++;
  });
  await refresh.evaluate((el) => {
    const w = window as unknown as { refreshChanges: number };
    w.refreshChanges = 0;
    new MutationObserver(() => w.refreshChanges++).observe(el, {
      attributes: true,
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
  // Three rounds of axe while the 2-second polls run (label-content-name-mismatch came and went with them).
  for (let i = 0; i < 3; i++) {
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.waitForResponse((r) => r.url().includes('/api/withdrawal/my-withdrawals'));
  }
  expect(polls.n).toBeGreaterThanOrEqual(3);
  expect(await page.evaluate(() => (window as unknown as { refreshChanges: number }).refreshChanges)).toBe(0);

  // A press does show it, and reads both lists again.
  const before = polls.n;
  await refresh.click();
  await expect(refresh).toBeEnabled();
  expect(polls.n).toBeGreaterThan(before);
  expect(await page.evaluate(() => (window as unknown as { refreshChanges: number }).refreshChanges)).toBeGreaterThan(
    0,
  );
});
