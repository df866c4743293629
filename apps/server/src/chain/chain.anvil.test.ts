import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import * as anvil from '../../test/anvil.ts';
import { freePort } from '../../test/net.ts';
import { CHAIN_READ_POLICY, confirmationsAt, createChain, type Chain } from './chain.ts';

/** The chain adapter against a real node (anvil) with a 6-decimal USDC-like token. */
const avail = anvil.anvilAvailability();
if (!avail.ok) console.warn(`[chain.anvil.test] skipped: ${avail.why}`);

describe.runIf(avail.ok)('the chain adapter (anvil)', () => {
  let node: anvil.Anvil;
  let proxy: anvil.RpcProxy;
  let usdc: anvil.Token;
  let other: anvil.Token;
  let chain: Chain;
  let sender: Address;
  let to: Address;

  beforeAll(async () => {
    node = await anvil.startAnvil({ chainId: 137 });
    proxy = await anvil.startRpcProxy(node.url);
    usdc = await anvil.deployToken(node);
    other = await anvil.deployToken(node, 'Other Dollar', 'ODL');
    [sender, to] = [node.accounts[1] as Address, node.accounts[2] as Address];
    await anvil.sendToken(node, usdc, node.accounts[0] as Address, 'mint', [sender, 1_000_000_000n]);
    await anvil.sendToken(node, other, node.accounts[0] as Address, 'mint', [sender, 1_000_000_000n]);
    chain = createChain({ rpcUrl: proxy.url, chainId: 137, usdcContracts: [usdc.address.toUpperCase()] });
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await node?.stop();
  });

  it('reads a receipt with every Transfer log typed: token, parties, value, log index, block number and hash', async () => {
    const hash = await anvil.sendToken(node, usdc, sender, 'transferTwo', [to, 1_500_000n, sender, 2_000_000n]);
    const read = await chain.receipt(hash);
    if (!read.ok || !read.value.found) throw new Error(`no receipt: ${JSON.stringify(read)}`);
    const block = await node.publicClient.getBlock({ blockNumber: read.value.blockNumber });
    expect(read.value).toMatchObject({ status: 'success', blockHash: block.hash.toLowerCase() });
    expect(read.value.transfers).toEqual([
      {
        token: usdc.address.toLowerCase(),
        from: sender.toLowerCase(),
        to: to.toLowerCase(),
        value: 1_500_000n,
        logIndex: 0,
        txHash: hash.toLowerCase(),
        blockNumber: read.value.blockNumber,
        blockHash: block.hash.toLowerCase(),
        usdc: true,
      },
      expect.objectContaining({ to: sender.toLowerCase(), value: 2_000_000n, logIndex: 1, usdc: true }),
    ]);
  });

  it('tells a token that is not USDC apart, and a reverted transaction from a successful one', async () => {
    const foreign = await chain.receipt(await anvil.sendToken(node, other, sender, 'transfer', [to, 5n]));
    expect(foreign.ok && foreign.value.found && foreign.value.transfers.map((t) => t.usdc)).toEqual([false]);
    const reverted = await anvil.sendToken(node, usdc, sender, 'transferAndRevert', [to, 5n], { gas: 200_000n });
    const read = await chain.receipt(reverted);
    expect(read.ok && read.value.found && read.value.status).toBe('reverted');
  });

  it('answers "not found" as a value for a hash the node does not know', async () => {
    expect(await chain.receipt(`0x${randomBytes(32).toString('hex')}`)).toEqual({ ok: true, value: { found: false } });
  });

  it('counts confirmations from the newest block, never a cached one', async () => {
    const hash = await anvil.sendToken(node, usdc, sender, 'transfer', [to, 1n]);
    const read = await chain.receipt(hash);
    if (!read.ok || !read.value.found) throw new Error('no receipt');
    const head1 = await chain.headBlock();
    await node.mine(2);
    const head2 = await chain.headBlock();
    if (!head1.ok || !head2.ok) throw new Error('no head');
    expect(confirmationsAt(head1.value, read.value.blockNumber)).toBe(1);
    expect(confirmationsAt(head2.value, read.value.blockNumber)).toBe(3);
    expect(confirmationsAt(read.value.blockNumber - 1n, read.value.blockNumber)).toBe(0);
  });

  it('never trusts a node that serves another chain: every read is unavailable', async () => {
    const wrong = createChain({ rpcUrl: proxy.url, chainId: 80002, usdcContracts: [usdc.address] });
    const hash = await anvil.sendToken(node, usdc, sender, 'transfer', [to, 1n]);
    expect(await wrong.receipt(hash)).toEqual({
      ok: false,
      error: { kind: 'wrong_chain', expected: 80002, actual: 137 },
    });
    expect(await wrong.headBlock()).toMatchObject({ ok: false, error: { kind: 'wrong_chain' } });
  });

  it('retries a failed request once, then reports the node unreachable instead of throwing', async () => {
    const hash = await anvil.sendToken(node, usdc, sender, 'transfer', [to, 1n]);
    expect(CHAIN_READ_POLICY.retryCount).toBe(1);
    // One 503: the retry succeeds.
    let before = proxy.requests();
    proxy.failNext(1);
    expect(await chain.receipt(hash)).toMatchObject({ ok: true, value: { found: true } });
    expect(proxy.requests() - before).toBe(2);
    // Two in a row: the read gives up after the retry, as a value.
    before = proxy.requests();
    proxy.failNext(2);
    expect(await chain.receipt(hash)).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    expect(proxy.requests() - before).toBe(2);
    // A node that is not there at all.
    const nowhere = createChain({
      rpcUrl: `http://127.0.0.1:${await freePort()}`,
      chainId: 137,
      usdcContracts: [usdc.address],
    });
    expect(await nowhere.headBlock()).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    expect(await chain.receipt(hash)).toMatchObject({ ok: true, value: { found: true } });
  });
});
