import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { look } from '../support/look.ts';
import {
  creditedDeposit,
  LONG_FIRST_NAME as FIRST,
  LONG_LAST_NAME as LAST,
  LONG_NAME as NAME,
  randomTxHash,
  signIn,
  signUpInvestor,
  stat,
  tokenFor,
  type Person,
} from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * What a keyboard user and a careful reader meet, in English and then in Arabic (looked at 1280 and 375 px, with a
 * 60-character name and seven-figure amounts): Invite and the investment confirmation give focus back to the
 * control that opened them; a deposit approval asks first, naming the investor and the amount; the balance and
 * total investment show exactly 4 decimals with the exact figure in their title; the Withdrawal Summary has its
 * heading; daily rates are written as the language writes a percentage.
 */
const WEDNESDAY = '2026-12-02T10:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';
const AR: Record<string, string> = JSON.parse(
  readFileSync(new URL('../../packages/shared/src/locales/ar.json', import.meta.url), 'utf8'),
);
type Lang = 'en' | 'ar';
/** The catalog's text for the language, its {placeholders} filled (the screen's own words, not the test's). */
const say = (lang: Lang, key: string, values: Record<string, string> = {}) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{${k}}`, v), lang === 'ar' ? (AR[key] ?? key) : key);
/** A number as the browser writes it in the language (Arabic keeps Western digits: ar-u-nu-latn). */
const written = (page: Page, lang: Lang, value: number, options: Intl.NumberFormatOptions) =>
  page.evaluate(([l, v, o]) => v.toLocaleString(l, o), [
    lang === 'ar' ? 'ar-u-nu-latn' : 'en-US',
    value,
    options,
  ] as const);

/** Chooses the language in the header and waits until the account keeps it (a page opened next reads it). */
async function chooseArabic(page: Page, who: { email: string; password: string }) {
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const token = await tokenFor(app, who);
  await expect
    .poll(async () => (await app.api<{ user: { locale: string } }>('GET', '/user/me', { token })).data.user.locale)
    .toBe('ar');
}

let app: RunningApp;
let investor: Person;

test.describe.configure({ mode: 'serial', timeout: 240_000 });

test.beforeAll(async () => {
  app = await startApp();
  await app.setClock(WEDNESDAY);
  investor = await signUpInvestor(app, { firstName: FIRST, lastName: LAST });
  await creditedDeposit(app, investor, 1_234_567.891234, FROM);
});
test.afterAll(async () => app?.stop());

for (const lang of ['en', 'ar'] as const)
  test(`${lang}: dialogs give focus back, and the figures are the spec's`, async ({ page }) => {
    await signIn(page, app, investor);
    if (lang === 'ar') await chooseArabic(page, investor);
    const tiers = (
      await app.api<{ tiers: { name: string; amount: number; dailyRate: number }[] }>('GET', '/user/investment-tiers', {
        token: await tokenFor(app, investor),
      })
    ).data.tiers;
    const tier = tiers[0]!;

    // Invite, opened from the keyboard and closed with Done: focus is back on Invite.
    const invite = page.getByRole('button', { name: say(lang, 'Invite'), exact: true });
    await invite.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: say(lang, 'Invite a Friend') });
    await expect(dialog).toBeVisible();
    await look(page, `dialogs-${lang}-invite`);
    await dialog.getByRole('button', { name: say(lang, 'Done'), exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(invite).toBeFocused();

    // The investment confirmation: Cancel, then Confirm, each gives focus back to the tier's button.
    await page.goto(`${app.baseURL}/dashboard?tab=tiers`);
    const rate = await written(page, lang, tier.dailyRate / 100, { style: 'percent', maximumFractionDigits: 4 });
    await expect(page.getByText(rate).first()).toBeVisible();
    const investNow = page.getByRole('button', { name: say(lang, 'Invest Now in {tier}', { tier: tier.name }) });
    const confirm = page.getByRole('dialog', { name: say(lang, 'Confirm investment') });
    await investNow.focus();
    await page.keyboard.press('Enter');
    await expect(confirm).toBeVisible();
    await look(page, `dialogs-${lang}-invest-confirm`);
    await confirm.getByRole('button', { name: say(lang, 'Cancel'), exact: true }).click();
    await expect(confirm).toHaveCount(0);
    await expect(investNow).toBeFocused();
    await page.keyboard.press('Enter');
    await confirm.getByRole('button', { name: say(lang, 'Confirm Investment'), exact: true }).click();
    await expect(confirm).toHaveCount(0);
    await expect(investNow).toBeFocused();

    // Balance and total investment: exactly 4 decimals, cut; the exact micro-USDC in the title.
    await page.goto(`${app.baseURL}/dashboard?tab=dashboard`);
    const invested = (
      await app.api<{ accountSummary: { balance: number; totalInvestment: number } }>('GET', '/user/dashboard', {
        token: await tokenFor(app, investor),
      })
    ).data.accountSummary;
    expect(invested.totalInvestment).toBeGreaterThan(0);
    for (const [label, value] of [
      ['USDC Balance', invested.balance],
      ['Total Investment', invested.totalInvestment],
    ] as const) {
      const four = await written(page, lang, Math.trunc(value * 1e4) / 1e4, {
        minimumFractionDigits: 4,
        maximumFractionDigits: 4,
      });
      const exact = await written(page, lang, value, { minimumFractionDigits: 4, maximumFractionDigits: 6 });
      const card = stat(page, say(lang, label));
      await expect(card).toContainText(`${four}\u00a0USDC`);
      await expect(card).toHaveAttribute('title', new RegExp(`${exact.replace(/[.,]/g, '\\$&')}\\u00a0USDC`));
    }
    await look(page, `dialogs-${lang}-dashboard`);

    // The Withdrawal Summary under its heading.
    await page.goto(`${app.baseURL}/dashboard?tab=investments`);
    const summary = page.getByRole('region', { name: say(lang, 'Withdrawal Summary') });
    await expect(summary.getByRole('heading', { name: say(lang, 'Withdrawal Summary') })).toBeVisible();
    await look(page, `dialogs-${lang}-investments`);
    if (lang === 'ar') await page.getByLabel(say(lang, 'Language')).selectOption('en');
  });

test('ar: approving a deposit asks first, naming the investor and the amount; Cancel gives focus back', async ({
  page,
}) => {
  const pending = await app.api('POST', '/user/process-deposit', {
    token: investor.token,
    body: { txHash: randomTxHash(), amount: 1_234_567.89, fromAddress: FROM },
  });
  expect(pending.status).toBe(200);
  await signIn(page, app, ADMIN);
  await chooseArabic(page, ADMIN);
  await page.goto(`${app.baseURL}/dashboard?tab=deposits`);
  const amount = `${await written(page, 'ar', 1_234_567.89, { minimumFractionDigits: 2 })}\u00a0USDC`;
  const prefix = say('ar', 'Approve deposit of {amount} by {name}').split('{amount}')[0]!;
  const approve = page.getByRole('button', { name: new RegExp(`^${prefix}.*${NAME}`) });
  await approve.click();
  const asks = page.getByRole('alertdialog', { name: say('ar', 'Approve deposit?') });
  await expect(asks).toContainText(amount);
  await expect(asks).toContainText(NAME);
  await look(page, 'dialogs-ar-deposit-approve-confirm');
  await asks.getByRole('button', { name: say('ar', 'Cancel'), exact: true }).click();
  await expect(asks).toHaveCount(0);
  await expect(approve).toBeFocused();
  await page.getByLabel(say('ar', 'Language')).selectOption('en');
});

test('a control focused while the page still loads keeps the focus (the page heading does not take it)', async ({
  page,
}) => {
  await signIn(page, app, investor);
  // The dashboard's chunk is held until Invite, in the header, has the focus: its heading appears after.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/dashboard-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${app.baseURL}/dashboard`);
  const invite = page.getByRole('button', { name: 'Invite', exact: true });
  await invite.focus();
  release();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(invite).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Invite a Friend' })).toBeVisible();
});
