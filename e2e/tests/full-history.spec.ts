import { expect, test } from '@playwright/test';
import { look } from '../support/look.ts';
import {
  LONG_FIRST_NAME,
  LONG_LAST_NAME,
  openTab,
  randomTxHash,
  signIn,
  signUpInvestor,
  tokenFor,
  type Person,
} from '../support/people.ts';
import { startFastApp as startApp } from '../support/fresh-data-dir.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * The Deposit tab keeps its 5 most recent deposits and opens the full history under them: every deposit and
 * withdrawal, paged by 20, filtered by status, searched by hash or address; Back returns to the tab. Looked at in
 * English and Arabic (right to left) at 1280 and 375 px, with a 60-character name and seven-figure amounts.
 */
const MONDAY = '2026-11-16T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';
const WALLET = '0x2222222222222222222222222222222222222222';

let app: RunningApp;
let investor: Person;
const hashes: string[] = [];
const ids: string[] = [];

test.describe.configure({ timeout: 300_000 });

function ok(res: { status: number; data: unknown }, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data;
}

test.beforeAll(async () => {
  app = await startApp();
  await app.setClock(MONDAY);
  investor = await signUpInvestor(app, { firstName: LONG_FIRST_NAME, lastName: LONG_LAST_NAME });
  const admin = await tokenFor(app, ADMIN);
  // 22 deposits, the first credited and withdrawn (Withdraw All, paid), the last credited: 23 rows, 2 pages.
  for (let i = 0; i < 22; i++) {
    const txHash = randomTxHash();
    hashes.push(txHash);
    const amount = i === 0 ? 1_234_567.891234 : (1_000_000 + i * 12_345.67).toFixed(2);
    const d = ok(
      await app.api('POST', '/user/process-deposit', {
        token: investor.token,
        body: { txHash, amount, fromAddress: FROM },
      }),
      'deposit',
    ) as { deposit: { _id: string } };
    ids.push(d.deposit._id);
  }
  const credit = async (depositId: string | undefined) =>
    ok(await app.api('POST', '/admin/process-deposit', { token: admin, body: { depositId } }), 'credit');
  await credit(ids[0]);
  ok(
    await app.api('POST', '/withdrawal/request-all', {
      token: investor.token,
      body: { walletAddress: WALLET, withdrawalPassword: investor.withdrawalPassword },
    }),
    'withdraw all',
  );
  const pending = ok(await app.api('GET', '/withdrawal/admin/pending', { token: admin }), 'pending') as {
    withdrawals: { _id: string }[];
  };
  for (const w of pending.withdrawals)
    ok(
      await app.api('POST', '/withdrawal/admin/approve', {
        token: admin,
        body: { withdrawalId: w._id, txHash: randomTxHash() },
      }),
      'approve',
    );
  // The newest deposit credited afterwards: a seven-figure balance on the tab.
  await credit(ids[21]);
});
test.afterAll(async () => app?.stop());

test('the full history: paged, filtered, searched, in English and Arabic, and Back returns to the tab', async ({
  page,
}) => {
  await signIn(page, app, investor);
  await openTab(page, 'Deposit');
  // The spec's five most recent stay as they are; the full history opens under them.
  await expect(page.getByRole('list', { name: 'Recent deposits' }).getByRole('listitem')).toHaveCount(5);
  await page.getByRole('link', { name: 'Full history' }).click();
  await expect(page).toHaveURL(/tab=deposit&view=history/);
  await expect(page.getByRole('heading', { name: 'Full history' })).toBeFocused();
  const rows = page.getByRole('list', { name: 'Full history' }).getByRole('listitem');
  await expect(rows).toHaveCount(20);
  await expect(page.getByText('23 entries')).toBeVisible();
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  // Newest first: the paid withdrawal, whole wallet address and all.
  await expect(rows.first()).toContainText('Withdrawal of 1,234,567.891234\u00a0USDC');
  await expect(rows.first()).toContainText('Completed');
  await expect(rows.first().getByTitle(WALLET)).toBeVisible();
  await look(page, 'full-history');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  await expect(rows).toHaveCount(3);
  await expect(rows.last()).toContainText('Deposit of 1,234,567.891234\u00a0USDC');
  await expect(rows.last()).toContainText('Confirmed');

  // A status starts again at page 1.
  await page.getByLabel('Status').selectOption('confirmed');
  await expect(page.getByText('2 entries', { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByTitle(hashes[21] ?? '')).toBeVisible();
  await expect(rows.last().getByTitle(hashes[0] ?? '')).toBeVisible();
  await page.getByLabel('Status').selectOption('');

  // A hash by its beginning, in capitals; then % finds nothing (it is a character, not a wildcard).
  const search = page.getByRole('searchbox', { name: 'Search by transaction hash or address' });
  const target = hashes[7] ?? '';
  await search.fill(`0X${target.slice(2, 14).toUpperCase()}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('1 entry', { exact: true })).toBeVisible();
  await expect(rows.first().getByTitle(target)).toBeVisible();
  await search.fill('0x%');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('No deposits or withdrawals match this status and search.')).toBeVisible();
  await look(page, 'full-history-none');
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByText('23 entries')).toBeVisible();

  // The browser's Back returns to the tab, as does the view's own button.
  await page.goBack();
  await expect(page.getByRole('list', { name: 'Recent deposits' })).toBeVisible();
  await expect(page).not.toHaveURL(/view=history/);
  await page.getByRole('link', { name: 'Full history' }).click();
  await expect(rows).toHaveCount(20);

  // Arabic, right to left: the same view said again in place.
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { name: 'السجل الكامل' })).toBeVisible();
  await expect(page.getByText('صفحة 1 من 2')).toBeVisible();
  const arRows = page.getByRole('list', { name: 'السجل الكامل' }).getByRole('listitem');
  await expect(arRows.first()).toContainText('سحب بقيمة');
  await look(page, 'full-history-ar');
  await page.getByRole('button', { name: 'التالي' }).click();
  await expect(page.getByText('صفحة 2 من 2')).toBeVisible();
  await expect(arRows).toHaveCount(3);
  await page.getByRole('button', { name: 'العودة إلى الإيداع' }).click();
  await expect(page).not.toHaveURL(/view=history/);
  await expect(page.getByRole('link', { name: 'السجل الكامل' })).toBeVisible();
  await look(page, 'full-history-ar-tab');
});
