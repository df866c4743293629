import { expect, test, type Page } from '@playwright/test';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { freePort } from '../../apps/server/test/net.ts';
import { look } from '../support/look.ts';
import {
  openTab,
  randomTxHash,
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
 * Passkeys in Chromium, with a CDP virtual authenticator (resident keys, user verification): an investor with a
 * seven-figure balance and a long name adds a passkey in Profile, signs in with it (no password), and confirms a
 * Withdraw All with it; the captured assertion replayed for another address, or again, is refused. The screens pass
 * axe at 1280 and 375 px in English and Arabic.
 */
const MONDAY_9 = '2026-11-16T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';
const OWN = '0x52908400098527886E0F7030069857D2E4169EE7';
const THIEFS = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';

let app: RunningApp;
let site: string;
let ada: Person;

test.describe.configure({ mode: 'serial', timeout: 300_000 });

test.beforeAll(async () => {
  // A passkey's relying party is a domain, not an IP address: the app is opened (and PUBLIC_URL names it) as localhost.
  const port = await freePort();
  site = `http://localhost:${port}`;
  app = await startApp({ PORT: String(port), PUBLIC_URL: site });
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

/** This page's browser gets a platform authenticator that keeps discoverable passkeys and verifies its user. */
async function withAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function openProfile(page: Page) {
  await page.getByRole('button', { name: /^Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  return page.getByRole('dialog', { name: 'Profile' });
}

test('an investor adds a passkey, signs in with it, and confirms Withdraw All with it', async ({ page }) => {
  await withAuthenticator(page);
  await page.goto(`${site}/login`);
  await page.getByLabel('Email').fill(ada.email);
  await page.getByLabel('Password', { exact: true }).fill(ada.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  const profile = await openProfile(page);
  const passkeys = profile.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('No passkey yet.')).toBeVisible();
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await passkeys.getByLabel('Passkey name').fill('Work laptop with a long name');
  // A session alone adds no passkey: without the password the server refuses, and the form says so.
  await passkeys.getByRole('button', { name: 'Create passkey' }).click();
  await expect(toast(page, 'Enter your current password to confirm this change')).toBeVisible();
  await passkeys.getByLabel('Password', { exact: true }).fill(ada.password);
  await look(page, 'passkeys-add-form');
  await passkeys.getByRole('button', { name: 'Create passkey' }).click();
  await expect(toast(page, 'Passkey added')).toBeVisible();
  await expect(passkeys.getByText('Work laptop with a long name')).toBeVisible();
  await expect(passkeys.getByText(/· last used never$/)).toBeVisible();
  await look(page, 'passkeys-profile', { toast: 'Passkey added' });
  await page.keyboard.press('Escape');

  // Signed out, back in with the passkey alone: no password, no code. The e-mail field's autofill offers it from the
  // page's load, and Chromium's virtual authenticator answers such a conditional request by itself (the button's
  // journey: passkeys-more.spec.ts).
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${site}/login`);
  await expect(page).toHaveURL(/\/dashboard/);

  // Withdraw All: the passkey confirms this address, total and list; the request carries its assertion.
  await openTab(page, 'Investments');
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Cycle Withdrawals' }) });
  await section.getByRole('button', { name: 'Withdraw All' }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdraw All' });
  await dialog.getByLabel('Wallet Address (Polygon USDC)').fill(OWN);
  await dialog.getByLabel('Withdrawal Password', { exact: true }).fill(ada.withdrawalPassword);
  await dialog.getByRole('button', { name: 'Review Withdrawal' }).click();
  await look(page, 'passkeys-withdraw-all-confirm');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/withdrawal/request-all'));
  await dialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();
  await expect(toast(page, /^Withdrawal request submitted for/)).toBeVisible();
  const body = (await sent).postDataJSON() as { passkey?: unknown };
  expect(body.passkey).toBeDefined();

  // The captured assertion, replayed: for another address, or again for the same one, it confirms nothing.
  const replay = (walletAddress: string) =>
    app.api('POST', '/withdrawal/request-all', {
      token: ada.token,
      body: { walletAddress, withdrawalPassword: ada.withdrawalPassword, passkey: body.passkey },
    });
  const admin = await tokenFor(app, ADMIN);
  const more = await app.api<{ deposit: { _id: string } }>('POST', '/user/process-deposit', {
    token: ada.token,
    body: { txHash: randomTxHash(), amount: 1_234_567.5, fromAddress: FROM },
  });
  await app.api('POST', '/admin/process-deposit', { token: admin, body: { depositId: more.data.deposit._id } });
  for (const to of [THIEFS, OWN]) {
    const res = await replay(to);
    expect(res.status).toBe(401);
    expect(res.data).toMatchObject({ code: 'passkey_invalid' });
  }
});

test('Arabic: the sign-in page offers the passkey, and Profile lists it, right to left', async ({ page }) => {
  await withAuthenticator(page);
  await page.goto(`${site}/login`);
  // The page is drawn (and its passkey offer started) before the language changes under it.
  await expect(page.getByRole('button', { name: 'Continue with a passkey' })).toBeVisible();
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('button', { name: 'المتابعة بمفتاح مرور' })).toBeVisible();
  await look(page, 'passkeys-sign-in-ar');
  await page.getByLabel('البريد الإلكتروني').fill(ada.email);
  await page.locator('input[type=password]').fill(ada.password);
  await page.locator('form button[type=submit]').click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page
    .getByRole('button', { name: /^Profile menu|قائمة/ })
    .first()
    .click();
  await page
    .getByRole('menuitem')
    .filter({ hasText: /تعديل|Edit/ })
    .first()
    .click();
  const passkeys = page.getByRole('region', { name: 'مفاتيح المرور' });
  await expect(passkeys.getByText('Work laptop with a long name')).toBeVisible();
  await look(page, 'passkeys-profile-ar');
});

test('Prove with my wallet: the browser wallet signs, and the address is added proven, without an e-mail link', async ({
  page,
}) => {
  const admin = await tokenFor(app, ADMIN);
  const bob = await signUpInvestor(app, { firstName: FIRST, lastName: LAST, inviterToken: admin });
  const wallet = privateKeyToAccount(generatePrivateKey());
  // The investor's EIP-1193 wallet: personal_sign is answered by a key held in the test.
  await page.exposeFunction('testWalletSign', (hex: string) => wallet.signMessage({ message: { raw: hex as Hex } }));
  await page.addInitScript(() => {
    const sign = (window as unknown as { testWalletSign(hex: string): Promise<string> }).testWalletSign;
    (window as unknown as { ethereum: unknown }).ethereum = {
      request: async ({ method, params }: { method: string; params: string[] }) => {
        if (method !== 'personal_sign') throw new Error(`unsupported ${method}`);
        return sign(params[0] ?? '');
      },
    };
  });
  await page.goto(`${site}/login`);
  await page.getByLabel('Email').fill(bob.email);
  await page.getByLabel('Password', { exact: true }).fill(bob.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  const profile = await openProfile(page);
  const book = profile.getByRole('region', { name: 'Withdrawal addresses' });
  await book.getByRole('button', { name: 'Add an address' }).click();
  const form = book.getByRole('form', { name: 'Add a withdrawal address' });
  await form.getByLabel('Label').fill('Hardware wallet');
  await form.getByLabel('Wallet address (Polygon USDC)').fill(wallet.address);
  await form.getByRole('button', { name: 'Prove with my wallet' }).click();
  await expect(form.getByText('Signed by the wallet that owns this address')).toBeVisible();
  await form.getByLabel('Login password', { exact: true }).fill(bob.password);
  await form.getByRole('button', { name: 'Add address' }).click();
  await expect(toast(page, /^Address added, proven by its wallet/)).toBeVisible();
  await expect(book.getByText('Proven by its wallet')).toBeVisible();
  await look(page, 'passkeys-proven-address');
});
