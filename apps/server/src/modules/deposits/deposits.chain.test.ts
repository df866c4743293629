import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import {
  anvilAvailability,
  deployToken,
  sendToken,
  startAnvil,
  startRpcProxy,
  type Anvil,
  type RpcProxy,
  type Token,
} from '../../../test/anvil.ts';
import {
  call,
  createTestApp,
  expectLedgerClean,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { userBalances } from '../../ledger/ledger.ts';
import { NOT_FOUND_ATTEMPTS, NOT_FOUND_RETRY_MS, recheckPendingDeposits } from './deposits.verify.ts';
import { MSG } from '@harvest/shared/messages';

/**
 * Real chain verification against a local anvil node with a 6-decimal USDC-like token.
 * Skipped only when the anvil binary cannot run here (the reason is printed).
 */
const avail = anvilAvailability();
if (!avail.ok) console.warn(`[deposits.chain.test] skipped: ${avail.why}`);

const CONFIRMATIONS = 3;
const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));

describe.runIf(avail.ok)('deposits verified on chain (anvil)', () => {
  let chain: Anvil;
  let proxy: RpcProxy;
  let token: Token;
  let otherToken: Token;
  let t: TestApp;
  let investor: TestUser;
  let other: TestUser;
  let sender: Address;
  let stranger: Address;
  let depositAddress: Address;

  beforeAll(async () => {
    chain = await startAnvil({ chainId: 137 });
    proxy = await startRpcProxy(chain.url);
    [sender, stranger] = [chain.accounts[1] as Address, chain.accounts[2] as Address];
    depositAddress = chain.accounts[9] as Address;
    token = await deployToken(chain);
    otherToken = await deployToken(chain, 'Fake Dollar', 'FAKE');
    await sendToken(chain, token, chain.accounts[0] as Address, 'mint', [sender, usdc(1_000_000)]);
    await sendToken(chain, otherToken, chain.accounts[0] as Address, 'mint', [sender, usdc(1_000_000)]);
    t = await createTestApp({
      CHAIN_RPC_URL: proxy.url,
      CHAIN_ID: '137',
      USDC_CONTRACTS: `${token.address},0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174`,
      DEPOSIT_ADDRESS: depositAddress,
      DEPOSIT_CONFIRMATIONS: String(CONFIRMATIONS),
    });
    investor = await makeUser(t);
    other = await makeUser(t);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await chain?.stop();
  });

  const submit = (u: TestUser, txHash: string, amount: number | string, fromAddress: string = sender) =>
    call(t, 'POST', '/api/user/process-deposit', { token: u.token, body: { txHash, amount, fromAddress } });
  const balance = async (u: TestUser) => (await userBalances(t.ctx.db, u.user.id)).balance;
  const transfer = (to: Address, amount: number, tk: Token = token, from: Address = sender) =>
    sendToken(chain, tk, from, 'transfer', [to, usdc(amount)]);

  it('a good transfer is pending with its confirmations, then confirmed and credited once enough blocks are mined', async () => {
    const hash = await transfer(depositAddress, 25.5);
    const before = await balance(investor);
    const res = await submit(investor, hash, 25.5);
    expect(res.statusCode).toBe(200);
    expect(res.data.deposit).toMatchObject({
      type: 'real',
      status: 'pending',
      confirmations: 1,
      requiredConfirmations: CONFIRMATIONS,
    });
    expect(res.data.message).toBe(MSG.depositSubmitted);

    await chain.mine(1);
    await recheckPendingDeposits(t.ctx);
    let list = (await call(t, 'GET', '/api/user/deposit-history', { token: investor.token })).data.deposits;
    expect(list[0]).toMatchObject({ _id: res.data.deposit._id, status: 'pending', confirmations: 2 });
    expect(await balance(investor)).toBe(before);

    await chain.mine(1);
    const pass = await recheckPendingDeposits(t.ctx);
    expect(pass.confirmed).toBe(1);
    list = (await call(t, 'GET', '/api/user/deposit-history', { token: investor.token })).data.deposits;
    expect(list[0]).toMatchObject({ status: 'confirmed', confirmations: 3, failureReason: null });
    expect(list[0].processedAt).not.toBeNull();
    expect(await balance(investor)).toBe(before + usdc(25.5));

    // The same transfer again, by its owner or anyone else: 409, nothing credited.
    const again = await submit(investor, hash, 25.5);
    expect(again.statusCode).toBe(409);
    expect(again.data.error).toBe(MSG.depositHashTaken);
    expect((await submit(other, hash.toUpperCase().replace('0X', '0x'), 25.5)).statusCode).toBe(409);
    await recheckPendingDeposits(t.ctx);
    expect(await balance(investor)).toBe(before + usdc(25.5));
    expect(await balance(other)).toBe(0n);
    await expectLedgerClean(t);
  });

  it('confirms at once when the transfer already has enough confirmations', async () => {
    const hash = await transfer(depositAddress, 1);
    await chain.mine(CONFIRMATIONS);
    const res = await submit(other, hash, '1.0');
    expect(res.data.deposit).toMatchObject({ status: 'confirmed', confirmations: CONFIRMATIONS + 1 });
    expect(res.data.message).toBe(MSG.depositConfirmed);
    expect(await balance(other)).toBe(usdc(1));
    await expectLedgerClean(t);
  });

  async function expectFailed(hash: Hex, amount: number, fromAddress: string, reason: RegExp) {
    const res = await submit(investor, hash, amount, fromAddress);
    expect(res.statusCode).toBe(200);
    expect(res.data.deposit.status).toBe('failed');
    expect(res.data.deposit.failureReason).toMatch(reason);
    expect(res.data.message).toBe(res.data.deposit.failureReason);
    await expectLedgerClean(t);
    return res.data.deposit;
  }

  it('wrong recipient fails with the address it went to', async () => {
    const hash = await transfer(stranger, 2);
    await expectFailed(
      hash,
      2,
      sender,
      new RegExp(`Wrong recipient.*${stranger.toLowerCase()}.*${depositAddress.toLowerCase()}`),
    );
  });

  it('wrong sender fails naming the real sender; corrected with the right from-address it is verified and credited', async () => {
    const hash = await transfer(depositAddress, 2);
    const failed = await expectFailed(hash, 2, stranger, new RegExp(`Wrong sender.*${sender.toLowerCase()}`));
    expect(failed.failureKind).toBe('wrong_sender');
    await chain.mine(CONFIRMATIONS);
    const before = await balance(investor);
    const fixed = await call(t, 'POST', '/api/withdrawal/update-failed-deposit', {
      token: investor.token,
      body: { depositId: failed._id, txHash: hash, amount: 2, fromAddress: sender },
    });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.data.deposit).toMatchObject({
      status: 'confirmed',
      fromAddress: sender.toLowerCase(),
      failureReason: null,
      failureKind: null,
    });
    expect(await balance(investor)).toBe(before + usdc(2));
    await expectLedgerClean(t);
  });

  it('an amount that differs from the chain fails and says the chain amount', async () => {
    const hash = await transfer(depositAddress, 7.25);
    await expectFailed(hash, 9, sender, /Amount differs: the chain shows 7\.25 USDC.*you entered 9 USDC/);
  });

  it('a token that is not an allowed USDC contract fails as wrong network or token', async () => {
    const hash = await transfer(depositAddress, 3, otherToken);
    await expectFailed(
      hash,
      3,
      sender,
      new RegExp(`does not transfer USDC on Polygon.*${otherToken.address.toLowerCase()}`),
    );
  });

  it('a transaction without any token transfer fails as wrong network or token', async () => {
    const hash = await chain.wallet.sendTransaction({
      account: sender,
      to: depositAddress,
      value: 1n,
      chain: chain.wallet.chain,
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await expectFailed(hash, 1, sender, /does not transfer USDC on Polygon/);
  });

  it('a reverted transaction fails as reverted', async () => {
    const hash = await sendToken(chain, token, sender, 'transferAndRevert', [depositAddress, usdc(4)], {
      gas: 200_000n,
    });
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('reverted');
    await expectFailed(hash, 4, sender, /reverted/);
  });

  it('a transaction with two Transfer logs credits the one that matches and records its log index', async () => {
    const hash = await sendToken(chain, token, sender, 'transferTwo', [stranger, usdc(1), depositAddress, usdc(6)]);
    await chain.mine(CONFIRMATIONS);
    const before = await balance(investor);
    const res = await submit(investor, hash, 6);
    expect(res.data.deposit).toMatchObject({ status: 'confirmed', amount: 6 });
    const row = await t.ctx.db.query.deposits.findFirst({ where: (d, { eq }) => eq(d.id, res.data.deposit._id) });
    expect(row?.logIndex).toBe(1);
    expect(await balance(investor)).toBe(before + usdc(6));
    await expectLedgerClean(t);
  });

  it('a hash the chain does not know stays pending during the grace period, then fails as not found', async () => {
    const ghost = `0x${randomBytes(32).toString('hex')}`;
    const res = await submit(investor, ghost, 5);
    expect(res.data.deposit).toMatchObject({ status: 'pending', confirmations: 0 });
    const start = t.clock.now().getTime();
    for (let i = 1; i < NOT_FOUND_ATTEMPTS - 1; i++) {
      t.clock.set(new Date(start + i * (NOT_FOUND_RETRY_MS + 1000)));
      await recheckPendingDeposits(t.ctx);
    }
    const mid = await t.ctx.db.query.deposits.findFirst({ where: (d, { eq }) => eq(d.id, res.data.deposit._id) });
    expect(mid?.status).toBe('pending');
    // Not re-checked before its next check time.
    await recheckPendingDeposits(t.ctx);
    t.clock.set(new Date(start + NOT_FOUND_ATTEMPTS * (NOT_FOUND_RETRY_MS + 1000)));
    await recheckPendingDeposits(t.ctx);
    const failed = (await call(t, 'GET', '/api/withdrawal/failed-deposits', { token: investor.token })).data.deposits;
    expect(failed.find((d: { _id: string }) => d._id === res.data.deposit._id)?.failureReason).toMatch(
      /Transaction not found on the Polygon network/,
    );
    t.clock.set(new Date());
    await expectLedgerClean(t);
  });

  it('the owner corrects a failed deposit and it is verified again', async () => {
    const hash = await transfer(depositAddress, 11);
    await chain.mine(CONFIRMATIONS);
    const failed = await expectFailed(hash, 10, sender, /Amount differs: the chain shows 11 USDC/);
    const before = await balance(investor);
    const res = await call(t, 'POST', '/api/withdrawal/update-failed-deposit', {
      token: investor.token,
      body: { depositId: failed._id, txHash: hash, amount: 11 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.deposit).toMatchObject({ _id: failed._id, status: 'confirmed', amount: 11, failureReason: null });
    expect(await balance(investor)).toBe(before + usdc(11));
    await expectLedgerClean(t);
  });

  it('an RPC outage leaves deposits pending (never failed), and they confirm when the node is back', async () => {
    const hash = await transfer(depositAddress, 8);
    const before = await balance(investor);
    proxy.setDown(true);
    try {
      const res = await submit(investor, hash, 8);
      expect(res.statusCode).toBe(200);
      expect(res.data.deposit).toMatchObject({ status: 'pending', confirmations: 0, failureReason: null });
      await chain.mine(CONFIRMATIONS);
      for (let i = 0; i < 3; i++) {
        const pass = await recheckPendingDeposits(t.ctx);
        expect(pass.failed).toBe(0);
      }
      const row = await t.ctx.db.query.deposits.findFirst({ where: (d, { eq }) => eq(d.id, res.data.deposit._id) });
      expect(row?.status).toBe('pending');
      expect(await balance(investor)).toBe(before);
    } finally {
      proxy.setDown(false);
    }
    const pass = await recheckPendingDeposits(t.ctx);
    expect(pass.confirmed).toBeGreaterThanOrEqual(1);
    expect(await balance(investor)).toBe(before + usdc(8));
    await expectLedgerClean(t);
  });

  it('two instances re-checking at once never check (or credit) the same deposit twice', async () => {
    const before = await balance(other);
    const ids: string[] = [];
    for (const amount of [1.5, 2.5, 3.5]) {
      const res = await submit(other, await transfer(depositAddress, amount), amount);
      expect(res.data.deposit.status).toBe('pending');
      ids.push(res.data.deposit._id);
    }
    await chain.mine(CONFIRMATIONS);
    const [a, b] = await Promise.all([recheckPendingDeposits(t.ctx), recheckPendingDeposits(t.ctx)]);
    expect(a.checked + b.checked).toBe(3);
    expect(a.confirmed + b.confirmed).toBe(3);
    expect(await balance(other)).toBe(before + usdc(7.5));
    await expectLedgerClean(t);
  });

  it('an admin may approve a pending real deposit; the job then leaves it alone', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const hash = await transfer(depositAddress, 2.5);
    const before = await balance(investor);
    const res = await submit(investor, hash, 2.5);
    expect(res.data.deposit.status).toBe('pending');
    const ok = await call(t, 'POST', '/api/admin/process-deposit', {
      token: admin.token,
      body: { depositId: res.data.deposit._id },
    });
    expect(ok.statusCode).toBe(200);
    await chain.mine(CONFIRMATIONS);
    await recheckPendingDeposits(t.ctx);
    expect(await balance(investor)).toBe(before + usdc(2.5));
    await expectLedgerClean(t);
  });
});
