import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Address } from 'viem';
import { payoutTransactions } from '../../db/schema.ts';
import { anvilAvailability, deployToken, sendToken, startAnvil, type Anvil, type Token } from '../../../test/anvil.ts';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { findWithdrawal } from './withdrawals.queries.ts';
import { WALLET, hashOf, seedCycleEarning, seedFundedInvestment, withdrawalsOf } from '../../../test/support/money.ts';
import { MSG } from '@harvest/shared/messages';

const avail = anvilAvailability();
if (!avail.ok) console.warn(`withdrawal payout chain tests skipped: ${avail.why}`);

/** Payout verification against a real EVM node (anvil) with a 6-decimal USDC-like token. */
describe.runIf(avail.ok)('admin approve with a chain configured (anvil)', () => {
  let anvil: Anvil;
  let usdc: Token;
  let fake: Token;
  let payout: Address;
  let stranger: Address;
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    anvil = await startAnvil();
    // One sender: deploy one after the other (parallel sends would race for the same nonce).
    usdc = await deployToken(anvil);
    fake = await deployToken(anvil, 'Fake USD', 'FUSD');
    const [deployer, p, s] = anvil.accounts;
    if (!deployer || !p || !s) throw new Error('anvil accounts missing');
    payout = p;
    stranger = s;
    await sendToken(anvil, usdc, deployer, 'mint', [payout, 1_000_000_000_000n]);
    await sendToken(anvil, usdc, deployer, 'mint', [stranger, 1_000_000_000_000n]);
    await sendToken(anvil, fake, deployer, 'mint', [payout, 1_000_000_000_000n]);
    t = await createTestApp({
      CHAIN_RPC_URL: anvil.url,
      CHAIN_ID: String(anvil.chainId),
      USDC_CONTRACTS: usdc.address,
      PAYOUT_ADDRESS: payout,
    });
    admin = await makeUser(t, { isAdmin: true });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await anvil?.stop();
  });

  const approve = (withdrawalId: string, txHash: string) =>
    call(t, 'POST', '/api/withdrawal/admin/approve', { token: admin.token, body: { withdrawalId, txHash } });

  /** A Withdraw All of 10 USDC balance, 3 USDC rewards and one 1.5 USDC earning (net 1.275). */
  async function pendingRequest() {
    const u = await makeUser(t);
    const inv = await seedFundedInvestment(t, u.user.id);
    await seedCycleEarning(t, u.user.id, inv, 1_500_000n);
    await fund(t, u.user.id, 3_000_000n, 'rewards');
    await fund(t, u.user.id, 10_000_000n);
    const res = await call(t, 'POST', '/api/withdrawal/request-all', {
      token: u.token,
      body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
    });
    expect(res.statusCode).toBe(200);
    const rows = await withdrawalsOf(t, u.user.id);
    const by = (source: string) => {
      const w = rows.find((r) => r.source === source);
      if (!w) throw new Error(`no ${source} withdrawal`);
      return w;
    };
    return { balance: by('balance'), rewards: by('rewards'), earning: by('earning') };
  }

  async function expectRefused(withdrawalId: string, txHash: string, error: string) {
    const res = await approve(withdrawalId, txHash);
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ error, code: 'chain_mismatch' });
    expect((await findWithdrawal(t.ctx.db, withdrawalId))?.status).toBe('pending');
  }

  it('approves a correct payout transfer and records what the chain showed', async () => {
    const { earning } = await pendingRequest();
    const hash = await sendToken(anvil, usdc, payout, 'transfer', [WALLET, earning.netAmount]);
    const res = await approve(earning.id, hash);
    expect(res.statusCode).toBe(200);
    expect(res.data.withdrawal).toMatchObject({ status: 'approved', txHash: hash.toLowerCase(), netAmount: 1.275 });
    const [bound] = await t.ctx.db
      .select()
      .from(payoutTransactions)
      .where(eq(payoutTransactions.txHash, hash.toLowerCase()));
    expect(bound?.chainValue).toBe(1_275_000n);
    await expectLedgerClean(t);
  });

  it('refuses a wrong recipient, a short amount, a wrong token, a wrong sender, a reverted and an unknown transaction', async () => {
    const { balance } = await pendingRequest();
    const other = '0x3333333333333333333333333333333333333333';
    await expectRefused(
      balance.id,
      await sendToken(anvil, usdc, payout, 'transfer', [other, balance.netAmount]),
      MSG.payoutWrongRecipient,
    );
    await expectRefused(
      balance.id,
      await sendToken(anvil, usdc, payout, 'transfer', [WALLET, balance.netAmount - 1n]),
      MSG.payoutShort,
    );
    await expectRefused(
      balance.id,
      await sendToken(anvil, fake, payout, 'transfer', [WALLET, balance.netAmount]),
      MSG.payoutWrongToken,
    );
    await expectRefused(
      balance.id,
      await sendToken(anvil, usdc, stranger, 'transfer', [WALLET, balance.netAmount]),
      MSG.payoutWrongSender,
    );
    const reverted = await sendToken(anvil, usdc, payout, 'transferAndRevert', [WALLET, balance.netAmount], {
      gas: 200_000n,
    });
    await expectRefused(balance.id, reverted, MSG.payoutReverted);
    await expectRefused(balance.id, hashOf(0xdead), MSG.payoutNotFound);
    await expectLedgerClean(t);
  });

  it('decides nothing on a node that serves another chain: 502, the withdrawal stays pending', async () => {
    const elsewhere = await createTestApp({
      CHAIN_RPC_URL: anvil.url,
      CHAIN_ID: String(anvil.chainId + 1),
      USDC_CONTRACTS: usdc.address,
      PAYOUT_ADDRESS: payout,
    });
    try {
      const boss = await makeUser(elsewhere, { isAdmin: true });
      const u = await makeUser(elsewhere);
      await fund(elsewhere, u.user.id, 10_000_000n);
      const req = await call(elsewhere, 'POST', '/api/withdrawal/request-all', {
        token: u.token,
        body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
      });
      expect(req.statusCode).toBe(200);
      const [w] = await withdrawalsOf(elsewhere, u.user.id);
      if (!w) throw new Error('no withdrawal');
      // A transfer that would prove the payout, read from a node whose chain is not CHAIN_ID.
      const hash = await sendToken(anvil, usdc, payout, 'transfer', [WALLET, w.netAmount]);
      const res = await call(elsewhere, 'POST', '/api/withdrawal/admin/approve', {
        token: boss.token,
        body: { withdrawalId: w.id, txHash: hash },
      });
      expect(res.statusCode).toBe(502);
      expect(res.data).toEqual({ error: MSG.payoutChainUnreachable, code: 'upstream_error' });
      expect((await findWithdrawal(elsewhere.ctx.db, w.id))?.status).toBe('pending');
    } finally {
      await elsewhere.close();
    }
  });

  it('lets one transfer pay several withdrawals only while their net amounts add up to what it carried', async () => {
    const { balance, rewards, earning } = await pendingRequest();
    // 10 + 3 = 13 USDC sent: enough for balance and rewards, not for the earning on top.
    const hash = await sendToken(anvil, usdc, payout, 'transfer', [WALLET, balance.netAmount + rewards.netAmount]);
    expect((await approve(balance.id, hash)).statusCode).toBe(200);
    expect((await approve(rewards.id, hash)).statusCode).toBe(200);
    await expectRefused(earning.id, hash, MSG.payoutShort);

    // The same transfer can never pay more than it carried: another request to the same wallet is refused.
    const next = await pendingRequest();
    await expectRefused(next.balance.id, hash, MSG.payoutShort);
    await expectLedgerClean(t);
  });
});
