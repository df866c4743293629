import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address, type Hex } from 'viem';
import { anvilAvailability, deployToken, sendToken, startAnvil, type Anvil, type Token } from '../anvil.ts';
import { call, createTestApp, expectLedgerClean, makeUser, type TestApp, type TestUser } from '../helpers.ts';
import { DEV_MNEMONIC } from '../support/dev-wallet.ts';
import { runCliAsync } from '../support/processes.ts';
import { seedTiers } from '../../src/modules/tiers/tiers.seed.ts';
import { depositWatcher } from '../../src/modules/deposits/deposit-watcher.ts';
import { deliverOutbox } from '../../src/mail/outbox.ts';
import { reconcile } from '../../src/modules/reconciliation/reconcile.ts';
import { userBalances } from '../../src/ledger/ledger.ts';

/**
 * Treasury without hand-made transactions, on anvil: an operator's whole day. Ten investors deposit to their own
 * addresses, invest, run a cycle and Withdraw All; the administrator exports one payout batch for the multisig, the
 * multisig executes it (one transaction, as a Safe's MultiSend), and every withdrawal completes by itself with its
 * receipt; then the deposit addresses are swept to the treasury with EIP-3009 authorizations signed offline, with no
 * POL on any of them; and solvency and the reconciliation agree with the chain to the micro-USDC.
 */
const avail = anvilAvailability();
const CONFIRMATIONS = 2;
const PATH = "m/44'/60'/21'/0";
/** anvil's account 9 (the relayer): a well-known development key, never for real funds. */
const RELAYER_KEY = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';
const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));

describe.runIf(avail.ok)(
  "an operator's day: payouts found on chain, a batch for the multisig, sweeps without gas",
  () => {
    let chain: Anvil;
    let token: Token;
    let t: TestApp;
    let admin: TestUser;
    let payout: Address;
    let sender: Address;
    const treasury = getAddress('0x7e5f4552091a69125d5dfcb7b8c2659029395bdf');
    const node = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC)).derive(PATH);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hf-treasury-'));

    beforeAll(async () => {
      chain = await startAnvil({ chainId: 137 });
      token = await deployToken(chain);
      payout = chain.accounts[5] as Address;
      sender = chain.accounts[1] as Address;
      for (const who of [sender, payout])
        await sendToken(chain, token, chain.accounts[0] as Address, 'mint', [who, usdc(1_000_000)]);
      t = await createTestApp({
        CHAIN_RPC_URL: chain.url,
        CHAIN_ID: '137',
        USDC_CONTRACTS: token.address,
        DEPOSIT_XPUB: node.publicExtendedKey,
        DEPOSIT_CONFIRMATIONS: String(CONFIRMATIONS),
        PAYOUT_ADDRESS: payout,
        TREASURY_ADDRESS: treasury,
      });
      await seedTiers(t.ctx.db, t.clock.now());
      t.clock.set(new Date('2026-11-25T09:00:00Z')); // a Wednesday: tokens are issued on the platform's clock
      admin = await makeUser(t, { isAdmin: true });
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await chain?.stop();
    });

    const passes = async (n = 2) => {
      for (let i = 0; i < n; i++) {
        await chain.mine(CONFIRMATIONS);
        const r = await depositWatcher(t.ctx).pass();
        expect(r.stopped).toBeUndefined();
      }
    };
    const onChain = (a: string) =>
      chain.publicClient.readContract({
        address: token.address,
        abi: token.abi,
        functionName: 'balanceOf',
        args: [a as Address],
      }) as Promise<bigint>;

    it('runs the day', { timeout: 240_000 }, async () => {
      // ------------------------------------------------------------ morning: ten investors, deposits, investments
      const investors: (TestUser & { address: Address })[] = [];
      for (let i = 0; i < 10; i++) {
        const u = await makeUser(t, { referrerId: i > 0 ? investors[0]!.user.id : null });
        const me = await call(t, 'GET', '/api/user/me', { token: u.token });
        investors.push({ ...u, address: me.data.user.depositAddress });
      }
      const tiers = await call(t, 'GET', '/api/user/investment-tiers', { token: investors[0]!.token });
      const tier = (tiers.data.tiers as { _id: string; amount: number }[])[0]!;
      for (const [i, u] of investors.entries())
        await sendToken(chain, token, sender, 'transfer', [u.address, usdc(tier.amount + 10 + i)]);
      await passes();
      for (const [i, u] of investors.entries())
        expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(usdc(tier.amount + 10 + i));
      for (const u of investors.slice(0, 5)) {
        const inv = await call(t, 'POST', '/api/user/invest', {
          token: u.token,
          body: { amount: tier.amount, tierId: tier._id },
        });
        expect(inv.statusCode, JSON.stringify(inv.data)).toBe(200);
        const dash = await call(t, 'GET', '/api/user/dashboard', { token: u.token });
        const investmentId = dash.data.activeInvestments[0]._id as string;
        expect(
          (await call(t, 'POST', '/api/user/start-earning', { token: u.token, body: { investmentId } })).statusCode,
        ).toBe(200);
      }
      t.clock.set(new Date('2026-11-25T17:30:00Z'));
      for (const u of investors.slice(0, 5)) {
        const dash = await call(t, 'GET', '/api/user/dashboard', { token: u.token });
        const investmentId = dash.data.activeInvestments[0]._id as string;
        expect(
          (await call(t, 'POST', '/api/user/complete-cycle', { token: u.token, body: { investmentId } })).statusCode,
        ).toBe(200);
      }
      // Withdraw All: earnings (15 % fee), rewards and balance, to each investor's own wallet.
      for (const [i, u] of investors.entries()) {
        const r = await call(t, 'POST', '/api/withdrawal/request-all', {
          token: u.token,
          body: { walletAddress: chain.accounts[(i % 3) + 6], withdrawalPassword: u.withdrawalPassword },
        });
        expect(r.statusCode, JSON.stringify(r.data)).toBe(200);
      }

      // ------------------------------------------------------------ noon: one batch for the multisig
      const pending = (await call(t, 'GET', '/api/withdrawal/admin/pending?pageSize=100', { token: admin.token })).data
        .withdrawals as { _id: string; netAmount: number; walletAddress: string; batchId: string | null }[];
      // Ten balances, five cycle earnings (15 % fee), the referrer's rewards.
      expect(pending).toHaveLength(16);
      const ids = pending.map((w) => w._id);
      const created = await call(t, 'POST', '/api/withdrawal/admin/batches', {
        token: admin.token,
        body: { withdrawalIds: ids, grouped: true },
      });
      expect(created.statusCode, JSON.stringify(created.data)).toBe(201);
      const batch = created.data.batch as { _id: string; withdrawals: number; transfers: number; total: number };
      expect(batch).toMatchObject({ withdrawals: ids.length, transfers: 10 });
      // In payment: a second export leaves them out (refused), the investor still sees pending.
      const again = await call(t, 'POST', '/api/withdrawal/admin/batches', {
        token: admin.token,
        body: { withdrawalIds: ids, grouped: false },
      });
      expect(again.statusCode).toBe(409);
      const inPayment = (await call(t, 'GET', '/api/withdrawal/admin/pending?pageSize=100', { token: admin.token }))
        .data.withdrawals;
      expect(inPayment.every((w: { batchId: string | null }) => w.batchId === batch._id)).toBe(true);
      const mine = (await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token: investors[0]!.token })).data
        .withdrawals;
      expect(mine.every((w: { status: string }) => w.status === 'pending')).toBe(true);
      expect(mine[0]).not.toHaveProperty('batchId');

      const safe = await call(t, 'GET', `/api/withdrawal/admin/batches/${batch._id}/file?format=safe`, {
        token: admin.token,
      });
      expect(safe.statusCode).toBe(200);
      expect(safe.headers['content-disposition']).toMatch(/attachment; filename="payout-batch-.*\.safe\.json"/);
      const file = safe.data as {
        version: string;
        chainId: string;
        meta: { createdFromSafeAddress: string };
        transactions: {
          to: string;
          value: string;
          contractMethod: { name: string };
          contractInputsValues: { to: string; value: string };
        }[];
      };
      expect(file).toMatchObject({
        version: '1.0',
        chainId: '137',
        meta: { createdFromSafeAddress: getAddress(payout) },
      });
      expect(file.transactions).toHaveLength(10);
      expect(
        file.transactions.every(
          (x) => x.to === getAddress(token.address) && x.contractMethod.name === 'transfer' && x.value === '0',
        ),
      ).toBe(true);
      const total = file.transactions.reduce((n, x) => n + BigInt(x.contractInputsValues.value), 0n);
      expect(total).toBe(usdc(batch.total));
      const csv = await call(t, 'GET', `/api/withdrawal/admin/batches/${batch._id}/file?format=csv`, {
        token: admin.token,
      });
      expect(csv.body.split('\n')[0]).toBe('address,amount');
      expect(csv.body.trim().split('\n')).toHaveLength(11);

      // The multisig executes the batch: every transfer in one transaction from the payout address.
      const batchTx = await sendToken(chain, token, payout, 'transferBatch', [
        file.transactions.map((x) => x.contractInputsValues.to),
        file.transactions.map((x) => BigInt(x.contractInputsValues.value)),
      ]);
      await passes();
      const after = (await call(t, 'GET', '/api/withdrawal/admin/all?pageSize=100', { token: admin.token })).data
        .withdrawals as {
        _id: string;
        status: string;
        txHash: string;
      }[];
      for (const id of ids)
        expect(after.find((w) => w._id === id)).toMatchObject({ status: 'approved', txHash: batchTx.toLowerCase() });
      expect(
        (await call(t, 'GET', '/api/withdrawal/admin/batches', { token: admin.token })).data.batches[0],
      ).toMatchObject({
        _id: batch._id,
        status: 'completed',
        pending: 0,
      });
      expect((await call(t, 'GET', '/api/withdrawal/admin/payouts', { token: admin.token })).data.payouts).toEqual([]);
      // Their receipts: one "Withdrawal paid" e-mail per Withdraw All request (not per withdrawal), with the payout's hash.
      for (let i = 0; i < 10 && (await deliverOutbox(t.ctx)).sent > 0; i++);
      const paid = t.smtp.mails.filter((m) => /Subject: Withdrawal paid/.test(m.raw));
      expect(paid).toHaveLength(investors.length);
      expect(paid.every((m) => m.raw.includes(batchTx.toLowerCase()))).toBe(true);
      const stillOwed = await Promise.all(investors.map((u) => userBalances(t.ctx.db, u.user.id)));
      expect(stillOwed.every((b) => b.pending_withdrawal === 0n)).toBe(true);

      // ------------------------------------------------------------ evening: sweep the deposit addresses, no gas
      const planRes = await call(t, 'GET', '/api/admin/solvency/sweep-plan', { token: admin.token });
      expect(planRes.statusCode).toBe(200);
      const planFile = path.join(dir, 'plan.json');
      writeFileSync(planFile, planRes.body);
      const plan = JSON.parse(planRes.body) as { addresses: { address: string }[]; totals: Record<string, string> };
      const onAddresses = (await Promise.all(investors.map((u) => onChain(u.address)))).reduce((n, v) => n + v, 0n);
      expect(BigInt(plan.totals[token.address.toLowerCase()]!)).toBe(onAddresses);
      const signedFile = path.join(dir, 'signed.json');
      const signed = await runCliAsync(
        'sweep-sign',
        ['--plan', planFile, '--treasury', treasury, '--out', signedFile, '--path', PATH, '--yes'],
        {},
        {
          input: `${node.privateExtendedKey}\n`,
        },
      );
      expect(signed.status, signed.output).toBe(0);
      expect(signed.output).not.toContain(node.privateExtendedKey!);
      const authorizations = JSON.parse(readFileSync(signedFile, 'utf8')).authorizations as unknown[];
      expect(authorizations).toHaveLength(plan.addresses.length);
      const submitted = await runCliAsync('sweep-submit', [signedFile], {
        SWEEP_RELAYER_KEY: RELAYER_KEY,
        CHAIN_RPC_URL: chain.url,
        CHAIN_ID: '137',
        TREASURY_ADDRESS: treasury,
      });
      expect(submitted.status, submitted.output).toBe(0);
      expect(submitted.output).toMatch(new RegExp(`Sweep: ${plan.addresses.length} swept, 0 failed`));
      for (const u of investors) {
        expect(await onChain(u.address)).toBe(0n);
        expect(await chain.publicClient.getBalance({ address: u.address })).toBe(0n); // never any POL
      }
      expect(await onChain(treasury)).toBe(onAddresses);
      // Submitting the same file again moves nothing (each authorization is used).
      const twice = await runCliAsync('sweep-submit', [signedFile], {
        SWEEP_RELAYER_KEY: RELAYER_KEY,
        CHAIN_RPC_URL: chain.url,
        CHAIN_ID: '137',
        TREASURY_ADDRESS: treasury,
      });
      expect(twice.output).toMatch(/used {6}/);

      // ------------------------------------------------------------ the books follow the chain
      await passes();
      const refreshed = await call(t, 'POST', '/api/admin/solvency/refresh', { token: admin.token });
      expect(refreshed.statusCode).toBe(200);
      const s = refreshed.data as {
        liabilities: number;
        assets: { depositAddresses: number; payoutAddress: number; treasury: number };
        lastSweep: { addresses: number; total: number } | null;
      };
      expect(usdc(s.assets.depositAddresses)).toBe(0n);
      expect(usdc(s.assets.treasury)).toBe(onAddresses);
      expect(usdc(s.assets.payoutAddress)).toBe(await onChain(payout));
      expect(s.lastSweep).toMatchObject({ addresses: plan.addresses.length });
      expect(usdc(s.lastSweep!.total)).toBe(onAddresses);
      const owed = (await Promise.all(investors.map((u) => userBalances(t.ctx.db, u.user.id)))).reduce(
        (n, b) => n + b.balance + b.rewards + b.earnings + b.invested + b.pending_withdrawal,
        0n,
      );
      expect(usdc(s.liabilities)).toBe(owed);
      const rec = await reconcile({ db: t.ctx.db, chain: t.ctx.chain!, config: t.ctx.config });
      expect(rec.differences).toEqual([]);
      expect(rec.checked.transfers).toBe(10);
      await expectLedgerClean(t);
    });

    it("sweep:sign refuses a key that is not the plan's, never reads one from the environment, never prints one", async () => {
      const planFile = path.join(dir, 'plan.json');
      const other = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC)).derive("m/44'/60'/22'/0");
      const wrong = await runCliAsync(
        'sweep-sign',
        ['--plan', planFile, '--treasury', treasury, '--out', path.join(dir, 'x.json'), '--yes'],
        {},
        {
          input: other.privateExtendedKey!,
        },
      );
      expect(wrong.status).toBe(2);
      expect(wrong.output).toMatch(/this key is not the one behind the plan's DEPOSIT_XPUB/);
      expect(wrong.output).not.toContain(other.privateExtendedKey!);
      const fromEnv = await runCliAsync(
        'sweep-sign',
        ['--plan', planFile, '--treasury', treasury, '--out', path.join(dir, 'y.json'), '--yes'],
        {
          XPRV: node.privateExtendedKey!,
          SWEEP_SECRET: node.privateExtendedKey!,
          DEPOSIT_XPRV: node.privateExtendedKey!,
        },
      );
      expect(fromEnv.status).toBe(2);
      expect(fromEnv.output).toMatch(/no secret on standard input/);
      const mnemonic = await runCliAsync(
        'sweep-sign',
        ['--plan', planFile, '--treasury', treasury, '--out', path.join(dir, 'z.json'), '--path', PATH, '--yes'],
        {},
        {
          input: DEV_MNEMONIC,
        },
      );
      expect(mnemonic.status, mnemonic.output).toBe(0);
      expect(mnemonic.output).not.toContain('test test test');
    });

    it('sweep:submit reports an expired authorization and does not send it', async () => {
      const signedFile = path.join(dir, 'signed.json');
      const signed = JSON.parse(readFileSync(signedFile, 'utf8')) as { authorizations: { validBefore: string }[] };
      for (const a of signed.authorizations) a.validBefore = '1';
      const expiredFile = path.join(dir, 'expired.json');
      writeFileSync(expiredFile, JSON.stringify(signed));
      const r = await runCliAsync('sweep-submit', [expiredFile], {
        SWEEP_RELAYER_KEY: RELAYER_KEY,
        CHAIN_RPC_URL: chain.url,
        CHAIN_ID: '137',
        TREASURY_ADDRESS: treasury,
      });
      expect(r.status).toBe(1);
      expect(r.output).toMatch(/expired {3}/);
      expect(r.output).toMatch(/0 swept/);
    });

    it('a payout that several sets of withdrawals add up to is left for the administrator, who picks', async () => {
      const u = await makeUser(t);
      const wallet = chain.accounts[8] as Address;
      // Two requests to the same wallet, each with a 5 USDC balance withdrawal: a 5 USDC payout fits either.
      for (let i = 0; i < 2; i++) {
        const set = await call(t, 'POST', '/api/admin/update-user-balance', {
          token: admin.token,
          body: { userId: u.user.id, newBalance: 5 },
        });
        expect(set.statusCode, JSON.stringify(set.data)).toBe(200);
        const r = await call(t, 'POST', '/api/withdrawal/request-all', {
          token: u.token,
          body: { walletAddress: wallet, withdrawalPassword: u.withdrawalPassword },
        });
        expect(r.statusCode, JSON.stringify(r.data)).toBe(200);
      }
      const hash = (await sendToken(chain, token, payout, 'transfer', [wallet, usdc(5)])) as Hex;
      await passes();
      const found = (await call(t, 'GET', '/api/withdrawal/admin/payouts', { token: admin.token })).data.payouts;
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ status: 'ambiguous', txHash: hash.toLowerCase(), amount: 5 });
      expect(found[0].candidates).toHaveLength(2);
      const chosen = found[0].candidates[1] as string[];
      const assign = await call(t, 'POST', `/api/withdrawal/admin/payouts/${found[0]._id}/assign`, {
        token: admin.token,
        body: { withdrawalIds: chosen },
      });
      expect(assign.statusCode, JSON.stringify(assign.data)).toBe(200);
      expect((await call(t, 'GET', '/api/withdrawal/admin/payouts', { token: admin.token })).data.payouts).toEqual([]);
      const all = (await call(t, 'GET', '/api/withdrawal/admin/all?pageSize=100', { token: admin.token })).data
        .withdrawals;
      expect(all.find((w: { _id: string }) => w._id === chosen[0])).toMatchObject({
        status: 'approved',
        txHash: hash.toLowerCase(),
      });
      // The other request stays pending: the same transfer cannot pay it too.
      const other = found[0].candidates[0] as string[];
      expect(all.find((w: { _id: string }) => w._id === other[0])).toMatchObject({ status: 'pending' });
      const reuse = await call(t, 'POST', '/api/withdrawal/admin/approve', {
        token: admin.token,
        body: { withdrawalId: other[0], txHash: hash },
      });
      expect(reuse.statusCode).toBe(400);
      const audit = (await call(t, 'GET', '/api/admin/audit', { token: admin.token })).data.entries.map(
        (e: { action: string }) => e.action,
      );
      expect(audit).toEqual(
        expect.arrayContaining([
          'payout_batch_create',
          'payout_batch_download',
          'sweep_plan_download',
          'withdrawal_approve',
        ]),
      );
      await expectLedgerClean(t);
    });
  },
);
