import { expect, test } from '@playwright/test';
import { look } from '../support/look.ts';
import {
  creditedDeposit,
  LONG_FIRST_NAME,
  LONG_LAST_NAME,
  openTab,
  signIn,
  signUpInvestor,
  toast,
  tokenFor,
  type Person,
} from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import type { RunningApp } from '../support/server.ts';

/**
 * Cycle reminders, in a platform zone east of UTC (Europe/Berlin, UTC+1 in December): a cycle about to be started
 * on Friday from 16:00 there says, before the Start click, that it can only be completed on Monday and from when
 * (by the server's clock and rule; nothing at 15:59); the Profile switch turns the ready-to-complete e-mail on and
 * off, kept on the account. English and Arabic, looked at 1280 and 375 px, with a 60-character name and a
 * seven-figure balance.
 */
const WEDNESDAY = '2026-12-02T10:00:00Z';
const FRI_1559 = '2026-12-04T14:59:00Z';
const FRI_1600 = '2026-12-04T15:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';

let app: RunningApp;
let investor: Person;

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  app = await startApp({ PLATFORM_TIMEZONE: 'Europe/Berlin' });
  await app.setClock(WEDNESDAY);
  investor = await signUpInvestor(app, { firstName: LONG_FIRST_NAME, lastName: LONG_LAST_NAME });
  await creditedDeposit(app, investor, 1_234_567.891234, FROM);
  const res = await app.api('POST', '/user/invest', { token: investor.token, body: { amount: 5000 } });
  expect(res.status).toBe(200);
});
test.afterAll(async () => app?.stop());

const remindersOn = async () =>
  (await app.api<{ user: { cycleReminders: boolean } }>('GET', '/user/me', { token: await tokenFor(app, investor) }))
    .data.user.cycleReminders;

test('the Friday warning before a start, and the Profile switch, in English and Arabic', async ({ page }) => {
  await app.setClock(FRI_1559);
  await signIn(page, app, investor);
  await openTab(page, 'Investments');
  const start = page.getByRole('button', { name: 'Start Earning (Mon-Fri only)' });
  await expect(start).toBeEnabled();
  await expect(page.getByText(/only be completed on Monday/)).toHaveCount(0);

  // 16:00 in Berlin: the next poll of the tab brings the server's answer, and the warning comes before the click.
  await app.setClock(FRI_1600);
  const warning = page.getByText(/it can only be completed on Monday, from Dec 7, 2026, 12:00\sAM/);
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('A cycle started now ends Sat, 12:00');
  await expect(start).toHaveAccessibleDescription(/only be completed on Monday, from Dec 7, 2026/);
  await look(page, 'cycle-reminders-friday-warning');

  await page.getByRole('button', { name: /Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Profile' });
  const reminders = profile.getByRole('switch', { name: 'E-mail me when an earning cycle is ready to complete' });
  await expect(reminders).not.toBeChecked();
  await reminders.check();
  await expect(toast(page, 'Cycle reminders turned on')).toBeVisible();
  await expect(reminders).toBeChecked();
  await expect.poll(remindersOn).toBe(true);
  await look(page, 'cycle-reminders-profile', { toast: 'Cycle reminders turned on' });

  // Arabic, chosen in the header: the same switch and warning, right to left.
  await page.keyboard.press('Escape');
  await expect(profile).toHaveCount(0);
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByText(/لا يمكن إكمالها إلا يوم الاثنين، ابتداءً من/)).toBeVisible();
  await look(page, 'cycle-reminders-friday-warning-ar');
  await page.getByRole('button', { name: /قائمة الملف الشخصي/ }).click();
  await page.getByRole('menuitem', { name: 'تعديل الملف الشخصي' }).click();
  const arSwitch = page
    .getByRole('dialog')
    .getByRole('switch', { name: 'أرسل لي بريدًا إلكترونيًا عندما تصبح دورة الربح جاهزة للإكمال' });
  await expect(arSwitch).toBeChecked();
  await arSwitch.uncheck();
  await expect(toast(page, 'تم إيقاف تذكيرات الدورات')).toBeVisible();
  await expect.poll(remindersOn).toBe(false);
  await look(page, 'cycle-reminders-profile-ar', { toast: 'تم إيقاف تذكيرات الدورات' });
});
