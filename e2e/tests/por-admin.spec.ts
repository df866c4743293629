import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  anvilAvailability,
  deployReserveWallet,
  deployToken,
  sendToken,
  startAnvil,
  type Anvil,
} from '../../apps/server/test/anvil.ts';
import { startFastApp } from '../support/fresh-data-dir.ts';
import { look } from '../support/look.ts';
import {
  LONG_FIRST_NAME as FIRST,
  LONG_LAST_NAME as LAST,
  openTab,
  signIn,
  signUpInvestor,
  stat,
  tokenFor,
} from '../support/people.ts';
import { ADMIN, type RunningApp } from '../support/server.ts';

/**
 * The back office's proof of reserves on a real chain (anvil): an administrator is refused a snapshot of one
 * investor, takes one of two, signs it offline with the real `por:sign` (a key for the payout address, 2 of the 3
 * owners of a contract-wallet treasury) and uploads the file: the counted reserves change on the admin screen and on
 * the public page, and a reserve that does not count says why. English and Arabic, 1280 and 375 px, seven figures.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));

const payoutKey = generatePrivateKey();
const ownerKeys = [generatePrivateKey(), generatePrivateKey(), generatePrivateKey()];
const owners = ownerKeys.map((k) => privateKeyToAccount(k).address);
const payout = privateKeyToAccount(payoutKey).address;
const shared = privateKeyToAccount(generatePrivateKey()).address;

let chain: Anvil;
let app: RunningApp;
let treasury: Address;
let dir: string;

test.describe('proof of reserves in the back office (anvil)', () => {
  test.describe.configure({ mode: 'serial', timeout: 300_000 });
  const avail = anvilAvailability();
  test.skip(!avail.ok, avail.ok ? '' : `anvil cannot run here: ${avail.why}`);

  test.beforeAll(async () => {
    chain = await startAnvil({ chainId: 137 });
    const token = await deployToken(chain);
    treasury = await deployReserveWallet(chain, owners, 2);
    const minter = chain.accounts[0] as Address;
    await sendToken(chain, token, minter, 'mint', [payout, usdc(1_500_000)]);
    await sendToken(chain, token, minter, 'mint', [treasury, usdc(2_750_000)]);
    await sendToken(chain, token, minter, 'mint', [shared, usdc(250)]);
    app = await startFastApp({
      CHAIN_RPC_URL: chain.url,
      CHAIN_ID: '137',
      USDC_CONTRACTS: token.address,
      PAYOUT_ADDRESS: payout,
      TREASURY_ADDRESS: treasury,
      DEPOSIT_ADDRESS: shared,
      JWT_TTL_SECONDS: String(7 * 24 * 3600),
    });
    await app.setClock('2026-11-16T09:00:00Z');
    dir = mkdtempSync(path.join(os.tmpdir(), 'por-admin-'));
  });
  test.afterAll(async () => {
    await app?.stop();
    await chain?.stop();
  });

  async function investor(firstName: string, lastName: string, balance: number) {
    const p = await signUpInvestor(app, { firstName, lastName, inviterToken: await tokenFor(app, ADMIN) });
    const set = await app.api('POST', '/admin/update-user-balance', {
      token: await tokenFor(app, ADMIN),
      body: { userId: p.id, newBalance: balance },
    });
    expect(set.status).toBe(200);
  }

  /** The real `npm run por:sign` (its build), the keys on standard input: the signatures file it writes. */
  async function porSign(id: string, keys: Hex[], signers: Address[], name: string): Promise<string> {
    const snapshot = path.join(dir, 'snapshot.json');
    writeFileSync(snapshot, JSON.stringify((await app.api('GET', `/proof-of-reserves/${id}`)).data));
    const out = path.join(dir, name);
    const args = ['--snapshot', id, '--from', snapshot, '--out', out, '--wallet', `${treasury}:${signers.join(',')}`];
    const run = await new Promise<{ status: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['apps/server/dist/cli/por-sign.js', ...args], { cwd: ROOT });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.once('exit', (status) => resolve({ status, output }));
      child.stdin.end(`${keys.join('\n')}\n`);
    });
    expect(run.output).toContain(`Signed snapshot ${id}`);
    expect(run.status).toBe(0);
    return out;
  }

  async function english(browser: Browser): Promise<Page> {
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await signIn(page, app, ADMIN);
    await openTab(page, 'Proof of reserves');
    return page;
  }

  test('a snapshot of one investor is refused; of two it is taken and listed with its figures', async ({ browser }) => {
    await investor(FIRST, LAST, 2_500_000.5);
    const page = await english(browser);
    await expect(page.getByText('No snapshot has been taken yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Take a snapshot now' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Take a snapshot now?' });
    await dialog.getByRole('button', { name: 'Take and publish' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'A proof of reserves needs at least 2 investors: nothing was published.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await investor('Ben', 'Second', 1_250_000.25);
    await page.getByRole('button', { name: 'Take a snapshot now' }).click();
    await dialog.getByRole('button', { name: 'Take and publish' }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByTestId('por-snapshot');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('3,750,000.75 USDC');
    await expect(row).toContainText(/Investors\s*2/);
    await expect(row).toContainText(/Reserves counted\s*0(\.00)?\sUSDC/);
    await expect(row).toContainText('4,250,250');
    for (const r of await page.getByTestId('por-reserve').all())
      await expect(r.locator('[data-verified]')).toHaveText('No signature uploaded: listed, not counted');
  });

  test('uploading por:sign files: one owner of the treasury does not count it, two of three do; the public page follows', async ({
    browser,
  }) => {
    const page = await english(browser);
    const id = (await page.getByTestId('por-snapshot').getAttribute('data-id'))!;
    const upload = page.getByLabel('Upload the signatures file (npm run por:sign)');
    const reserve = (a: string) =>
      page.locator(`[data-testid="por-reserve"][data-address="${a.toLowerCase()}"] [data-verified]`);

    await upload.setInputFiles(await porSign(id, [payoutKey, ownerKeys[1]!], [owners[1]!], 'one-owner.json'));
    await expect(reserve(payout)).toHaveText('Signature verified: counted');
    await expect(reserve(treasury)).toHaveText('Fewer owners signed than the wallet requires: listed, not counted');
    await expect(reserve(shared)).toHaveText('No signature uploaded: listed, not counted');
    await expect(page.getByTestId('por-snapshot')).toContainText(/Reserves counted\s*1,500,000(\.00)?\sUSDC/);

    await upload.setInputFiles(
      await porSign(id, [payoutKey, ownerKeys[2]!, ownerKeys[0]!], [owners[2]!, owners[0]!], 'two-owners.json'),
    );
    await expect(reserve(treasury)).toHaveText('Signature verified: counted');
    await expect(page.getByTestId('por-snapshot')).toContainText(/Reserves counted\s*4,250,000(\.00)?\sUSDC/);
    await expect(page.getByTestId('por-snapshot')).toContainText('113.33');
    await look(page, 'por-admin');

    // A file of another snapshot is refused before anything is sent.
    const other = path.join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ snapshotId: '00000000-0000-4000-8000-000000000000', signatures: [] }));
    await upload.setInputFiles(other);
    await expect(
      page.getByRole('alert').filter({ hasText: 'This file signs snapshot 00000000-0000-4000-8000-000000000000' }),
    ).toHaveText(`This file signs snapshot 00000000-0000-4000-8000-000000000000, not the one shown (${id}).`);

    const pub = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await pub.goto(`${app.baseURL}/proof-of-reserves`);
    await expect(pub.getByText('Signature verified: counted')).toHaveCount(2);
    await expect(stat(pub, 'Investors')).toHaveText('2');
    await expect(stat(pub, 'Reserves counted')).toHaveText('4,250,000.00\u00a0USDC');
  });

  test('Arabic: the admin screen and the public page read right to left', async ({ browser }) => {
    const page = await english(browser);
    await page.locator('#language-menu').selectOption('ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('button', { name: 'التقط لقطة الآن' })).toBeVisible();
    await expect(page.getByText('وقّع عدد من المالكين أقل مما تتطلبه المحفظة: مُدرج وغير محتسب')).toHaveCount(0);
    await expect(page.getByText('لم يُرفع أي توقيع: مُدرج وغير محتسب')).toHaveCount(1);
    await look(page, 'ar-por-admin');

    const pub = await (await browser.newContext({ locale: 'ar-SA' })).newPage();
    await pub.goto(`${app.baseURL}/proof-of-reserves`);
    await expect(pub.getByRole('heading', { level: 1, name: 'إثبات الاحتياطيات' })).toBeVisible();
    await look(pub, 'ar-por-public-counted');
  });
});
