import { expect, test } from '@playwright/test';
import { getAddress, type Address } from 'viem';
import { anvilAvailability, sendToken, type Anvil, type Token } from '../../apps/server/test/anvil.ts';
import { DEV_XPUB } from '../../apps/server/test/support/dev-wallet.ts';
import { startChainApp, type ChainApp } from '../support/chain-app.ts';
import { look } from '../support/look.ts';
import { openTab, signIn, signUpInvestor, type Person, toast, stat } from '../support/people.ts';
import type { RunningApp } from '../support/server.ts';

/**
 * Per-investor deposit addresses as an investor sees them, against a real anvil node: with DEPOSIT_XPUB every
 * investor has an address of their own (child k of m/44'/60'/0'/0 of the dev mnemonic, so anvil's account k). (a) A
 * transfer made on the chain shows up by itself, pending with a confirmations bar, and lands in the
 * balance after the confirmations, nobody typing a hash. (b) "Send from my wallet" with an EIP-1193
 * wallet in the page whose requests go to anvil (which signs for its unlocked accounts).
 */

const CONFIRMATIONS = 3;
const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));

test.describe('deposits to your own address (anvil, DEPOSIT_XPUB)', () => {
  test.describe.configure({ mode: 'serial' });
  const avail = anvilAvailability();
  test.skip(!avail.ok, avail.ok ? '' : `anvil cannot run here: ${avail.why}`);

  let running: ChainApp;
  let chain: Anvil;
  let token: Token;
  let app: RunningApp;
  // Senders far from the low child numbers investors get (admin 0, then 1, 2...).
  let sender: Address;
  let walletAccount: Address;

  test.beforeAll(async () => {
    running = await startChainApp({
      funded: [9, 8],
      micro: usdc(1_000),
      env: () => ({
        DEPOSIT_XPUB: DEV_XPUB,
        DEPOSIT_CONFIRMATIONS: String(CONFIRMATIONS),
        DEPOSIT_CHECK_INTERVAL_MS: '300',
      }),
    });
    ({ chain, token, app } = running);
    sender = chain.accounts[9] as Address;
    walletAccount = chain.accounts[8] as Address;
  });
  test.afterAll(async () => {
    await running?.stop();
  });

  async function me(who: Person): Promise<Address> {
    const res = await app.api<{ user: { depositAddress: string } }>('GET', '/user/me', { token: who.token });
    return getAddress(res.data.user.depositAddress);
  }
  async function watcherSaw(who: Person, status: string) {
    await expect
      .poll(
        async () =>
          (await app.api<{ deposits: { status: string }[] }>('GET', '/user/deposit-history', { token: who.token })).data
            .deposits[0]?.status,
        { timeout: 15_000 },
      )
      .toBe(status);
  }

  test('a transfer to my own address shows up by itself, with its confirmations, and lands in the balance', async ({
    page,
  }) => {
    const ann = await signUpInvestor(app, { firstName: 'Ann', lastName: 'Chain' });
    const address = await me(ann);
    expect(chain.accounts.map((a) => getAddress(a))).toContain(address);
    expect([sender, walletAccount].map((a) => getAddress(a))).not.toContain(address);

    // The page's timers on a clock the test can move: the tab polls every 30 s (spec section 9).
    await page.clock.install();
    await signIn(page, app, ann);
    await openTab(page, 'Deposit');
    await expect(page.getByText('Your deposit address (USDC on Polygon)')).toBeVisible();
    await expect(page.getByTestId('deposit-address')).toHaveText(new RegExp(`^${address}$`, 'i'));
    await expect(page.getByRole('img', { name: 'QR code of the deposit address' })).toBeVisible();
    // No browser wallet here: no wallet button; the claim form is the secondary section.
    await expect(page.getByRole('button', { name: 'Send from my wallet' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Not showing up? Submit the transaction' })).toBeVisible();
    await expect(stat(page, 'Current Balance')).toHaveText('0.0000 USDC');
    await look(page, 'deposit-own-address');

    // Someone pays 12.5 USDC to the address from their own wallet; nobody tells the platform.
    const hash = await sendToken(chain, token, sender, 'transfer', [address, usdc(12.5)]);
    await watcherSaw(ann, 'pending');
    await page.clock.fastForward('00:31');
    const recent = page.getByRole('list', { name: 'Recent deposits' });
    const row = recent.getByRole('listitem').first();
    await expect(row).toContainText('12.50 USDC');
    await expect(row.getByText('On-chain', { exact: true })).toBeVisible();
    await expect(row.getByText('Pending', { exact: true })).toBeVisible();
    await expect(row.getByText(`${hash.slice(0, 20)}...`, { exact: true })).toBeVisible();
    await expect(row.getByRole('progressbar', { name: `Confirmations 1 of ${CONFIRMATIONS}` })).toBeVisible();
    await look(page, 'deposit-incoming');

    // Two more blocks: deep enough; the watcher credits it and the tab follows on its own.
    await chain.mine(1);
    await page.clock.fastForward('00:04');
    await expect(row.getByRole('progressbar', { name: `Confirmations 2 of ${CONFIRMATIONS}` })).toBeVisible();
    await chain.mine(1);
    await watcherSaw(ann, 'confirmed');
    await page.clock.fastForward('00:04');
    await expect(row.getByText('Confirmed', { exact: true })).toBeVisible();
    await expect(row.getByRole('progressbar')).toHaveCount(0);
    await expect(stat(page, 'Current Balance')).toHaveText('12.5000 USDC');
    await look(page, 'deposit-credited');
  });

  test('Send from my wallet: the browser wallet switches to the chain, pays my address, and the deposit is credited', async ({
    page,
  }) => {
    const ben = await signUpInvestor(app, { firstName: 'Ben', lastName: 'Wallet' });
    const address = await me(ben);
    const held = async () =>
      (await chain.publicClient.readContract({
        address: token.address,
        abi: token.abi,
        functionName: 'balanceOf',
        args: [walletAccount],
      })) as bigint;
    const before = await held();

    // An EIP-1193 wallet in the page: its account is an unlocked anvil account; it starts on chain 1
    // and switches when asked; everything else goes to anvil's JSON-RPC (through the test, not the
    // page, whose Content-Security-Policy allows only its own origin).
    await page.exposeFunction('__anvilRpc', async (method: string, params: unknown) => {
      const res = await fetch(chain.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
      });
      return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
    });
    await page.addInitScript((account: string) => {
      const w = window as unknown as {
        ethereum: unknown;
        __anvilRpc(
          method: string,
          params: unknown,
        ): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
        __rejectNext?: boolean;
      };
      let chainId = '0x1';
      w.ethereum = {
        async request({ method, params }: { method: string; params?: unknown }) {
          if (w.__rejectNext && method === 'eth_sendTransaction') {
            w.__rejectNext = false;
            throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
          }
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account];
          if (method === 'eth_chainId') return chainId;
          if (method === 'wallet_switchEthereumChain') {
            chainId = (params as [{ chainId: string }])[0].chainId;
            return null;
          }
          const r = await w.__anvilRpc(method, params);
          if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code });
          return r.result;
        },
      };
    }, walletAccount);

    await page.clock.install();
    await signIn(page, app, ben);
    await openTab(page, 'Deposit');
    await expect(page.getByTestId('deposit-address')).toHaveText(new RegExp(`^${address}$`, 'i'));
    const form = page.getByRole('form', { name: 'Send from my wallet' });
    const amount = form.getByLabel('Amount to send (USDC)');
    const send = form.getByRole('button', { name: 'Send from my wallet' });

    // The deposit rules, next to the field and as a toast.
    await amount.fill('0.4');
    await send.click();
    await expect(form.getByText('Minimum deposit is $0.5 USDC', { exact: true })).toBeVisible();
    await expect(toast(page, 'Minimum deposit is $0.5 USDC')).toBeVisible();
    await look(page, 'deposit-wallet-invalid');

    // Rejected in the wallet: said inline, nothing sent.
    await page.evaluate(() => ((window as unknown as { __rejectNext: boolean }).__rejectNext = true));
    await amount.fill('7.25');
    await send.click();
    await expect(form.getByRole('alert')).toHaveText('You rejected the request in your wallet. Nothing was sent.');
    expect(await held()).toBe(before);
    await look(page, 'deposit-wallet-rejected');

    // Accepted: the transfer goes out and its hash is submitted; the deposit is there at once.
    await send.click();
    await expect(toast(page, 'Deposit submitted. It will be credited once it is confirmed.')).toBeVisible();
    await expect(form.getByRole('alert')).toHaveCount(0);
    await expect(amount).toHaveValue('');
    expect(before - (await held())).toBe(usdc(7.25));
    const row = page.getByRole('list', { name: 'Recent deposits' }).getByRole('listitem').first();
    await expect(row).toContainText('7.25 USDC');
    await expect(row.getByText('Pending', { exact: true })).toBeVisible();
    await expect(row.getByRole('progressbar', { name: `Confirmations 1 of ${CONFIRMATIONS}` })).toBeVisible();
    await look(page, 'deposit-wallet-sent');

    await chain.mine(CONFIRMATIONS - 1);
    await watcherSaw(ben, 'confirmed');
    await page.clock.fastForward('00:04');
    await expect(row.getByText('Confirmed', { exact: true })).toBeVisible();
    await expect(stat(page, 'Current Balance')).toHaveText('7.2500 USDC');
    // One deposit: the watcher and the submitted hash found the same transfer.
    const history = await app.api<{ deposits: unknown[] }>('GET', '/user/deposit-history', { token: ben.token });
    expect(history.data.deposits).toHaveLength(1);
  });
});
