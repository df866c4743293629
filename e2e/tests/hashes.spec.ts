import { expect, test, type Locator, type Page } from '@playwright/test';
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
 * Hashes and addresses you can use: every transaction hash and wallet address on screen has a copy button (which
 * copies, by mouse or keyboard, and says "Copied") and a link to the explorer the server names (EXPLORER_URL, a
 * testnet's here), in English and in Arabic, at 1280 and 375 px. Long real data: a 60-character name, a
 * seven-figure deposit paid out to a wallet typed in small letters and shown in its EIP-55 capitals.
 */
const EXPLORER = 'https://amoy.polygonscan.com';
const MONDAY = '2026-11-16T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';
const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';
const WALLET_EIP55 = '0x52908400098527886E0F7030069857D2E4169EE7';
const DEPOSIT_ADDRESS = '0x000000000000000000000000000000000000dEaD';
const depositHash = randomTxHash();
const payoutHash = randomTxHash();

let app: RunningApp;
let max: Person;

test.describe.configure({ timeout: 180_000 });

function ok<T>(res: { status: number; data: T }, what: string): T {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data;
}

test.beforeAll(async () => {
  app = await startApp({ EXPLORER_URL: EXPLORER });
  await app.setClock(MONDAY);
  max = await signUpInvestor(app, { firstName: LONG_FIRST_NAME, lastName: LONG_LAST_NAME });
  const admin = await tokenFor(app, ADMIN);
  const d = ok(
    await app.api<{ deposit: { _id: string } }>('POST', '/user/process-deposit', {
      token: max.token,
      body: { txHash: depositHash, amount: 1_234_567.89, fromAddress: FROM },
    }),
    'deposit',
  );
  ok(await app.api('POST', '/admin/process-deposit', { token: admin, body: { depositId: d.deposit._id } }), 'credit');
  // The whole balance withdrawn and paid: a completed withdrawal with its wallet and payout hash.
  ok(
    await app.api('POST', '/withdrawal/request-all', {
      token: max.token,
      body: { walletAddress: WALLET, withdrawalPassword: max.withdrawalPassword },
    }),
    'withdraw all',
  );
  const mine = ok(
    await app.api<{ withdrawals: { _id: string }[] }>('GET', '/withdrawal/my-withdrawals', { token: max.token }),
    'withdrawals',
  );
  ok(
    await app.api('POST', '/withdrawal/admin/approve', {
      token: admin,
      body: { withdrawalId: mine.withdrawals[0]?._id, txHash: payoutHash },
    }),
    'approve',
  );
});
test.afterAll(async () => app?.stop());

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** The value's explorer link opens `href` in a new tab, without handing the explorer this page. */
async function linksTo(link: Locator, href: string) {
  await expect(link).toHaveAttribute('href', href);
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
}

test('hashes and addresses: copied by mouse and keyboard, linked to the explorer, in English and Arabic', async ({
  page,
  context,
  browser,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseURL });
  await signIn(page, app, max);

  // Deposit tab: the platform's deposit address and the deposit's hash (cut to 20 characters, whole when copied).
  await openTab(page, 'Deposit');
  await linksTo(
    page.getByTestId('deposit-address').getByRole('link', { name: 'View address on the explorer' }),
    `${EXPLORER}/address/${DEPOSIT_ADDRESS}`,
  );
  const row = page.getByRole('list', { name: 'Recent deposits' }).getByRole('listitem').first();
  await expect(row).toContainText('1,234,567.89 USDC');
  await expect(row.getByText(`${depositHash.slice(0, 20)}...`, { exact: true })).toHaveAttribute('aria-hidden', 'true');
  await linksTo(row.getByRole('link', { name: 'View transaction on the explorer' }), `${EXPLORER}/tx/${depositHash}`);
  await row.getByRole('button', { name: 'Copy transaction hash' }).click();
  await expect(row.getByText('Copied', { exact: true })).toBeVisible();
  expect(await clipboard(page)).toBe(depositHash);
  await look(page, 'hashes-deposit');

  // Investments tab: the paid withdrawal's wallet (typed in small letters, shown in EIP-55 capitals) and its payout.
  await openTab(page, 'Investments');
  const paid = page.getByRole('article', { name: 'Withdrawal Completed' });
  await expect(paid.getByText(WALLET_EIP55, { exact: true })).toBeVisible();
  await linksTo(
    paid.getByRole('link', { name: 'View address on the explorer' }),
    `${EXPLORER}/address/${WALLET_EIP55}`,
  );
  await linksTo(paid.getByRole('link', { name: 'View transaction on the explorer' }), `${EXPLORER}/tx/${payoutHash}`);
  // By keyboard: the copy button is reached with Tab order and pressed with Enter.
  await paid.getByRole('button', { name: 'Copy address' }).focus();
  await page.keyboard.press('Enter');
  await expect(paid.getByText('Copied', { exact: true })).toBeVisible();
  expect(await clipboard(page)).toBe(WALLET_EIP55);
  await look(page, 'hashes-withdrawal');

  // Arabic, right to left: the same buttons and links by their Arabic names.
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const paidAr = page.getByRole('article', { name: 'سحب: مكتمل' });
  const copyHashAr = paidAr.getByRole('button', { name: 'نسخ معرّف المعاملة' });
  await copyHashAr.click();
  // The mark beside the button pressed (the address's own mark may still show from the copy above).
  await expect(copyHashAr.locator('..').getByText('تم النسخ', { exact: true })).toBeVisible();
  expect(await clipboard(page)).toBe(payoutHash);
  await linksTo(paidAr.getByRole('link', { name: 'عرض العنوان في المستكشف' }), `${EXPLORER}/address/${WALLET_EIP55}`);
  await look(page, 'hashes-withdrawal-ar');
  await openTab(page, 'الإيداع');
  await page.getByTestId('deposit-address').getByRole('button', { name: 'نسخ العنوان' }).press('Space');
  await expect.poll(() => clipboard(page)).toBe(DEPOSIT_ADDRESS);
  await linksTo(
    page.getByTestId('deposit-address').getByRole('link', { name: 'عرض العنوان في المستكشف' }),
    `${EXPLORER}/address/${DEPOSIT_ADDRESS}`,
  );
  await look(page, 'hashes-deposit-ar', { toast: 'تم نسخ عنوان الإيداع' });

  // The administrator's deposit (hash cut to 30 characters, the sender's address) and the paid withdrawal's panel.
  const adminContext = await browser.newContext();
  await adminContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseURL });
  const admin = await adminContext.newPage();
  await signIn(admin, app, ADMIN);
  await openTab(admin, 'Deposits');
  await expect(admin.getByText(`${depositHash.slice(0, 30)}...`, { exact: true })).toBeVisible();
  await linksTo(admin.getByRole('link', { name: 'View transaction on the explorer' }), `${EXPLORER}/tx/${depositHash}`);
  await linksTo(admin.getByRole('link', { name: 'View address on the explorer' }), `${EXPLORER}/address/${FROM}`);
  await look(admin, 'hashes-admin-deposits');
  await openTab(admin, 'Withdrawals');
  await admin.getByRole('tab', { name: 'History (1)' }).click();
  await admin.getByRole('button', { name: /Completed/ }).click();
  const panel = admin.locator('section').filter({ has: admin.getByRole('heading', { name: 'Process Withdrawal' }) });
  await panel.getByRole('button', { name: 'Copy transaction hash' }).click();
  await expect.poll(() => clipboard(admin)).toBe(payoutHash);
  await linksTo(
    panel.getByRole('link', { name: 'View address on the explorer' }),
    `${EXPLORER}/address/${WALLET_EIP55}`,
  );
  await look(admin, 'hashes-admin-withdrawal');
  await adminContext.close();
});
