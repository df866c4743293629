import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { look } from '../support/look.ts';
import {
  LONG_FIRST_NAME,
  LONG_LAST_NAME,
  LONG_NAME,
  creditedDeposit,
  openTab,
  randomTxHash,
  signIn,
  signUpInvestor,
  toast,
  tokenFor,
  type Person,
} from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * What each staff role sees in the back office: support and auditor read every tab's data without its money and
 * change controls (the auditor keeps the exports, support its blocks and freezes), a finance member has the money
 * controls; then an investor changes the withdrawal password in Profile and Withdraw All waits for the hold. Every
 * screen is looked at (axe, 1280 and 375 px), in English and Arabic.
 */
const MONDAY = '2026-11-16T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';
const WALLET = '0x2222222222222222222222222222222222222222';
const AR: Record<string, string> = JSON.parse(
  readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/shared/src/locales/ar.json'),
    'utf8',
  ),
);
type Lang = 'en' | 'ar';
/** A text as the screen says it in `lang`; one with values as a pattern. */
const say = (lang: Lang, en: string) => (lang === 'en' ? en : (AR[en] ?? en));
const sayLike = (lang: Lang, en: string) =>
  new RegExp(
    `^${say(lang, en)
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{\w+\}/g, '.*')}$`,
  );

let app: RunningApp;
let maxi: Person;
const staff = {
  support: { email: 'support.member@example.com', password: 'support-member-pass-1', name: ['Samuel', 'Okafor'] },
  auditor: { email: 'auditor.member@example.com', password: 'auditor-member-pass-1', name: ['Alma', 'Reyes'] },
  finance: { email: 'finance.member@example.com', password: 'finance-member-pass-1', name: ['Farid', 'Haddad'] },
};

test.describe.configure({ mode: 'serial', timeout: 600_000 });

/** A staff member as an owner makes one: invited by e-mail, the password chosen on the link's page. */
async function addStaff(role: keyof typeof staff) {
  const who = staff[role];
  const sent = await app.api('POST', '/admin/staff/invite', {
    token: await tokenFor(app, ADMIN),
    body: { email: who.email, firstName: who.name[0], lastName: who.name[1], role },
  });
  expect(sent.status).toBe(200);
  await expect.poll(() => app.smtp.mailsTo(who.email).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const token = /staff-invite#token=([A-Za-z0-9_-]+)/.exec(app.smtp.mailsTo(who.email).at(-1)?.text ?? '')?.[1];
  const joined = await app.api('POST', '/security/staff-invite', {
    body: { token, password: who.password, confirmPassword: who.password },
  });
  expect(joined.status).toBe(200);
}

test.beforeAll(async () => {
  app = await startApp();
  await app.setClock(MONDAY);
  for (const role of ['support', 'auditor', 'finance'] as const) await addStaff(role);
  // Something for every screen: a seven-figure balance asked out in full, and a seven-figure deposit waiting.
  maxi = await signUpInvestor(app, { firstName: LONG_FIRST_NAME, lastName: LONG_LAST_NAME });
  await creditedDeposit(app, maxi, 1_234_567.891234, FROM);
  const w = await app.api('POST', '/withdrawal/request-all', {
    token: maxi.token,
    body: { walletAddress: WALLET, withdrawalPassword: maxi.withdrawalPassword },
  });
  expect(w.status).toBe(200);
  const pending = await app.api('POST', '/user/process-deposit', {
    token: maxi.token,
    body: { txHash: randomTxHash(), amount: 2_345_678.9, fromAddress: FROM },
  });
  expect(pending.status).toBe(200);
});
test.afterAll(async () => app?.stop());

async function signedIn(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, app, who);
  return page;
}

/** Money and change controls: none is on screen for a role that may not use it. */
const MONEY_BUTTONS = [
  'Update Balance',
  'Approve',
  'Reject',
  'New Tier',
  'Edit',
  'Activate',
  'Deactivate',
  'Save limits',
  'Refresh now',
  'Reconcile now',
  'Download sweep plan',
  'Acknowledge',
  'Safe file',
  'Cancel batch',
  'Paid no withdrawal',
  'Approve with this payout',
  'Take a snapshot now',
];
const MONEY_PATTERNS = ['Approve deposit of {amount} by {name}', 'Reject deposit of {amount} by {name}'];
const SUPPORT_BUTTONS = ['Block', 'Unblock', 'Sign out all sessions', 'Freeze withdrawals', 'Unfreeze withdrawals'];
const TABS = [
  'Admin',
  'Analytics',
  'Users',
  'Deposits',
  'Withdrawals',
  'Referrals',
  'Tiers',
  'Audit Log',
  'Approvals',
  'Proof of reserves',
];

async function expectNone(page: Page, lang: Lang, names: string[]) {
  for (const name of names)
    await expect(page.getByRole('button', { name: say(lang, name), exact: true }), name).toHaveCount(0);
}

/** Every tab as a role that may read but not move money: the data is there, the controls are not. */
async function walk(page: Page, role: 'support' | 'auditor', lang: Lang) {
  const tabs = page.getByRole('tab');
  await expect(page.getByRole('tab', { name: say(lang, 'Staff'), exact: true })).toHaveCount(0);
  await expect(tabs).toHaveCount(TABS.length);
  for (const tab of TABS) {
    await openTab(page, say(lang, tab));
    const panel = page.getByRole('tabpanel');
    switch (tab) {
      case 'Admin':
        await expect(panel.getByRole('button', { name: say(lang, 'Deposits CSV') })).toBeVisible();
        break;
      case 'Users': {
        const card = panel.locator('section', { hasText: LONG_NAME }).first();
        await expect(card.getByText(/1\D?234\D?567/).first()).toBeVisible();
        await card.getByRole('button', { name: say(lang, 'Security'), exact: true }).click();
        await expect(card.getByRole('heading', { name: say(lang, 'Sessions'), exact: true })).toBeVisible();
        const block = card.getByRole('button', { name: say(lang, 'Block'), exact: true });
        const signOut = card.getByRole('button', { name: say(lang, 'Sign out all sessions'), exact: true });
        if (role === 'support') {
          await expect(block).toBeVisible();
          await expect(signOut).toBeVisible();
        } else await expectNone(page, lang, SUPPORT_BUTTONS);
        await expect(panel.getByRole('button', { name: say(lang, 'Download CSV') })).toBeVisible();
        break;
      }
      case 'Deposits':
        await expect(panel.getByText(/2\D?345\D?678/).first()).toBeVisible();
        for (const p of MONEY_PATTERNS)
          await expect(page.getByRole('button', { name: sayLike(lang, p) })).toHaveCount(0);
        break;
      case 'Withdrawals': {
        await panel
          .getByRole('button', { name: new RegExp(LONG_FIRST_NAME) })
          .first()
          .click();
        const details = panel.locator('section', {
          has: page.getByRole('heading', { name: say(lang, 'Withdrawal details') }),
        });
        await expect(details.getByText(say(lang, 'Pay (net)'))).toBeVisible();
        await expect(panel.getByLabel(say(lang, 'Transaction Hash'))).toHaveCount(0);
        await expect(panel.getByRole('checkbox')).toHaveCount(0);
        await expect(panel.getByRole('form', { name: say(lang, 'Withdrawal limits') })).toHaveCount(0);
        await expect(panel.getByText(say(lang, 'Per investor, 24 hours (USDC)'))).toBeVisible();
        break;
      }
      case 'Tiers':
        await expect(panel.getByText(say(lang, 'ACTIVE'), { exact: true }).first()).toBeVisible();
        break;
      case 'Proof of reserves':
        await expect(panel.getByRole('link', { name: say(lang, 'Public page') })).toBeVisible();
        break;
    }
    await expectNone(page, lang, MONEY_BUTTONS);
    if (role === 'auditor') await expectNone(page, lang, SUPPORT_BUTTONS);
    await look(page, `roles-${role}-${tab.toLowerCase().replace(/ /g, '-')}${lang === 'ar' ? '-ar' : ''}`);
  }
}

for (const role of ['support', 'auditor'] as const) {
  test(`${role}: every admin tab shows its data and no money or change control, in English and Arabic`, async ({
    browser,
  }) => {
    const page = await signedIn(browser, staff[role]);
    await walk(page, role, 'en');
    await page.getByLabel('Language').selectOption('ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await walk(page, role, 'ar');
    await page.getByLabel(say('ar', 'Language')).selectOption('en');
    await page.context().close();
  });
}

test('finance: the money controls are there, the support ones are not', async ({ browser }) => {
  const page = await signedIn(browser, staff.finance);
  await openTab(page, 'Users');
  const card = page.getByRole('tabpanel').locator('section', { hasText: LONG_NAME }).first();
  await expect(card.getByRole('button', { name: 'Update Balance', exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Block', exact: true })).toHaveCount(0);
  await openTab(page, 'Deposits');
  await expect(page.getByRole('button', { name: /^Approve deposit of 2,345,678\.9/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Reject deposit of 2,345,678\.9/ })).toBeVisible();
  await look(page, 'roles-finance-deposits');
  await openTab(page, 'Withdrawals');
  await page
    .getByRole('button', { name: new RegExp(LONG_FIRST_NAME) })
    .first()
    .click();
  await expect(page.getByLabel('Transaction Hash')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Withdrawal limits' })).toBeVisible();
  await look(page, 'roles-finance-withdrawals');
  await openTab(page, 'Tiers');
  await expect(page.getByRole('button', { name: 'New Tier', exact: true })).toBeVisible();
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.getByRole('button', { name: say('ar', 'New Tier'), exact: true })).toBeVisible();
  await look(page, 'roles-finance-tiers-ar');
  await page.getByLabel(say('ar', 'Language')).selectOption('en');
  await page.context().close();
});

async function openProfile(page: Page, lang: Lang) {
  await page.getByRole('button', { name: sayLike(lang, 'Profile menu, {initials}') }).click();
  await page.getByRole('menuitem', { name: say(lang, 'Edit Profile') }).click();
  return page.getByRole('dialog', { name: say(lang, 'Profile') });
}

test('an investor changes the withdrawal password; Withdraw All waits for the hold', async ({ browser }) => {
  const bea = await signUpInvestor(app, { firstName: 'Beatrix', lastName: LONG_LAST_NAME });
  await creditedDeposit(app, bea, 1_500_000.25, FROM);
  const page = await signedIn(browser, bea);
  let profile = await openProfile(page, 'en');
  const section = profile.getByRole('region', { name: 'Withdrawal password' });
  await section.getByRole('button', { name: 'Change withdrawal password' }).click();
  const form = section.getByRole('form', { name: 'Change withdrawal password' });
  const fill = async (current: string, next: string, confirm = next) => {
    await form.getByLabel('Current withdrawal password', { exact: true }).fill(current);
    await form.getByLabel('New withdrawal password', { exact: true }).fill(next);
    await form.getByLabel('Confirm new withdrawal password', { exact: true }).fill(confirm);
    await form.getByRole('button', { name: 'Change withdrawal password' }).click();
  };
  await fill('not-the-withdrawal-password', 'beatrix-new-withdraw-2');
  await expect(form.getByText('Withdrawal password is incorrect')).toBeVisible();
  await form.scrollIntoViewIfNeeded();
  await look(page, 'withdrawal-password-wrong', { toast: 'Withdrawal password is incorrect' });
  await fill(bea.withdrawalPassword, bea.password);
  await expect(form.getByText('Withdrawal password must be different from your login password')).toBeVisible();
  await fill(bea.withdrawalPassword, 'beatrix-new-withdraw-2');
  await expect(toast(page, 'Withdrawal password changed')).toBeVisible();
  await expect(form).toBeHidden();
  const limits = profile.getByRole('region', { name: 'Withdrawal limits' });
  await expect(limits.getByRole('status')).toContainText('Withdrawals are on hold until Nov 17, 2026');
  await limits.scrollIntoViewIfNeeded();
  await look(page, 'withdrawal-password-changed', { toast: 'Withdrawal password changed' });
  await page.keyboard.press('Escape');
  await expect
    .poll(() => app.smtp.mailsTo(bea.email).some((m) => m.subject === 'Your withdrawal password was changed'), {
      timeout: 15_000,
    })
    .toBe(true);

  // Withdraw All with the new password is held, and says until when.
  await openTab(page, 'Investments');
  const cycles = page.locator('section', { has: page.getByRole('heading', { name: 'Cycle Withdrawals' }) });
  await cycles.getByRole('button', { name: 'Withdraw All' }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdraw All' });
  await dialog.getByLabel('Wallet Address (Polygon USDC)').fill(WALLET);
  await dialog.getByLabel('Withdrawal Password', { exact: true }).fill('beatrix-new-withdraw-2');
  await dialog.getByRole('button', { name: 'Review Withdrawal' }).click();
  await dialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();
  const held = toast(
    page,
    /^Withdrawals are on hold for 24 hours after a security change on your account: possible again on Nov 17, 2026, 09:\d\d \(UTC\)\.$/,
  );
  await expect(held).toBeVisible();
  await look(page, 'withdrawal-password-hold', { toast: (await held.textContent()) ?? '' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The form in Arabic, right to left.
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  profile = await openProfile(page, 'ar');
  const arabic = profile.getByRole('region', { name: say('ar', 'Withdrawal password') });
  await arabic.getByRole('button', { name: say('ar', 'Change withdrawal password') }).click();
  await arabic.getByRole('button', { name: say('ar', 'Change withdrawal password') }).click();
  await expect(arabic.getByText(say('ar', 'Withdrawal password must be at least 6 characters'))).toBeVisible();
  await arabic.scrollIntoViewIfNeeded();
  await look(page, 'withdrawal-password-ar');
  await page.context().close();
});
