import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { freePort } from '../../apps/server/test/net.ts';
import { look } from '../support/look.ts';
import {
  creditedDeposit,
  openTab,
  signUpInvestor,
  tokenFor,
  toast,
  type Person,
  LONG_FIRST_NAME as FIRST,
  LONG_LAST_NAME as LAST,
} from '../support/people.ts';
import { freshDataDir } from '../support/fresh-data-dir.ts';
import { ADMIN, startApp, type RunningApp } from '../support/server.ts';

/**
 * Passkeys, the rest of the journeys, in Chromium with a CDP virtual authenticator: administrators see a withdrawal
 * to an address proven by the investor's wallet in Process Withdrawal; the sign-in page's e-mail field offers saved
 * passkeys (conditional mediation) from its load, and the password form or the passkey button stop that offer; with
 * four-eyes on, an owner with a passkey confirms a finance member's proposal with it. English and Arabic, 1280 and
 * 375 px, seven-figure balances and long names.
 */
const MONDAY_9 = '2026-11-16T09:00:00Z';
const FROM = '0x1111111111111111111111111111111111111111';

const data = freshDataDir();
let app: RunningApp;
let site: string;
let investor: Person;
const finance = { email: 'finance.passkeys@example.com', password: 'finance-member-pass-1' };

test.describe.configure({ mode: 'serial', timeout: 300_000 });

test.beforeAll(async () => {
  // Set up by one owner, then four-eyes on; a passkey's relying party is a domain: the app is opened as localhost.
  const first = await startApp({ DATA_DIR: data.dir });
  await first.setClock(MONDAY_9);
  const owner = await tokenFor(first, ADMIN);
  await first.api('POST', '/admin/staff/invite', {
    token: owner,
    body: { email: finance.email, firstName: FIRST, lastName: LAST, role: 'finance' },
  });
  await expect.poll(() => first.smtp.mailsTo(finance.email).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const token = /staff-invite#token=([A-Za-z0-9_-]+)/.exec(first.smtp.mailsTo(finance.email).at(-1)?.text ?? '')?.[1];
  expect(
    (
      await first.api('POST', '/security/staff-invite', {
        body: { token, password: finance.password, confirmPassword: finance.password },
      })
    ).status,
  ).toBe(200);
  investor = await signUpInvestor(first, { firstName: FIRST, lastName: LAST, inviterToken: owner });
  await creditedDeposit(first, investor, 1_234_567.5, FROM);
  await first.stop();
  const port = await freePort();
  site = `http://localhost:${port}`;
  app = await startApp({ DATA_DIR: data.dir, PORT: String(port), PUBLIC_URL: site, FOUR_EYES: 'on' });
  await app.setClock(MONDAY_9);
});
test.afterAll(async () => {
  await app?.stop();
  data.remove();
});

/** This page's browser gets a platform authenticator that keeps discoverable passkeys and verifies its user. */
async function withAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Every navigator.credentials.get the page makes: its mediation, and how it ended (pending while it waits). */
async function watchCeremonies(page: Page) {
  await page.addInitScript(() => {
    const seen: { mediation: string; ended: string }[] = [];
    (window as unknown as { ceremonies: typeof seen }).ceremonies = seen;
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      const entry = { mediation: options?.mediation ?? 'optional', ended: 'pending' };
      seen.push(entry);
      const asked = get(options);
      asked.then(
        () => (entry.ended = 'answered'),
        (err: Error) => (entry.ended = err.name),
      );
      return asked;
    };
  });
  return () =>
    page.evaluate(() => (window as unknown as { ceremonies: { mediation: string; ended: string }[] }).ceremonies);
}

async function signInWithPassword(page: Page, who: { email: string; password: string }) {
  await page.goto(`${site}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

async function addPasskey(page: Page, name: string, password: string) {
  await page.getByRole('button', { name: /^Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  const passkeys = page.getByRole('dialog', { name: 'Profile' }).getByRole('region', { name: 'Passkeys' });
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await passkeys.getByLabel('Passkey name').fill(name);
  await passkeys.getByLabel('Password', { exact: true }).fill(password);
  await passkeys.getByRole('button', { name: 'Create passkey' }).click();
  await expect(toast(page, 'Passkey added')).toBeVisible();
  await page.keyboard.press('Escape');
}

test('Process Withdrawal shows a withdrawal to an address proven by its wallet, in words', async ({ page }) => {
  // The investor proves an address with their wallet and withdraws everything (seven figures) to it.
  const wallet = privateKeyToAccount(generatePrivateKey());
  const token = await tokenFor(app, investor);
  const m = await app.api<{ message: string }>('POST', '/user/withdrawal-addresses/proof-message', {
    token,
    body: { address: wallet.address },
  });
  const message = m.data.message;
  const added = await app.api('POST', '/user/withdrawal-addresses', {
    token,
    body: {
      label: 'Hardware wallet',
      address: wallet.address,
      password: investor.password,
      message,
      signature: await wallet.signMessage({ message }),
    },
  });
  expect(added.status).toBe(201);
  const sent = await app.api('POST', '/withdrawal/request-all', {
    token,
    body: { walletAddress: wallet.address, withdrawalPassword: investor.withdrawalPassword },
  });
  expect(sent.status).toBe(200);

  await signInWithPassword(page, ADMIN);
  await openTab(page, 'Withdrawals');
  const row = page.getByRole('button', { name: new RegExp(`${FIRST} ${LAST}`) });
  await expect(row.getByText('Proven by its wallet', { exact: true })).toBeVisible();
  await row.click();
  const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Process Withdrawal' }) });
  await expect(panel.getByText('Proven by its wallet', { exact: true })).toBeVisible();
  await expect(panel).toContainText('1,234,567.5');
  await look(page, 'passkeys-more-process-withdrawal-proven');

  await app.api('PUT', '/user/preferences', { token: await tokenFor(app, ADMIN), body: { locale: 'ar' } });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByRole('button', { name: new RegExp(`${FIRST} ${LAST}`) }).click();
  const arPanel = page.locator('section', { has: page.getByRole('heading', { name: 'معالجة السحب' }) });
  await expect(arPanel.getByText('مُثبت بمحفظته', { exact: true })).toBeVisible();
  await look(page, 'passkeys-more-process-withdrawal-proven-ar');
  await app.api('PUT', '/user/preferences', { token: await tokenFor(app, ADMIN), body: { locale: 'en' } });
});

test('the e-mail field offers saved passkeys from the load; the password form and the button stop the offer', async ({
  page,
}) => {
  const ceremonies = await watchCeremonies(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  // No authenticator yet: the offer waits in the field's autofill; signing in with the password stops it. (Chromium's
  // virtual authenticator refuses a conditional request it has no passkey for at once, so none is added before.)
  await page.goto(`${site}/login`);
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  await expect.poll(ceremonies).toEqual([{ mediation: 'conditional', ended: 'pending' }]);
  await look(page, 'passkeys-more-sign-in');
  await page.getByLabel('Email').fill(investor.email);
  await page.getByLabel('Password', { exact: true }).fill(investor.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect.poll(ceremonies).toEqual([{ mediation: 'conditional', ended: 'AbortError' }]);
  const first = await withAuthenticator(page);
  await addPasskey(page, 'Laptop of a person with a long name', investor.password);
  const [saved] = (await first.cdp.send('WebAuthn.getCredentials', { authenticatorId: first.authenticatorId }))
    .credentials;
  if (!saved) throw new Error('no passkey in the authenticator');
  // Back to the browser's own environment (a virtual one without an authenticator offers no conditional mediation).
  await first.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first.authenticatorId });
  await first.cdp.send('WebAuthn.disable');

  // The passkey button takes over from the offer: the authenticator holding the passkey arrives after the load.
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${site}/login`);
  await expect.poll(ceremonies).toEqual([{ mediation: 'conditional', ended: 'pending' }]);
  const second = await withAuthenticator(page);
  await second.cdp.send('WebAuthn.addCredential', { authenticatorId: second.authenticatorId, credential: saved });
  const signIns: string[] = [];
  page.on('request', (r) => r.url().endsWith('/api/passkey-login') && signIns.push(r.method()));
  await page.getByRole('button', { name: 'Continue with a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  expect(await ceremonies()).toEqual([
    { mediation: 'conditional', ended: 'AbortError' },
    { mediation: 'optional', ended: 'answered' },
  ]);
  expect(signIns).toEqual(['POST']);

  // Saved on this browser, the offer signs in by itself: Chromium's virtual authenticator answers a conditional
  // request at once, as a person choosing the passkey in the field's autofill does.
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${site}/login`);
  await expect(page).toHaveURL(/\/dashboard/);
  expect(await ceremonies()).toEqual([{ mediation: 'conditional', ended: 'answered' }]);
  // An aborted offer is no error: nothing thrown, nothing said.
  expect(errors).toEqual([]);
  await expect(page.getByText('This passkey was not accepted. Try again.')).toHaveCount(0);
});

test('with four-eyes, an owner with a passkey confirms the approval of a proposal with it', async ({ page }) => {
  await withAuthenticator(page);
  await signInWithPassword(page, ADMIN);
  await addPasskey(page, 'Owner security key', ADMIN.password);
  const proposed = await app.api('POST', '/admin/update-user-balance', {
    token: await tokenFor(app, finance),
    body: { userId: investor.id, newBalance: 2_500_000.25, expectedBalance: 0, note: 'Correction' },
  });
  expect(proposed.status, JSON.stringify(proposed.data)).toBe(202);

  await openTab(page, 'Approvals');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Update Balance' }) });
  await expect(card).toContainText(`${FIRST} ${LAST}`);
  await expect(card).toContainText('2,500,000.2500');
  await look(page, 'passkeys-more-approvals');
  const language = async (locale: string, dir: string) => {
    await app.api('PUT', '/user/preferences', { token: await tokenFor(app, ADMIN), body: { locale } });
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', dir);
  };
  await language('ar', 'rtl');
  await expect(page.getByRole('listitem').filter({ hasText: `${FIRST} ${LAST}` })).toBeVisible();
  await look(page, 'passkeys-more-approvals-ar');
  await language('en', 'ltr');

  await card.getByRole('button', { name: 'Approve' }).click();
  const approving = page.waitForRequest(
    (r) => /\/api\/admin\/proposals\/[^/]+\/approve$/.test(r.url()) && Boolean(r.postDataJSON()?.passkey),
  );
  await page.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
  // Asked first without it, the server wants the owner's passkey: the request goes again with its assertion.
  const body = (await approving).postDataJSON() as { passkey: { response: { clientDataJSON: string } } };
  const client = JSON.parse(Buffer.from(body.passkey.response.clientDataJSON, 'base64url').toString()) as {
    type: string;
  };
  expect(client.type).toBe('webauthn.get');
  await expect(toast(page, 'Approved: the change is made')).toBeVisible();
  await expect(page.getByText('Nothing waits for approval.')).toBeVisible();
});
