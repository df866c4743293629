import { expect, test, type Browser, type Page } from '@playwright/test';
import { look } from '../support/look.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import {
  creditedDeposit,
  signIn,
  signUpInvestor,
  tokenFor,
  type Person,
  LONG_FIRST_NAME as FIRST,
  LONG_LAST_NAME as LAST,
} from '../support/people.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * Proof of reserves: the public page (no sign-in) shows the latest snapshot, its history and its reserve
 * addresses; an investor's dashboard shows their amount in it, checks their proof in the browser with the
 * verifier's own code, and downloads it. English and Arabic, at 1280 and 375 px, seven-figure amounts.
 */
const FROM = '0x1111111111111111111111111111111111111111';
let app: RunningApp;
let ada: Person;

test.describe.configure({ mode: 'serial', timeout: 300_000 });

test.beforeAll(async () => {
  app = await startApp();
  await app.setClock('2026-11-16T09:00:00Z');
  const admin = await tokenFor(app, ADMIN);
  ada = await signUpInvestor(app, { firstName: FIRST, lastName: LAST, inviterToken: admin });
  const ben = await signUpInvestor(app, { firstName: 'Ben', lastName: 'Second', inviterToken: admin });
  await creditedDeposit(app, ada, 2_500_000.5, FROM);
  await creditedDeposit(app, ben, 1_250_000.25, FROM);
  const taken = await app.api('POST', '/admin/proof-of-reserves/snapshots', { token: await tokenFor(app, ADMIN) });
  expect(taken.status).toBe(200);
});
test.afterAll(() => app?.stop());

async function pageIn(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale });
  return context.newPage();
}

test('the public page shows the latest snapshot, its history and its reserves, signed in or not', async ({
  browser,
}) => {
  const page = await pageIn(browser, 'en-US');
  await page.goto(`${app.baseURL}/proof-of-reserves`);
  await expect(page.getByRole('heading', { level: 1, name: 'Proof of reserves' })).toBeVisible();
  await expect(page.getByText('3,750,000.75 USDC').first()).toBeVisible();
  await expect(page.getByTestId('por-root')).toContainText(/Root: 0x[0-9a-f]{64}/);
  await expect(page.getByText('No reserve address was read for this snapshot.')).toBeVisible();
  await look(page, 'por-public');
});

test('an investor verifies their own proof in the browser and downloads it', async ({ browser }) => {
  const page = await pageIn(browser, 'en-US');
  await signIn(page, app, ada);
  const mine = page.getByTestId('my-proof');
  await expect(mine).toContainText('2,500,000.5000 USDC');
  await mine.getByRole('button', { name: 'Verify in my browser' }).click();
  await expect(page.getByTestId('my-proof-check')).toHaveAttribute('data-ok', 'yes');
  await expect(page.getByTestId('my-proof-check')).toHaveText(
    'Verified: your amount is in the published total, and every sum on the way adds up.',
  );
  // A snapshot taken since: the new proof checks against its own snapshot, not the latest the browser kept (60 s).
  const newer = await app.api('POST', '/admin/proof-of-reserves/snapshots', { token: await tokenFor(app, ADMIN) });
  expect(newer.status).toBe(200);
  await page.reload();
  await mine.getByRole('button', { name: 'Verify in my browser' }).click();
  await expect(page.getByTestId('my-proof-check')).toHaveAttribute('data-ok', 'yes');
  const download = page.waitForEvent('download');
  await mine.getByRole('button', { name: 'Download my inclusion proof' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^proof-of-reserves-[0-9a-f-]{36}\.json$/);
  await look(page, 'por-investor');
});

test('Arabic: the public page and the investor’s check read right to left', async ({ browser }) => {
  const page = await pageIn(browser, 'ar-SA');
  await page.goto(`${app.baseURL}/proof-of-reserves`);
  await expect(page.getByRole('heading', { level: 1, name: 'إثبات الاحتياطيات' })).toBeVisible();
  await look(page, 'ar-por-public');
  // The account's language wins once signed in (the sign-in form itself is filled in English).
  const put = await app.api('PUT', '/user/preferences', { token: await tokenFor(app, ada), body: { locale: 'ar' } });
  expect(put.status).toBe(200);
  const investor = await pageIn(browser, 'en-US');
  await signIn(investor, app, ada);
  await expect(investor.locator('html')).toHaveAttribute('dir', 'rtl');
  await investor.getByTestId('my-proof').getByRole('button', { name: 'التحقق في متصفحي' }).click();
  await expect(investor.getByTestId('my-proof-check')).toHaveAttribute('data-ok', 'yes');
  await look(investor, 'ar-por-investor');
});
