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
import { devXpub } from '../../../test/support/dev-wallet.ts';
import { userBalances } from '../../ledger/ledger.ts';
import { reconcile } from '../reconciliation/reconcile.ts';
import { completeRun, startRun } from '../reconciliation/reconciliation.service.ts';
import { openAlarms } from '../solvency/solvency.queries.ts';
import { depositWatcher } from './deposit-watcher.ts';
import { checkpointsBelow, findCursor } from './watcher.queries.ts';
import { rawRows } from '../../db/raw.ts';
import { sql } from 'drizzle-orm';

/**
 * What a chain and its providers do to a watcher: a lagging node, a provider that cuts its
 * answers short, the chain changing during a read, re-organisations deeper than the confirmations (past more
 * checkpoints than a bounded search would look at), and a fork point that cannot be found. Each on anvil.
 */
const avail = anvilAvailability();
if (!avail.ok) console.warn(`[deposit-watcher.faults.anvil.test] skipped: ${avail.why}`);

const CONFIRMATIONS = 4;
const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));
const hex = (n: bigint) => `0x${n.toString(16)}`;

describe.runIf(avail.ok)('deposit watcher against a misbehaving chain (anvil)', () => {
  let chain: Anvil;
  let proxy: RpcProxy;
  let token: Token;
  let t: TestApp;
  let alice: TestUser;
  let aliceAddr: Address;
  let sender: Address;

  beforeAll(async () => {
    chain = await startAnvil({ chainId: 137 });
    proxy = await startRpcProxy(chain.url);
    sender = chain.accounts[1] as Address;
    token = await deployToken(chain);
    await sendToken(chain, token, chain.accounts[0] as Address, 'mint', [sender, usdc(1_000_000)]);
    t = await createTestApp({
      CHAIN_RPC_URL: proxy.url,
      CHAIN_ID: '137',
      USDC_CONTRACTS: token.address,
      DEPOSIT_XPUB: devXpub("m/44'/60'/9'/0"),
      DEPOSIT_CONFIRMATIONS: String(CONFIRMATIONS),
    });
    alice = await makeUser(t);
    aliceAddr = (await call(t, 'GET', '/api/user/me', { token: alice.token })).data.user.depositAddress;
    expect((await watcher().pass()).ran).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await chain?.stop();
  });

  const watcher = () => depositWatcher(t.ctx);
  const balance = async () => (await userBalances(t.ctx.db, alice.user.id)).balance;
  const transfer = (amount: number) => sendToken(chain, token, sender, 'transfer', [aliceAddr, usdc(amount)]);
  const head = () => chain.publicClient.getBlockNumber({ cacheTime: 0 });
  const cursor = async () => (await findCursor(t.ctx.db, 'deposits'))?.blockNumber;
  const rows = async (hash: string) =>
    rawRows<{ status: string; block_number: string; log_index: number | null; failure_reason: string | null }>(
      t.ctx.db,
      sql`SELECT status, block_number::text, log_index, failure_reason FROM deposits WHERE tx_hash = ${hash.toLowerCase()}`,
    );
  const errors = async (kind: string) => {
    const text = await t.ctx.metrics.registry.getSingleMetricAsString('deposit_watcher_errors_total');
    return Number(new RegExp(`kind="${kind}"} (\\d+)`).exec(text)?.[1] ?? 0);
  };
  const snapshot = () => chain.publicClient.request({ method: 'evm_snapshot' as never }) as Promise<Hex>;
  const revert = (id: Hex) => chain.publicClient.request({ method: 'evm_revert' as never, params: [id] as never });
  const rawOf = (hash: Hex) =>
    chain.publicClient.request({
      method: 'eth_getRawTransactionByHash' as never,
      params: [hash] as never,
    }) as Promise<Hex>;
  const resend = (raw: Hex) =>
    chain.publicClient.request({ method: 'eth_sendRawTransaction' as never, params: [raw] as never });

  it('a head lower than one seen before is a lagging node: the pass waits and moves nothing', async () => {
    await chain.mine(2);
    expect((await watcher().pass()).stopped).toBeUndefined();
    const before = await cursor();
    const hash = await transfer(2);
    await chain.mine(CONFIRMATIONS);
    const lagBy = 6n;
    proxy.transform((method, _params, result) =>
      method === 'eth_blockNumber' && typeof result === 'string' ? hex(BigInt(result) - lagBy) : result,
    );
    try {
      const r = await watcher().pass();
      expect(r).toMatchObject({ stopped: 'fault', fault: 'lagging' });
      expect(await cursor()).toBe(before);
      expect(await errors('lagging')).toBeGreaterThan(0);
    } finally {
      proxy.transform(null);
    }
    expect((await watcher().pass()).stopped).toBeUndefined();
    expect(await rows(hash)).toMatchObject([{ status: 'confirmed' }]);
  });

  it('a load balancer with a node lagging by fewer blocks than the confirmations loses no transfer', async () => {
    const start = await balance();
    const hashes: Hex[] = [];
    // The logs come from a node CONFIRMATIONS - 1 blocks behind: it answers nothing above its head, silently.
    let lagHead = 0n;
    proxy.transform((method, _params, result) =>
      method === 'eth_getLogs' && Array.isArray(result)
        ? result.filter((l: { blockNumber: string }) => BigInt(l.blockNumber) <= lagHead)
        : result,
    );
    try {
      for (let i = 0; i < 5; i++) {
        hashes.push(await transfer(1 + i));
        lagHead = (await head()) - BigInt(CONFIRMATIONS - 1);
        await watcher().pass();
      }
      for (let i = 0; i < CONFIRMATIONS + 1; i++) {
        await chain.mine(1);
        lagHead = (await head()) - BigInt(CONFIRMATIONS - 1);
        await watcher().pass();
      }
    } finally {
      proxy.transform(null);
    }
    for (const h of hashes) expect(await rows(h)).toMatchObject([{ status: 'confirmed' }]);
    expect(await balance()).toBe(start + usdc(1 + 2 + 3 + 4 + 5));
    await expectLedgerClean(t);
  });

  it('a provider that cuts its log answers short is noticed: read again smaller, every transfer once', async () => {
    const start = await balance();
    const hashes: Hex[] = [];
    for (let i = 0; i < 8; i++) hashes.push(await transfer(0.5 + i));
    await chain.mine(CONFIRMATIONS);
    let cut = 0;
    // At most 3 logs per answer, without saying so (the first 3, as capped providers do).
    proxy.transform((method, _params, result) => {
      if (method !== 'eth_getLogs' || !Array.isArray(result) || result.length <= 3) return result;
      cut++;
      return result.slice(0, 3);
    });
    try {
      for (let i = 0; i < 10 && (await balance()) < start + usdc(8 * 0.5 + 28); i++) await watcher().pass();
    } finally {
      proxy.transform(null);
    }
    expect(cut).toBeGreaterThan(0);
    for (const h of hashes) expect(await rows(h)).toMatchObject([{ status: 'confirmed' }]);
    expect(await balance()).toBe(start + usdc(8 * 0.5 + 28));
    await expectLedgerClean(t);
  });

  it('a block that changes while its range is read: nothing is committed from that read', async () => {
    const hash = await transfer(3);
    await chain.mine(CONFIRMATIONS);
    const before = await cursor();
    const seen = new Map<string, number>();
    proxy.transform((method, params, result) => {
      if (method !== 'eth_getBlockByNumber' || !result || typeof result !== 'object') return result;
      const n = String(params[0]);
      seen.set(n, (seen.get(n) ?? 0) + 1);
      // Every later look at a block gives another hash: the chain keeps moving under the reads.
      const look = seen.get(n) ?? 0;
      return look >= 2 ? { ...result, hash: `0x${look.toString(16).padStart(64, 'e')}` } : result;
    });
    try {
      const r = await watcher().pass();
      expect(r).toMatchObject({ stopped: 'fault', fault: 'changed' });
      expect(await cursor()).toBe(before);
    } finally {
      proxy.transform(null);
    }
    expect((await watcher().pass()).stopped).toBeUndefined();
    expect(await rows(hash)).toMatchObject([{ status: 'confirmed' }]);
  });

  it('a re-organisation deeper than the confirmations is an alarm; a credited transfer mined again is not credited twice', async () => {
    const start = await balance();
    const snap = await snapshot();
    const kept = await transfer(11);
    const lost = await transfer(13);
    const raw = await rawOf(kept);
    await chain.mine(CONFIRMATIONS + 2);
    await watcher().pass();
    expect(await rows(kept)).toMatchObject([{ status: 'confirmed' }]);
    expect(await rows(lost)).toMatchObject([{ status: 'confirmed' }]);
    expect(await balance()).toBe(start + usdc(24));
    const before = (await rows(kept))[0];
    // The fork: both transfers leave the chain; one is mined again (elsewhere), the other never.
    await revert(snap);
    await chain.mine(3);
    await resend(raw);
    await chain.mine(CONFIRMATIONS + 6);
    const r = await watcher().pass();
    expect(r.rewound).toBe(true);
    const alarms = await openAlarms(t.ctx.db);
    expect(alarms.map((a) => a.kind).sort()).toEqual(['credited_gone', 'deep_reorg']);
    expect(alarms.find((a) => a.kind === 'credited_gone')?.detail).toContain(lost.toLowerCase());
    const after = await rows(kept);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'confirmed' });
    expect(after[0]?.block_number).not.toBe(before?.block_number);
    // Credited once: nothing more, nothing less (the lost one stays credited: an operator decides).
    expect(await balance()).toBe(start + usdc(24));
    await expectLedgerClean(t);
    // The reconciliation sees exactly what the chain lost.
    const rec = await reconcile({ db: t.ctx.db, chain: t.ctx.chain!, config: t.ctx.config });
    expect(rec.differences.map((d) => [d.kind, d.txHash])).toEqual([['unbacked', lost.toLowerCase()]]);
    // Recorded, it is what the metrics say (with the open alarms).
    const deps = { db: t.ctx.db, chain: t.ctx.chain!, config: t.ctx.config, now: () => new Date() };
    await completeRun(deps, await startRun(deps, 'daily', null));
    expect(await t.ctx.metrics.registry.getSingleMetricAsString('deposits_unreconciled')).toMatch(
      /deposits_unreconciled 1$/m,
    );
    expect(await t.ctx.metrics.registry.getSingleMetricAsString('chain_alarms_open')).toMatch(/chain_alarms_open 2$/m);
    for (const a of alarms)
      await call(t, 'POST', `/api/admin/chain-alarms/${a.id}/acknowledge`, { token: (await admin()).token });
    expect(await openAlarms(t.ctx.db)).toEqual([]);
  });

  it('past more than 64 checkpoints the watcher rewinds only to a block it compared with the chain', async () => {
    const snap = await snapshot();
    const pending = await transfer(5);
    for (let i = 0; i < 80; i++) {
      await chain.mine(1);
      await watcher().pass();
    }
    expect((await checkpointsBelow(t.ctx.db, 'deposits', (await cursor()) ?? 0n)).length).toBeGreaterThan(70);
    const fork = (await rows(pending))[0];
    expect(fork?.status).toBe('confirmed');
    await revert(snap);
    await chain.mine(90);
    const r = await watcher().pass();
    expect(r.rewound).toBe(true);
    // It went back to a checkpoint below the fork (then read the new chain up again): the alarm says from where.
    const alarm = (await openAlarms(t.ctx.db)).find((a) => a.kind === 'deep_reorg');
    expect(alarm?.blockNumber).toBeLessThanOrEqual(BigInt(fork!.block_number));
    const c = await findCursor(t.ctx.db, 'deposits');
    const onChain = await chain.publicClient.getBlock({ blockNumber: c!.blockNumber });
    expect(onChain.hash.toLowerCase()).toBe(c!.blockHash);
    expect(
      (await openAlarms(t.ctx.db)).some((a) => a.kind === 'credited_gone' && a.detail.includes(pending.toLowerCase())),
    ).toBe(true);
  });

  it('no checkpoint left on the chain: the watcher stops and raises an alarm rather than trust a block it has not compared', async () => {
    await chain.mine(CONFIRMATIONS);
    await watcher().pass();
    await rawRows(t.ctx.db, sql`UPDATE chain_checkpoints SET block_hash = '0x' || repeat('ab', 32)`);
    await rawRows(t.ctx.db, sql`UPDATE chain_cursors SET block_hash = '0x' || repeat('ab', 32)`);
    const before = await cursor();
    const r = await watcher().pass();
    expect(r).toMatchObject({ stopped: 'fault', fault: 'fork_not_found' });
    expect(await cursor()).toBe(before);
    expect((await openAlarms(t.ctx.db)).some((a) => a.kind === 'fork_not_found')).toBe(true);
    expect(await errors('fork_not_found')).toBeGreaterThan(0);
    // It stays stopped (one alarm, not one per pass).
    await watcher().pass();
    expect((await openAlarms(t.ctx.db)).filter((a) => a.kind === 'fork_not_found')).toHaveLength(1);
  });

  let adminUser: TestUser | undefined;
  async function admin() {
    adminUser ??= await makeUser(t, { isAdmin: true });
    return adminUser;
  }
});
