import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { MSG } from '@harvest/shared/messages';
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
  isPostgres,
  makeUser,
  TEST_SECRET,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { devXpub } from '../../../test/support/dev-wallet.ts';
import { buildApp } from '../../app.ts';
import { userBalances } from '../../ledger/ledger.ts';
import { createDeriver } from '../deposit-addresses/derive.ts';
import { DEPOSIT_WATCHER } from '../deposit-addresses/deposit-addresses.service.ts';
import { DepositWatcher, depositWatcher } from './deposit-watcher.ts';
import { watcherLeaseMs } from './watcher-lease.ts';
import { findCursor } from './watcher.queries.ts';
import { openAlarms } from '../solvency/solvency.queries.ts';
import { refreshOnchainBalances } from '../solvency/solvency.service.ts';
import { readSweepPlan, sweepPlanLines } from '../solvency/sweep-plan.ts';
import { fund } from '../../../test/helpers.ts';

/**
 * The chain watcher (DEPOSIT_XPUB mode) against a real anvil node: deposits to investors' own
 * addresses are found and credited without anyone pasting a hash.
 */
const avail = anvilAvailability();
if (!avail.ok) console.warn(`[deposit-watcher.anvil.test] skipped: ${avail.why}`);

const CONFIRMATIONS = 3;
const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));
const XPUB = devXpub();

describe.runIf(avail.ok)('deposit watcher (anvil, per-investor addresses)', () => {
  let chain: Anvil;
  let proxy: RpcProxy;
  let token: Token;
  let fake: Token;
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let aliceAddr: Address;
  let bobAddr: Address;
  let sender: Address;

  beforeAll(async () => {
    chain = await startAnvil({ chainId: 137, persistent: true });
    proxy = await startRpcProxy(chain.url);
    sender = chain.accounts[1] as Address;
    token = await deployToken(chain);
    fake = await deployToken(chain, 'USD Coin', 'USDC');
    await sendToken(chain, token, chain.accounts[0] as Address, 'mint', [sender, usdc(1_000_000)]);
    await sendToken(chain, fake, chain.accounts[0] as Address, 'mint', [sender, usdc(1_000_000)]);
    t = await createTestApp({
      CHAIN_RPC_URL: proxy.url,
      CHAIN_ID: '137',
      USDC_CONTRACTS: token.address,
      DEPOSIT_XPUB: XPUB,
      DEPOSIT_CONFIRMATIONS: String(CONFIRMATIONS),
      PAYOUT_ADDRESS: chain.accounts[5] as Address,
    });
    alice = await makeUser(t);
    bob = await makeUser(t);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await chain?.stop();
  });

  const watcher = () => depositWatcher(t.ctx);
  const balance = async (u: TestUser) => (await userBalances(t.ctx.db, u.user.id)).balance;
  const transfer = (to: Address, amount: number, tk: Token = token) =>
    sendToken(chain, tk, sender, 'transfer', [to, usdc(amount)]);
  const depositsOf = async (u: TestUser) =>
    (await call(t, 'GET', '/api/user/deposit-history', { token: u.token })).data.deposits as {
      _id: string;
      txHash: string;
      amount: number;
      status: string;
      confirmations: number;
      failureReason: string | null;
    }[];
  const byHash = async (u: TestUser, hash: string) =>
    (await depositsOf(u)).filter((d) => d.txHash === hash.toLowerCase());

  it('GET /api/user/me gives each investor their own address: child k of DEPOSIT_XPUB, k from a sequence', async () => {
    const a = await call(t, 'GET', '/api/user/me', { token: alice.token });
    const b = await call(t, 'GET', '/api/user/me', { token: bob.token });
    aliceAddr = a.data.user.depositAddress;
    bobAddr = b.data.user.depositAddress;
    const d = createDeriver(XPUB);
    expect(aliceAddr).toBe(d.address(0));
    expect(bobAddr).toBe(d.address(1));
    // Stable: asking again hands out nothing new.
    expect((await call(t, 'GET', '/api/user/me', { token: alice.token })).data.user.depositAddress).toBe(aliceAddr);
    const carol = await makeUser(t);
    expect((await call(t, 'GET', '/api/user/me', { token: carol.token })).data.user.depositAddress).toBe(d.address(2));
  });

  it('first start: reads from DEPOSIT_START_BLOCK up to the last block the confirmations make safe', async () => {
    const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    const r = await watcher().pass();
    expect(r).toMatchObject({ ran: true });
    const cursor = await findCursor(t.ctx.db, 'deposits');
    // DEPOSIT_START_BLOCK defaults to 0 outside production; the cursor stops CONFIRMATIONS deep (the head counts as one).
    expect(cursor?.blockNumber).toBe(head - BigInt(CONFIRMATIONS) + 1n);
    expect(BigInt(r.blocks)).toBe(head - BigInt(CONFIRMATIONS) + 1n);
    expect(cursor?.headBlock).toBe(head);
    expect(cursor?.checkedAt).toBeInstanceOf(Date);
    expect(watcher().status()).toMatchObject({
      enabled: true,
      lagBlocks: CONFIRMATIONS - 1,
      consecutiveFailures: 0,
      leader: true,
    });
    expect(watcher().status().lastSuccessAt).toBeInstanceOf(Date);
    // Operations: the lag gauge, the last good pass, and the readiness check.
    expect(await t.ctx.metrics.registry.getSingleMetricAsString('deposit_watcher_lag_blocks')).toMatch(
      new RegExp(`deposit_watcher_lag_blocks ${CONFIRMATIONS - 1}`),
    );
    const lastSuccess = await t.ctx.metrics.registry.getSingleMetricAsString(
      'deposit_watcher_last_success_timestamp_seconds',
    );
    expect(Number(lastSuccess.split(' ').at(-1))).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(t.ctx.readiness.map((c) => c.name)).toContain('deposit-watcher');
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('a transfer is pending with its confirmations, credited once deep enough, exactly once', async () => {
    const before = await balance(alice);
    const hash = await transfer(aliceAddr, 25.5);
    await watcher().pass();
    expect(await byHash(alice, hash)).toMatchObject([{ status: 'pending', confirmations: 1, amount: 25.5 }]);
    await chain.mine(1);
    await watcher().pass();
    expect(await byHash(alice, hash)).toMatchObject([{ status: 'pending', confirmations: 2 }]);
    expect(await balance(alice)).toBe(before);
    await chain.mine(1);
    const r = await watcher().pass();
    expect(r.credited).toBe(1);
    expect(await byHash(alice, hash)).toMatchObject([{ status: 'confirmed', confirmations: 3 }]);
    expect(await balance(alice)).toBe(before + usdc(25.5));
    await chain.mine(2);
    await watcher().pass();
    await watcher().pass();
    expect(await balance(alice)).toBe(before + usdc(25.5));
    expect(await byHash(alice, hash)).toHaveLength(1);
    await expectLedgerClean(t);
  });

  it('two transfers in one transaction are two deposits', async () => {
    const before = await balance(alice);
    const hash = await sendToken(chain, token, sender, 'transferTwo', [aliceAddr, usdc(2), aliceAddr, usdc(3)]);
    await chain.mine(CONFIRMATIONS);
    await watcher().pass();
    const rows = await byHash(alice, hash);
    expect(rows.map((d) => [d.amount, d.status]).sort()).toEqual([
      [2, 'confirmed'],
      [3, 'confirmed'],
    ]);
    expect(await balance(alice)).toBe(before + usdc(5));
    await expectLedgerClean(t);
  });

  it('a look-alike token (same name and symbol, another contract) is ignored', async () => {
    const before = await balance(bob);
    const hash = await transfer(bobAddr, 50, fake);
    await chain.mine(CONFIRMATIONS);
    await watcher().pass();
    expect(await byHash(bob, hash)).toEqual([]);
    expect(await balance(bob)).toBe(before);
  });

  it("a transfer below the minimum deposit is recorded as 'Below the minimum deposit' and not credited", async () => {
    const before = await balance(bob);
    const hash = await transfer(bobAddr, 0.4);
    await chain.mine(CONFIRMATIONS);
    await watcher().pass();
    expect(await byHash(bob, hash)).toMatchObject([
      { status: 'failed', amount: 0.4, failureReason: MSG.depositBelowMinimum },
    ]);
    expect(await balance(bob)).toBe(before);
    await expectLedgerClean(t);
  });

  it("a claim of a transfer to another investor's address is refused and credits nothing", async () => {
    const before = { alice: await balance(alice), bob: await balance(bob) };
    const hash = await transfer(bobAddr, 12);
    await chain.mine(CONFIRMATIONS);
    const res = await call(t, 'POST', '/api/user/process-deposit', {
      token: alice.token,
      body: { txHash: hash, amount: 12, fromAddress: sender },
    });
    expect(res.statusCode).toBe(400);
    const said = MSG.depositNotYourAddress([bobAddr.toLowerCase()], aliceAddr);
    expect(res.data).toEqual({
      error: said.text,
      code: 'chain_mismatch',
      template: said.template,
      params: said.params,
    });
    expect(await byHash(alice, hash)).toEqual([]);
    expect(await balance(alice)).toBe(before.alice);
    // The rightful owner gets it, by the watcher.
    await watcher().pass();
    expect(await balance(bob)).toBe(before.bob + usdc(12));
    await expectLedgerClean(t);
  });

  it('a claim of your own transfer and the watcher finding it are one deposit', async () => {
    const before = await balance(alice);
    const hash = await transfer(aliceAddr, 4);
    const claimed = await call(t, 'POST', '/api/user/process-deposit', {
      token: alice.token,
      body: { txHash: hash, amount: 4, fromAddress: sender },
    });
    expect(claimed.statusCode).toBe(200);
    expect(claimed.data.deposit).toMatchObject({ status: 'pending', confirmations: 1 });
    await chain.mine(CONFIRMATIONS);
    await Promise.all([
      watcher().pass(),
      call(t, 'POST', '/api/user/process-deposit', {
        token: alice.token,
        body: { txHash: hash, amount: 4, fromAddress: sender },
      }),
    ]);
    expect(await byHash(alice, hash)).toMatchObject([{ status: 'confirmed' }]);
    expect(await balance(alice)).toBe(before + usdc(4));
    await expectLedgerClean(t);
  });

  it('an address counts only transfers from the block in which it was handed out', async () => {
    // The next investor number is predictable from the xpub: someone pays it before it is handed out.
    const early = await transfer(createDeriver(XPUB).address(3) as Address, 5);
    await chain.mine(CONFIRMATIONS);
    await watcher().pass();
    const dave = await makeUser(t);
    const daveAddr = (await call(t, 'GET', '/api/user/me', { token: dave.token })).data.user.depositAddress;
    expect(daveAddr).toBe(createDeriver(XPUB).address(3));
    const claim = await call(t, 'POST', '/api/user/process-deposit', {
      token: dave.token,
      body: { txHash: early, amount: 5, fromAddress: sender },
    });
    expect(claim.statusCode).toBe(400);
    await watcher().pass();
    expect(await byHash(dave, early)).toEqual([]);
    // From the handout on, it counts.
    const later = await transfer(daveAddr, 5);
    await chain.mine(CONFIRMATIONS);
    await watcher().pass();
    expect(await byHash(dave, later)).toMatchObject([{ status: 'confirmed' }]);
    await expectLedgerClean(t);
  });

  it('a re-organisation within the confirmations (evm_snapshot / evm_revert) drops a pending deposit, never credited', async () => {
    const before = await balance(bob);
    const snapshot = await chain.publicClient.request({ method: 'evm_snapshot' as never });
    const hash = await transfer(bobAddr, 9);
    await chain.mine(1);
    await watcher().pass();
    expect(await byHash(bob, hash)).toMatchObject([{ status: 'pending', confirmations: 2 }]);
    await chain.publicClient.request({ method: 'evm_revert' as never, params: [snapshot] as never });
    await chain.mine(3);
    const r = await watcher().pass();
    // Above the cursor: no rewind and no alarm, the deposit is matched with its transaction again and is gone.
    expect(r).toMatchObject({ rewound: false, dropped: 1 });
    expect(await byHash(bob, hash)).toMatchObject([{ status: 'failed', failureReason: MSG.depositDroppedByReorg }]);
    expect(await openAlarms(t.ctx.db)).toEqual([]);
    await chain.mine(CONFIRMATIONS);
    await watcher().pass();
    expect(await balance(bob)).toBe(before);
    // The watcher still follows the new chain.
    const after = await transfer(bobAddr, 6);
    await chain.mine(CONFIRMATIONS);
    await watcher().pass();
    expect(await byHash(bob, after)).toMatchObject([{ status: 'confirmed' }]);
    expect(await balance(bob)).toBe(before + usdc(6));
    await expectLedgerClean(t);
  });

  it('a below-minimum transfer shown before it was deep says so when a re-organisation drops it, and stays uncredited when mined again', async () => {
    const before = await balance(bob);
    const evm = (method: string, params?: unknown[]) =>
      chain.publicClient.request({ method: method as never, ...(params ? { params: params as never } : {}) });
    // Dropped: shown at once as below the minimum, then the block is gone.
    let snapshot = await evm('evm_snapshot');
    const dropped = await transfer(bobAddr, 0.2);
    await chain.mine(1);
    await watcher().pass();
    expect(await byHash(bob, dropped)).toMatchObject([{ status: 'failed', failureReason: MSG.depositBelowMinimum }]);
    await evm('evm_revert', [snapshot]);
    await chain.mine(CONFIRMATIONS + 1);
    await watcher().pass();
    expect(await byHash(bob, dropped)).toMatchObject([{ status: 'failed', failureReason: MSG.depositDroppedByReorg }]);
    // Moved: the same transaction mined again in another block is still below the minimum, never credited.
    snapshot = await evm('evm_snapshot');
    const moved = await transfer(bobAddr, 0.3);
    const raw = await evm('eth_getRawTransactionByHash', [moved]);
    await chain.mine(1);
    await watcher().pass();
    await evm('evm_revert', [snapshot]);
    await chain.mine(2);
    await evm('eth_sendRawTransaction', [raw]);
    await chain.mine(CONFIRMATIONS + 1);
    await watcher().pass();
    await watcher().pass();
    expect(await byHash(bob, moved)).toMatchObject([
      { status: 'failed', amount: 0.3, failureReason: MSG.depositBelowMinimum },
    ]);
    expect(await balance(bob)).toBe(before);
    expect(await openAlarms(t.ctx.db)).toEqual([]);
    await expectLedgerClean(t);
  });

  it('an RPC outage (anvil stopped and restarted, then errors) loses nothing: no block skipped, found after', async () => {
    const before = await balance(alice);
    const cursor = (await findCursor(t.ctx.db, 'deposits'))?.blockNumber;
    const hash = await transfer(aliceAddr, 7);
    await chain.mine(CONFIRMATIONS);
    await chain.restart(async () => {
      for (let i = 0; i < 3; i++) expect((await watcher().pass()).stopped).toBe('fault');
      expect(watcher().status()).toMatchObject({ consecutiveFailures: 3 });
      expect(watcher().status().lastError).toMatch(/chain RPC unavailable/);
      expect((await findCursor(t.ctx.db, 'deposits'))?.blockNumber).toBe(cursor);
    });
    // The node answers errors (503) in the middle of a pass, after some reads succeeded: nothing moves past them.
    proxy.failNext(2);
    expect((await watcher().pass()).stopped).toBe('fault');
    const r = await watcher().pass();
    expect(r.stopped).toBeUndefined();
    expect(watcher().status().consecutiveFailures).toBe(0);
    expect(await byHash(alice, hash)).toMatchObject([{ status: 'confirmed' }]);
    expect(await balance(alice)).toBe(before + usdc(7));
    await expectLedgerClean(t);
  });

  it('a provider that caps eth_getLogs ranges: ranges halve until the answer fits, read ahead in order, each transfer once', async () => {
    const before = await balance(alice);
    await watcher().pass();
    const cursor = (await findCursor(t.ctx.db, 'deposits'))?.blockNumber ?? 0n;
    const amounts = [1, 2, 3, 4, 5, 6];
    const hashes: string[] = [];
    for (const a of amounts) {
      hashes.push(await transfer(aliceAddr, a));
      await chain.mine(2);
    }
    await chain.mine(CONFIRMATIONS);
    proxy.capLogRange(3);
    const refusedBefore = proxy.refusedLogReads();
    try {
      const r = await watcher().pass();
      expect(r.stopped).toBeUndefined();
      // Every block after the old cursor was read once the ranges fit: none skipped.
      expect(BigInt(r.blocks)).toBe(((await findCursor(t.ctx.db, 'deposits'))?.blockNumber ?? 0n) - cursor);
      expect(r.recorded).toBe(amounts.length);
    } finally {
      proxy.capLogRange(null);
    }
    expect(proxy.refusedLogReads()).toBeGreaterThan(refusedBefore);
    for (const h of hashes) expect(await byHash(alice, h)).toMatchObject([{ status: 'confirmed' }]);
    expect(await balance(alice)).toBe(before + usdc(amounts.reduce((a, b) => a + b, 0)));
    // Read again from the same cursor (a second instance, a retry): nothing twice.
    expect((await watcher().pass()).recorded).toBe(0);
    await expectLedgerClean(t);
  });

  it('a restart resumes from the persisted cursor: a transfer made while the server was down is found', async () => {
    const before = await balance(bob);
    await watcher().pass();
    await watcher().release();
    const hash = await transfer(bobAddr, 3.25);
    await chain.mine(CONFIRMATIONS);
    // Another process (a new app on the same database) starts.
    const restarted = await buildApp({
      config: t.ctx.config,
      database: t.database,
      secret: TEST_SECRET,
      clock: t.clock,
    });
    try {
      const w = new DepositWatcher(restarted.ctx);
      const r = await w.pass();
      expect(r.ran).toBe(true);
      expect(await byHash(bob, hash)).toMatchObject([{ status: 'confirmed', amount: 3.25 }]);
      expect(await balance(bob)).toBe(before + usdc(3.25));
      await w.release();
    } finally {
      await restarted.app.close();
    }
    await expectLedgerClean(t);
  });

  it(`two server instances${isPostgres ? ' on PostgreSQL' : ''} watching at once credit once`, async () => {
    const before = { alice: await balance(alice), bob: await balance(bob) };
    const hashes = [await transfer(aliceAddr, 1.5), await transfer(bobAddr, 2.5), await transfer(aliceAddr, 3.5)];
    await chain.mine(CONFIRMATIONS);
    const second = await buildApp({ config: t.ctx.config, database: t.database, secret: TEST_SECRET, clock: t.clock });
    try {
      // The lease is free for both: nobody holds it.
      await watcher().release();
      const a = watcher();
      const b = new DepositWatcher(second.ctx);
      const results = await Promise.all([a.pass(), b.pass(), a.pass(), b.pass(), a.pass(), b.pass()]);
      expect(results.filter((r) => r.stopped === 'lease').length).toBeGreaterThanOrEqual(1);
      expect(results.reduce((n, r) => n + r.credited, 0)).toBe(3);
      // Once the leader lets go, the other takes over.
      await a.release();
      expect((await b.pass()).ran).toBe(true);
      await b.release();
    } finally {
      await second.app.close();
    }
    for (const h of hashes) expect((await byHash(alice, h)).length + (await byHash(bob, h)).length).toBe(1);
    expect(await balance(alice)).toBe(before.alice + usdc(5));
    expect(await balance(bob)).toBe(before.bob + usdc(2.5));
    await expectLedgerClean(t);
  });

  it('a leader that stops without giving the lease back is replaced once its lease expires on the clock', async () => {
    const second = await buildApp({ config: t.ctx.config, database: t.database, secret: TEST_SECRET, clock: t.clock });
    try {
      const a = watcher();
      const b = new DepositWatcher(second.ctx);
      expect((await a.pass()).ran).toBe(true);
      // The leader crashes here: it never releases. Until its lease runs out on the clock, nobody else works.
      expect((await b.pass()).stopped).toBe('lease');
      const until = (await findCursor(t.ctx.db, DEPOSIT_WATCHER))!.leaseUntil!;
      expect(until.getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(
        watcherLeaseMs(t.ctx.config.DEPOSIT_CHECK_INTERVAL_MS),
      );
      t.clock.set(new Date(until.getTime() - 5_000));
      expect((await b.pass()).stopped).toBe('lease');
      t.clock.set(new Date(until.getTime() + 1_000));
      expect((await b.pass()).ran).toBe(true);
      expect(b.status().leader).toBe(true);
      expect((await a.pass()).stopped).toBe('lease');
      await b.release();
    } finally {
      await second.app.close();
    }
  });

  it('solvency: liabilities from the ledger against cached on-chain USDC (batched reads), red below 100 %', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    expect((await call(t, 'GET', '/api/admin/solvency', { token: alice.token })).statusCode).toBe(403);
    const onChain = async (a: Address) =>
      (await chain.publicClient.readContract({
        address: token.address,
        abi: token.abi,
        functionName: 'balanceOf',
        args: [a],
      })) as bigint;
    await transfer(chain.accounts[5] as Address, 100);
    const requestsBefore = proxy.requests();
    expect(await refreshOnchainBalances(t.ctx)).toEqual({ addresses: 6 });
    // 4 investor addresses, DEPOSIT_ADDRESS and PAYOUT_ADDRESS: one batched HTTP request (plus the chain-id check at most).
    expect(proxy.requests() - requestsBefore).toBeLessThanOrEqual(2);
    const addrs = [aliceAddr, bobAddr, createDeriver(XPUB).address(2), createDeriver(XPUB).address(3)] as Address[];
    let held = 0n;
    for (const a of addrs) held += await onChain(a);
    const res = await call(t, 'GET', '/api/admin/solvency', { token: admin.token });
    expect(res.statusCode).toBe(200);
    const owed = await t.ctx.db.query.ledgerAccounts.findMany();
    const liabilities = owed.filter((a) => a.userId !== null).reduce((n, a) => n + a.balance, 0n);
    expect(res.data).toMatchObject({
      liabilities: Number(liabilities) / 1e6,
      assets: { depositAddresses: Number(held) / 1e6, payoutAddress: 100 },
    });
    expect(res.data.coverage).toBeCloseTo(Number(held + 100_000_000n) / Number(liabilities), 3);
    expect(res.data.coverage).toBeGreaterThanOrEqual(1);
    expect(typeof res.data.asOf).toBe('string');
    // Money owed that is not on chain (credited by hand): coverage drops below 1.
    await fund(t, bob.user.id, usdc(1_000));
    const after = (await call(t, 'GET', '/api/admin/solvency', { token: admin.token })).data;
    expect(after.coverage).toBeLessThan(1);

    const plan = await readSweepPlan(t.ctx.db, t.ctx.chain!, t.ctx.config, { now: t.clock.now() });
    if ('error' in plan) throw new Error(plan.error);
    const tk = token.address.toLowerCase();
    expect(plan.totals[tk]).toBe(held.toString());
    expect(plan.tokens).toEqual([{ address: tk, name: 'USD Coin', version: '2', decimals: 6, eip3009: true }]);
    const lines = sweepPlanLines(plan);
    expect(lines.at(-1)).toBe('3 of 4 deposit addresses hold USDC');
    expect(lines).toContain(`Total USD Coin ${tk}: ${Number(held) / 1e6} USDC`);
    expect(lines).toContain(`0\t.../0\t${aliceAddr}\t${tk}\t${Number(await onChain(aliceAddr)) / 1e6}`);
  });
});
