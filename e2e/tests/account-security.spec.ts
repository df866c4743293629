import { expect, test, type Page } from '@playwright/test';
import { readMail } from '../../apps/server/test/smtp.ts';
import { look } from '../support/look.ts';
import {
  openTab,
  randomTxHash,
  signIn,
  signUpInvestor,
  tokenFor,
  toast,
  type Person,
  LONG_FIRST_NAME as FIRST,
  LONG_LAST_NAME as LAST,
} from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * Account takeover as it happens: an investor with the withdrawal address lock on has a "thief" with both passwords
 * sign in from a second browser and add the thief's address. The thief cannot withdraw to it, not even 24 hours later
 * (the server clock moved), while the investor gets the new-device and the new-address e-mails, presses "this wasn't
 * me" and the thief's session is gone. The Profile's security sections, Withdraw All's "choose or add" and the e-mailed
 * link's page pass axe at 1280 and 375 px, with a 60-character name and a seven-figure balance.
 */
const MONDAY_9 = '2026-11-16T09:00:00Z';
const TUESDAY_10 = '2026-11-17T10:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';
const OWN = '0x52908400098527886E0F7030069857D2E4169EE7';
const THIEFS = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';

let app: RunningApp;
let ada: Person;

test.describe.configure({ mode: 'serial', timeout: 300_000 });

test.beforeAll(async () => {
  // Sessions last a week: the thief's would outlive the cool-down if nobody ended it.
  app = await startApp({ JWT_TTL_SECONDS: String(7 * 24 * 3600) });
  await app.setClock(MONDAY_9);
  const admin = await tokenFor(app, ADMIN);
  ada = await signUpInvestor(app, { firstName: FIRST, lastName: LAST, inviterToken: admin });
  const d = await app.api<{ deposit: { _id: string } }>('POST', '/user/process-deposit', {
    token: ada.token,
    body: { txHash: randomTxHash(), amount: 1_234_567.5, fromAddress: FROM },
  });
  expect(
    (await app.api('POST', '/admin/process-deposit', { token: admin, body: { depositId: d.data.deposit._id } })).status,
  ).toBe(200);
});
test.afterAll(async () => app?.stop());

/** The mails to `email` so far, read. */
const mails = (email: string) => app.smtp.mails.filter((m) => m.to.includes(email)).map(readMail);
async function waitForMail(email: string, subject: string, after = 0) {
  await expect
    .poll(() => mails(email).filter((m) => m.subject.startsWith(subject)).length, { timeout: 15_000 })
    .toBeGreaterThan(after);
  return mails(email)
    .filter((m) => m.subject.startsWith(subject))
    .at(-1)!;
}
const linkIn = (text: string, page: string) => {
  const m = new RegExp(`(http://\\S+/${page}#token=[A-Za-z0-9_-]+)`).exec(text);
  expect(m, `a /${page} link`).not.toBeNull();
  return m![1]!;
};
const newSignIns = () => mails(ada.email).filter((m) => m.subject.startsWith('New sign-in')).length;

async function openProfile(page: Page) {
  await page.getByRole('button', { name: /^Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  return page.getByRole('dialog', { name: 'Profile' });
}

test('the investor turns the lock on and saves an address, confirmed from the e-mail', async ({ page }) => {
  await signIn(page, app, ada);
  const profile = await openProfile(page);
  const lock = profile.getByRole('region', { name: 'Withdrawal address lock' });
  await lock.getByRole('button', { name: 'Turn on' }).click();
  await expect(toast(page, /^Withdrawal address lock is on/)).toBeVisible();
  await expect(lock.getByText('On', { exact: true })).toBeVisible();

  const book = profile.getByRole('region', { name: 'Withdrawal addresses' });
  await book.getByRole('button', { name: 'Add an address' }).click();
  await book.getByLabel('Label').fill('My Ledger Nano X, kept in the home safe');
  await book
    .getByLabel('Wallet address (Polygon USDC)')
    .fill(OWN.toLowerCase().replace('0x52908400098527886e0f', '0x52908400098527886E0f'));
  await book.getByLabel('Login password', { exact: true }).fill(ada.password);
  await book.getByRole('button', { name: 'Add address' }).click();
  await expect(book.getByText('This address has a typo: its checksum does not match')).toBeVisible();
  await book.getByLabel('Wallet address (Polygon USDC)').fill(OWN);
  await book.getByRole('button', { name: 'Add address' }).click();
  await expect(book.getByText('Confirm it from the e-mail we sent you')).toBeVisible();

  const mail = await waitForMail(ada.email, 'New withdrawal address added');
  await page.goto(linkIn(mail.text, 'confirm-address'));
  // What the button confirms, before it is pressed: the label and the address.
  await expect(page.getByText('My Ledger Nano X, kept in the home safe')).toBeVisible();
  await expect(page.getByText(OWN)).toBeVisible();
  await look(page, 'account-confirm-address-preview');
  await page.getByRole('button', { name: 'Confirm this address' }).click();
  await expect(page.getByRole('status')).toContainText('Address confirmed');
  await look(page, 'account-confirm-address');
});

test('a thief with both passwords signs in elsewhere, adds an address and cannot withdraw to it; "this wasn\'t me" ends it', async ({
  page,
  browser,
}) => {
  const before = newSignIns();
  const thiefContext = await browser.newContext();
  const thief = await thiefContext.newPage();
  await signIn(thief, app, ada);
  // The owner is told at once: a device the account has not used.
  const alert = await waitForMail(ada.email, 'New sign-in to your Harvest Farm account', before);
  expect(alert.text).toMatch(/Device:\s+Chrome/);
  expect(alert.text).toMatch(/IP address:\s+127\.0\.0\.1/);

  // Withdraw All offers only the book ("choose or add"): the thief adds their own address there.
  await openTab(thief, 'Investments');
  await thief.getByRole('button', { name: 'Withdraw All' }).first().click();
  const dialog = thief.getByRole('dialog', { name: 'Withdraw All' });
  await expect(dialog.getByText('Pay to an address of your address book')).toBeVisible();
  await expect(dialog.getByLabel('Wallet Address (Polygon USDC)')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add a new address' }).click();
  await dialog.getByLabel('Label').fill('Savings');
  await dialog.getByLabel('Wallet address (Polygon USDC)').fill(THIEFS);
  await dialog.getByLabel('Login password', { exact: true }).fill(ada.password);
  await dialog.getByRole('button', { name: 'Add address' }).click();
  const thiefs = dialog.getByRole('radio', { name: /Savings/ });
  await expect(thiefs).toBeDisabled();
  await expect(dialog.getByRole('radio', { name: /My Ledger/ })).toBeDisabled(); // still cooling down
  // Nothing usable yet: when it will be, not "enter your wallet address".
  await expect(
    dialog.getByText(
      /^No address of your book is usable yet: My Ledger Nano X, kept in the home safe becomes usable on Nov 17, 2026, 9:\d\d AM UTC\.$/,
    ),
  ).toBeVisible();
  await look(thief, 'account-withdraw-choose-or-add');

  // Straight at the API with the stolen session: refused now, and 24 hours later.
  const stolen = await thief.evaluate(() => localStorage.getItem('token'));
  const tryIt = () =>
    app.api('POST', '/withdrawal/request-all', {
      token: stolen ?? '',
      body: { walletAddress: THIEFS, withdrawalPassword: ada.withdrawalPassword },
    });
  const now = await tryIt();
  expect(now.status).toBe(403);
  expect(now.data.code).toBe('address_not_active');
  await app.setClock(TUESDAY_10);
  const later = await tryIt();
  expect(later.status).toBe(403);
  expect(later.data.code).toBe('address_not_active');

  // The owner's e-mail names the address and where it was added from; "this wasn't me" secures the account.
  const added = await waitForMail(ada.email, 'New withdrawal address added: Savings');
  expect(added.text).toContain(THIEFS);
  const notMe = linkIn(added.text, 'not-me');
  // Opened in an Arabic browser first: the page says which address it removes, and looking uses nothing up.
  const arabic = await browser.newContext({ locale: 'ar' });
  const ar = await arabic.newPage();
  await ar.goto(notMe);
  await expect(ar.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(ar.getByText(THIEFS)).toBeVisible();
  await look(ar, 'account-not-me-preview-ar');
  await arabic.close();
  // The administrator has the investor's Security panel open: it shows the freeze without a reload.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, app, ADMIN);
  await adminPage.getByRole('tab', { name: 'Users', exact: true }).click();
  await adminPage.getByPlaceholder('Search by name or e-mail').first().fill(ada.email);
  await adminPage.keyboard.press('Enter');
  const adminCard = adminPage.getByRole('listitem').filter({ hasText: ada.email });
  await adminCard.getByRole('button', { name: 'Security' }).click();
  await expect(adminCard.getByRole('region', { name: /^Sessions of/ })).toBeVisible();
  await expect(adminCard.getByText('WITHDRAWALS FROZEN')).toHaveCount(0);
  await signIn(page, app, ada);
  await page.goto(notMe);
  await expect(page.getByText('This address is removed from your address book:')).toBeVisible();
  await expect(page.getByText('Savings', { exact: true })).toBeVisible();
  await expect(page.getByText(THIEFS)).toBeVisible();
  await look(page, 'account-not-me-preview');
  await page.getByRole('button', { name: 'Secure my account' }).click();
  await expect(page.getByRole('status')).toContainText('Your account is secured');
  await look(page, 'account-not-me-done');
  // The administrator's list polls (every 30 s): the open panel turns frozen on its own.
  await expect(adminCard.getByText('WITHDRAWALS FROZEN')).toBeVisible({ timeout: 45_000 });
  await expect(adminCard.getByRole('button', { name: 'Unfreeze withdrawals' })).toBeVisible();
  await adminContext.close();

  // The thief's session is gone.
  expect((await app.api('GET', '/user/me', { token: stolen ?? '' })).status).toBe(401);
  // Its next poll is refused: the sign-in page, and why.
  await expect(thief).toHaveURL(/\/login/);
  // Told why: signed out from another device, not "expired".
  await expect(thief.getByText('This session was signed out from another device. Please sign in again.')).toBeVisible();
  await thiefContext.close();
});

test("the investor's Profile: lock, address book, authenticator, sessions, security activity", async ({ page }) => {
  await signIn(page, app, ada);
  const profile = await openProfile(page);
  await expect(profile.getByRole('region', { name: 'Withdrawal addresses' }).getByText('Active')).toBeVisible();
  const sessions = profile.getByRole('region', { name: 'Where you are signed in' });
  await expect(sessions.getByText('This device')).toBeVisible();
  const activity = profile.getByRole('region', { name: 'Security activity' });
  await expect(activity.getByText('"This wasn\'t me" reported')).toBeVisible();
  await expect(activity.getByText('Withdrawal address added').first()).toBeVisible();
  await expect(profile.getByText('Withdrawals are frozen on this account.', { exact: false })).toBeVisible();
  await look(page, 'account-profile-security');
  await activity.scrollIntoViewIfNeeded();
  await look(page, 'account-profile-activity');

  // Frozen: Withdraw All says so, and asks for nothing the server would refuse.
  await page.keyboard.press('Escape');
  await openTab(page, 'Investments');
  await page.getByRole('button', { name: 'Withdraw All' }).click();
  const withdraw = page.getByRole('dialog', { name: 'Withdraw All' });
  await expect(withdraw.getByRole('alert')).toHaveText(
    'Withdrawals are frozen on this account. Contact support to have the freeze lifted.',
  );
  await expect(withdraw.getByLabel('Withdrawal Password')).toHaveCount(0);
  await expect(withdraw.getByRole('button', { name: 'Review Withdrawal' })).toHaveCount(0);
  await look(page, 'account-withdraw-frozen');
  await withdraw.getByText('Close', { exact: true }).click();
  await expect(withdraw).toHaveCount(0);

  // The administrator sees the freeze, the sessions and the addresses.
  const admin = await tokenFor(app, ADMIN);
  const users = await app.api('GET', `/admin/users?search=${encodeURIComponent(ada.email)}`, { token: admin });
  expect(users.data.users[0].withdrawalsFrozen).toBe(true);
});

test("the administrator sees the user's sessions and addresses and lifts the freeze", async ({ page }) => {
  await signIn(page, app, ADMIN);
  await page.getByRole('tab', { name: 'Users', exact: true }).click();
  await page.getByRole('searchbox').or(page.getByPlaceholder('Search by name or e-mail')).first().fill(ada.email);
  await page.keyboard.press('Enter');
  const card = page.getByRole('listitem').filter({ hasText: ada.email });
  await expect(card.getByText('WITHDRAWALS FROZEN')).toBeVisible();
  await card.getByRole('button', { name: 'Security' }).click();
  await expect(
    card
      .getByRole('region', { name: /^Sessions of/ })
      .getByText('Signed out')
      .first(),
  ).toBeVisible();
  await expect(
    card.getByRole('region', { name: /^Withdrawal addresses of/ }).getByText('Removed', { exact: true }),
  ).toBeVisible();
  await look(page, 'account-admin-user-security');
  await card.getByRole('button', { name: 'Unfreeze withdrawals' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Unfreeze' }).click();
  await expect(toast(page, `Withdrawals unfrozen: ${FIRST} ${LAST}`)).toBeVisible();
  await expect(card.getByText('WITHDRAWALS FROZEN')).toHaveCount(0);
});

test('the lock turned off from the e-mail elsewhere: Profile says so when its window is back in front', async ({
  page,
  browser,
}) => {
  await signIn(page, app, ada);
  const profile = await openProfile(page);
  const lock = profile.getByRole('region', { name: 'Withdrawal address lock' });
  await expect(lock.getByText('On', { exact: true })).toBeVisible();
  await lock.getByRole('button', { name: 'Turn off' }).click();
  await lock.getByLabel('Login password', { exact: true }).fill(ada.password);
  await lock.getByRole('button', { name: 'E-mail me the confirmation' }).click();
  const mail = await waitForMail(ada.email, 'Confirm: turn off the withdrawal address lock');

  // Confirmed from the e-mail on another device (nothing reaches this tab from there).
  const phone = await browser.newContext();
  const other = await phone.newPage();
  await signIn(other, app, ada);
  await other.goto(linkIn(mail.text, 'confirm-lock-off'));
  await other.getByRole('button', { name: 'Confirm: turn the lock off' }).click();
  await expect(other.getByRole('status')).toContainText('the withdrawal address lock turns off at');
  await phone.close();

  // This tab still shows what it read; the window coming back to the front reads the account again.
  await expect(lock.getByText('On', { exact: true })).toBeVisible();
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(lock.getByText('Turning off', { exact: true })).toBeVisible();
  await expect(lock.getByText(/^Withdrawals go only to active addresses of your address book until /)).toBeVisible();
  await expect(lock.getByText(/^We e-mailed you a link to confirm/)).toHaveCount(0);
  await look(page, 'account-lock-turning-off');
});
