import { expect, test, type Browser, type Page } from '@playwright/test';
import { look } from '../support/look.ts';
import { randomTxHash, signUpInvestor, tokenFor, type Person } from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * Languages: a browser set to Arabic or Russian opens the sign-in page in that language; the language
 * menu of the header chooses it and the account keeps it; the investor's tabs are walked in Arabic (right to left)
 * and in Russian, each looked at (axe clean, nothing wider than the window, screenshots at 1280 and 375 px).
 * Long real data: a 60-character name and seven-figure amounts.
 */
const MONDAY = '2026-11-16T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';

let app: RunningApp;
let layla: Person;
let boris: Person;

test.describe.configure({ mode: 'serial', timeout: 300_000 });

function ok(res: { status: number; data: unknown }, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data;
}

/** An investor with money in every tab: a seven-figure deposit, an investment earning, a referral. */
async function investorWithMoney(firstName: string, lastName: string): Promise<Person> {
  const who = await signUpInvestor(app, { firstName, lastName });
  const admin = await tokenFor(app, ADMIN);
  const d = ok(
    await app.api('POST', '/user/process-deposit', {
      token: who.token,
      body: { txHash: randomTxHash(), amount: 1_234_567.891234, fromAddress: FROM },
    }),
    'deposit',
  ) as { deposit: { _id: string } };
  ok(await app.api('POST', '/admin/process-deposit', { token: admin, body: { depositId: d.deposit._id } }), 'approve');
  ok(await app.api('POST', '/user/invest', { token: who.token, body: { amount: 5000 } }), 'invest');
  const inv = (
    ok(await app.api('GET', '/user/dashboard', { token: who.token }), 'dashboard') as {
      activeInvestments: { _id: string }[];
    }
  ).activeInvestments[0]?._id;
  ok(await app.api('POST', '/user/start-earning', { token: who.token, body: { investmentId: inv } }), 'start');
  await signUpInvestor(app, { firstName: 'Referred', lastName: 'Friend', inviterToken: who.token });
  return who;
}

test.beforeAll(async () => {
  app = await startApp();
  await app.setClock(MONDAY);
  layla = await investorWithMoney('Layla Nour Al-Huda Abdulrahman', 'Al-Zahrani bint Mohammed Al-Faisal');
  boris = await investorWithMoney('Boris', 'Preobrazhensky');
  // A long Cyrillic name (the e-mail the helper makes from it is Latin).
  ok(
    await app.api('PUT', '/user/profile', {
      token: boris.token,
      body: { firstName: 'Борис Александрович', lastName: 'Константинов-Щедрин-Преображенский' },
    }),
    'profile',
  );
});
test.afterAll(async () => app?.stop());

/** A page in a browser whose language is `locale` (navigator.languages), at phone width. */
async function browserIn(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 375, height: 812 } });
  return context.newPage();
}

/** The investor's tabs, by their names in the language on screen, each looked at. */
async function walkTabs(page: Page, prefix: string, tabs: [id: string, name: string][]) {
  for (const [id, name] of tabs) {
    await page.getByRole('tab', { name, exact: true }).click();
    await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    // The tab's content is read (no skeleton left).
    await expect(page.getByRole('status', { name: /./ }).filter({ has: page.locator('.animate-pulse') })).toHaveCount(
      0,
    );
    await page.waitForLoadState('networkidle');
    await look(page, `${prefix}-${id}`);
  }
}

test('Arabic: the browser’s language, right to left, chosen on the sign-in page and kept on the account', async ({
  browser,
}) => {
  const page = await browserIn(browser, 'ar-SA');
  await page.goto(`${app.baseURL}/login`);
  // A first visit from an Arabic browser: the sign-in page is Arabic, laid out right to left.
  await expect(page.getByRole('heading', { name: 'مرحبًا بعودتك' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  // Validation in Arabic (the shared schema's English text, said again).
  await page.getByRole('button', { name: 'تسجيل الدخول' }).click();
  await expect(page.getByText('البريد الإلكتروني وكلمة المرور مطلوبان').first()).toBeVisible();
  await look(page, 'ar-login', { toast: 'البريد الإلكتروني وكلمة المرور مطلوبان' });
  // Chosen on the menu (not only detected): signing in keeps it on the account.
  await page.getByLabel('اللغة').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  // What was typed stays through a change of language.
  await page.getByLabel('Email').fill(layla.email);
  await page.getByLabel('Password', { exact: true }).fill(layla.password);
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.getByLabel('البريد الإلكتروني')).toHaveValue(layla.email);
  await expect(page.getByLabel('كلمة المرور', { exact: true })).toHaveValue(layla.password);
  await look(page, 'ar-login-kept');
  await page.getByRole('button', { name: 'تسجيل الدخول' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect
    .poll(
      async () =>
        ((await app.api('GET', '/user/me', { token: await tokenFor(app, layla) })).data as { user: { locale: string } })
          .user.locale,
    )
    .toBe('ar');
  // Amounts keep Western digits and read left to right inside the right-to-left page.
  await expect(page.getByText('1,229,567.891234\u00a0USDC').first()).toBeVisible();
  await walkTabs(page, 'ar', [
    ['dashboard', 'لوحة التحكم'],
    ['deposit', 'الإيداع'],
    ['tiers', 'المستويات'],
    ['investments', 'الاستثمارات'],
    ['referrals', 'الإحالات'],
    ['statement', 'كشف الحساب'],
  ]);
  await page.context().close();
});

test('Russian: the account’s language wins at sign-in, and every investor tab is Russian', async ({ browser }) => {
  ok(await app.api('PUT', '/user/preferences', { token: await tokenFor(app, boris), body: { locale: 'ru' } }), 'ru');
  // A Russian browser opens the sign-in page in Russian.
  const first = await browserIn(browser, 'ru-RU');
  await first.goto(`${app.baseURL}/login`);
  await expect(first.getByRole('heading', { name: 'С возвращением' })).toBeVisible();
  await look(first, 'ru-login');
  await first.context().close();
  // An English browser: the account's Russian takes over once signed in.
  const page = await browserIn(browser, 'en-US');
  await page.goto(`${app.baseURL}/login`);
  await page.getByLabel('Email').fill(boris.email);
  await page.getByLabel('Password', { exact: true }).fill(boris.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByText('1\u00a0229\u00a0567,891234\u00a0USDC').first()).toBeVisible();
  await walkTabs(page, 'ru', [
    ['dashboard', 'Обзор'],
    ['deposit', 'Пополнение'],
    ['tiers', 'Тарифы'],
    ['investments', 'Вложения'],
    ['referrals', 'Рефералы'],
    ['statement', 'Выписка'],
  ]);
  // The Profile's sessions and security activity: the devices the server names, said in Russian.
  await page.getByRole('button', { name: /^Меню профиля/ }).click();
  await page.getByRole('menuitem', { name: 'Редактировать профиль' }).click();
  const profile = page.getByRole('dialog', { name: 'Профиль' });
  const sessions = profile.getByRole('region', { name: 'Где выполнен вход' });
  await expect(sessions.getByText(/Chrome \d+ на Linux/).first()).toBeVisible();
  await expect(sessions.getByText(/ on /)).toHaveCount(0);
  const activity = profile.getByRole('region', { name: 'Журнал безопасности' });
  await expect(activity.getByText(/ на Linux · /).first()).toBeVisible();
  await activity.scrollIntoViewIfNeeded();
  await look(page, 'ru-profile-security');
  await page.context().close();
});
