import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expect, test, type Page } from '@playwright/test';
import { look, WIDTHS } from '../support/look.ts';
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
 * Statements: Dashboard -> Statement shows the current month (opening line, every kind of movement,
 * closing line) and downloads it as CSV and PDF; another month and custom dates; a period the rules refuse says
 * why; at 375 px the movements are cards and nothing scrolls sideways. The administrator downloads a user's
 * statement from the user's card (audited). Long real data: a 60-character name and seven-figure amounts.
 */
const MONDAY_9 = '2026-11-16T09:00:00Z';
const MONDAY_17 = '2026-11-16T17:30:00Z';
const TUESDAY = '2026-11-17T10:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';
const WALLET = '0x2222222222222222222222222222222222222222';

let app: RunningApp;
let ada: Person;
let page: Page;

test.describe.configure({ mode: 'serial', timeout: 300_000 });

function ok(res: { status: number; data: unknown }, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data;
}

test.beforeAll(async ({ browser }) => {
  app = await startApp();
  await app.setClock('2026-10-20T09:00:00Z');
  let admin = await tokenFor(app, ADMIN);
  ada = await signUpInvestor(app, { firstName: FIRST, lastName: LAST, inviterToken: admin });
  const deposit = async (who: Person, amount: number) => {
    const token = await tokenFor(app, who);
    const d = ok(
      await app.api('POST', '/user/process-deposit', {
        token,
        body: { txHash: randomTxHash(), amount, fromAddress: FROM },
      }),
      'deposit',
    ) as { deposit: { _id: string } };
    ok(
      await app.api('POST', '/admin/process-deposit', {
        token: await tokenFor(app, ADMIN),
        body: { depositId: d.deposit._id },
      }),
      'approve',
    );
  };
  // October: the opening balance of November.
  await deposit(ada, 1_250_000.25);
  // November: a seven-figure deposit, an investment, a cycle, a referral reward, Withdraw All paid, an adjustment.
  await app.setClock(MONDAY_9);
  admin = await tokenFor(app, ADMIN);
  await deposit(ada, 2_500_000.5);
  ada.token = await tokenFor(app, ada);
  ok(await app.api('POST', '/user/invest', { token: ada.token, body: { amount: 5000 } }), 'invest');
  const ben = await signUpInvestor(app, { firstName: 'Ben', lastName: 'Referred', inviterToken: ada.token });
  await deposit(ben, 1000);
  ok(await app.api('POST', '/user/invest', { token: await tokenFor(app, ben), body: { amount: 1000 } }), 'ben invests');
  const inv = (
    ok(await app.api('GET', '/user/dashboard', { token: ada.token }), 'dashboard') as {
      activeInvestments: { _id: string }[];
    }
  ).activeInvestments[0]?._id;
  ok(await app.api('POST', '/user/start-earning', { token: ada.token, body: { investmentId: inv } }), 'start');
  await app.setClock(MONDAY_17);
  ada.token = await tokenFor(app, ada);
  ok(await app.api('POST', '/user/complete-cycle', { token: ada.token, body: { investmentId: inv } }), 'complete');
  ok(
    await app.api('POST', '/withdrawal/request-all', {
      token: ada.token,
      body: { walletAddress: WALLET, withdrawalPassword: ada.withdrawalPassword },
    }),
    'request-all',
  );
  await app.setClock(TUESDAY);
  admin = await tokenFor(app, ADMIN);
  const pending = ok(await app.api('GET', '/withdrawal/admin/pending', { token: admin }), 'pending') as {
    withdrawals: { _id: string; source: string }[];
  };
  for (const w of pending.withdrawals)
    if (w.source !== 'balance')
      ok(
        await app.api('POST', '/withdrawal/admin/approve', {
          token: admin,
          body: { withdrawalId: w._id, txHash: randomTxHash(), notes: '' },
        }),
        'approve',
      );
  ok(
    await app.api('POST', '/admin/update-user-balance', {
      token: admin,
      body: { userId: ada.id, newBalance: 1_000_000, note: 'move to cold' },
    }),
    'adjust',
  );
  page = await (await browser.newContext({ acceptDownloads: true })).newPage();
});
test.afterAll(async () => {
  await page?.context().close();
  await app?.stop();
});

test('the investor: this month on screen, every kind of movement between the opening and closing lines', async () => {
  await signIn(page, app, ada);
  await openTab(page, 'Statement');
  await expect(page.getByRole('heading', { name: '2026-11-01 to 2026-11-30' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Statement of account, 2026-11-01 to 2026-11-30' });
  await expect(table.getByRole('row', { name: /Opening balance/ })).toContainText('1,250,000.2500');
  for (const text of [
    'Deposit',
    'Investment in Platinum',
    'Earnings of cycle 1 (Platinum)',
    'Level 1 referral reward from Ben Referred',
    `Withdrawal of cycle 1 earnings (Platinum) to ${WALLET}`,
    'Withdrawal fee (15%) on cycle 1 earnings (Platinum)',
    `Withdrawal of referral rewards to ${WALLET}`,
    'Balance adjustment by an administrator',
  ])
    await expect(table.getByRole('cell', { name: text, exact: true })).toBeVisible();
  await expect(table.getByRole('row', { name: /Closing balance/ })).toContainText('4,745,000.7500');
  await expect(table.getByRole('row', { name: /^.* Deposit / })).toContainText('+2,500,000.50');
  // The balance withdrawal is not paid yet: the money it holds is still in the closing balance (3,745,000.75 held
  // and the administrator's 1,000,000).
  await expect(page.getByText('8 movements', { exact: true })).toBeVisible();
  await look(page, 'statement');

  // At 375 px: cards, nothing sideways (look() checked the width), every amount on one line.
  await page.setViewportSize(WIDTHS.phone);
  const cards = page.getByRole('list', { name: 'Statement of account, 2026-11-01 to 2026-11-30' });
  await expect(cards).toBeVisible();
  await expect(table).toBeHidden();
  await expect(cards.getByRole('listitem')).toHaveCount(10); // opening, 8 movements, closing
  await page.setViewportSize(WIDTHS.desktop);
});

test('downloads: the CSV and the PDF of the period on screen', async () => {
  let dl = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  let file = await dl;
  expect(file.suggestedFilename()).toBe('harvest-farm-statement-2026-11-01-to-2026-11-30.csv');
  const csv = readFileSync((await file.path()) ?? '', 'utf8').split('\r\n');
  expect(csv[0]).toBe('Date,Description,Reference,Amount (USDC),Balance (USDC)');
  expect(csv[1]).toBe('2026-11-01,Opening balance,,,1250000.25');
  expect(csv.at(-2)).toBe('2026-11-30,Closing balance,,,4745000.75');
  // A spreadsheet can sum it: every amount is a plain number (money out with its minus sign, no formula guard), and
  // the movements add up to the closing balance less the opening one, to the micro-USDC.
  const rows: string[][] = parse(csv.join('\r\n'), { from_line: 3 }).slice(0, -1);
  expect(rows.some((r) => r[3]!.startsWith('-'))).toBe(true);
  for (const r of rows) expect(r[3], r.join()).toMatch(/^-?\d+(\.\d{1,6})?$/);
  const micro = (v: string) => BigInt(Math.round(Number(v) * 1e6));
  expect(rows.reduce((sum, r) => sum + micro(r[3]!), 0n)).toBe(micro('4745000.75') - micro('1250000.25'));
  await expect(toast(page, 'Downloaded harvest-farm-statement-2026-11-01-to-2026-11-30.csv')).toBeVisible();
  dl = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  file = await dl;
  expect(file.suggestedFilename()).toBe('harvest-farm-statement-2026-11-01-to-2026-11-30.pdf');
  expect(
    readFileSync((await file.path()) ?? '')
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
});

test('another month, custom dates, and a period the rules refuse', async () => {
  await page.getByLabel('Month', { exact: true }).fill('2026-10');
  await page.getByRole('button', { name: 'Show statement' }).click();
  await expect(page.getByRole('heading', { name: '2026-10-01 to 2026-10-31' })).toBeVisible();
  await expect(page.getByText('1 movement', { exact: true })).toBeVisible();

  await page.getByText('Custom dates').click();
  await page.getByLabel('From', { exact: true }).fill('2026-11-30');
  await page.getByLabel('To', { exact: true }).fill('2026-11-01');
  await page.getByRole('button', { name: 'Show statement' }).click();
  await expect(
    page.locator('#main').getByRole('alert').filter({ hasText: 'The start date must be on or before the end date' }),
  ).toBeVisible();
  await expect(page.getByLabel('From', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await look(page, 'statement-error');

  await page.getByLabel('From', { exact: true }).fill('2026-11-17');
  await page.getByLabel('To', { exact: true }).fill('2026-11-17');
  await page.getByRole('button', { name: 'Show statement' }).click();
  await expect(page.getByRole('heading', { name: '2026-11-17 to 2026-11-17' })).toBeVisible();
  await expect(page.getByText('4 movements', { exact: true })).toBeVisible(); // two payouts (one with its fee), the adjustment
});

test("the administrator downloads a user's statement from the user's card, and the audit log says so", async () => {
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await signIn(page, app, ADMIN);
  await openTab(page, 'Users');
  await page.getByLabel('Search users by name or e-mail').fill('Featherstonehaugh');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const card = page.getByRole('listitem').filter({ hasText: ada.email });
  await card.getByRole('button', { name: 'Download Statement' }).click();
  await card.getByLabel('Month', { exact: true }).fill('2026-11');
  await look(page, 'admin-user-statement');
  await card.getByLabel('Format').selectOption('csv');
  const dl = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download', exact: true }).click();
  const file = await dl;
  expect(file.suggestedFilename()).toBe('harvest-farm-statement-2026-11-01-to-2026-11-30.csv');
  expect(readFileSync((await file.path()) ?? '', 'utf8')).toContain('Closing balance,,,4745000.75');
  await openTab(page, 'Audit Log');
  const entry = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Statement downloaded' }) });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(`${FIRST} ${LAST}`);
});
