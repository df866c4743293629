import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address, type Hex } from 'viem';
import { MSG } from '@harvest/shared/messages';
import { anvilAvailability, deployToken, sendToken, startAnvil, type Anvil, type Token } from '../anvil.ts';
import { call, createTestApp, expectLedgerClean, makeUser, type TestApp, type TestUser } from '../helpers.ts';
import { DEV_MNEMONIC } from '../support/dev-wallet.ts';
import { ROOT, runCliAsync } from '../support/processes.ts';
import { CHROME_LINUX, FIREFOX_WINDOWS, hours, lastMail, linkToken, mailsTo, signIn } from '../account/support.ts';
import { depositWatcher } from '../../src/modules/deposits/deposit-watcher.ts';
import { reconcile } from '../../src/modules/reconciliation/reconcile.ts';
import { differenceLine } from '../../src/modules/reconciliation/reconciliation.service.ts';
import { payeeCheckJob } from '../../src/modules/withdrawals/payees.job.ts';
import { userBalances } from '../../src/ledger/ledger.ts';

/**
 * Three attacks on money out, on anvil with an EIP-3009 USDC that keeps a blacklist as native USDC does:
 * a tampered sweep plan, a frozen account's withdrawal paid anyway, a rejected withdrawal in a payout batch paid twice.
 * Each is refused where it can be, and where the chain moved money anyway the watcher and the reconciliation say so.
 */
const avail = anvilAvailability();
const CONFIRMATIONS = 2;
const PATH = "m/44'/60'/31'/0";
/** anvil's account 9 (the relayer): a well-known development key, never for real funds. */
const RELAYER_KEY = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';
const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));

describe.runIf(avail.ok)('money out, proven by the chain', () => {
  let chain: Anvil;
  let token: Token;
  let t: TestApp;
  let admin: TestUser;
  let payout: Address;
  let sender: Address;
  const treasury = getAddress('0x7e5f4552091a69125d5dfcb7b8c2659029395bdf');
  const attacker = getAddress('0x2b5ad5c4795c026514f8317c7a215e218dccd6cf');
  const node = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC)).derive(PATH);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hf-money-out-'));

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
      JWT_TTL_SECONDS: String(7 * 24 * 3600),
    });
    t.clock.set(new Date('2026-11-25T09:00:00Z'));
    admin = await makeUser(t, { isAdmin: true });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  const passes = async (n = 2) => {
    for (let i = 0; i < n; i++) {
      await chain.mine(CONFIRMATIONS);
      expect((await depositWatcher(t.ctx).pass()).stopped).toBeUndefined();
    }
  };
  const onChain = async (a: string) =>
    (await chain.publicClient.readContract({
      address: token.address,
      abi: token.abi,
      functionName: 'balanceOf',
      args: [a as Address],
    })) as bigint;
  const differences = async () =>
    (await reconcile({ db: t.ctx.db, chain: t.ctx.chain!, config: t.ctx.config })).differences;

  /** An investor funded on chain through their own deposit address. */
  async function investor(amount: number): Promise<TestUser & { address: Address }> {
    const u = await makeUser(t);
    const me = await call(t, 'GET', '/api/user/me', { token: u.token });
    const address = me.data.user.depositAddress as Address;
    await sendToken(chain, token, sender, 'transfer', [address, usdc(amount)]);
    await passes();
    expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(usdc(amount));
    return { ...u, address };
  }
  const withdrawAll = (u: TestUser, wallet: string) =>
    call(t, 'POST', '/api/withdrawal/request-all', {
      token: u.token,
      body: { walletAddress: wallet, withdrawalPassword: u.withdrawalPassword },
    });
  const pendingOf = async (u: TestUser) =>
    (
      (await call(t, 'GET', '/api/withdrawal/admin/pending?pageSize=100', { token: admin.token })).data.withdrawals as {
        _id: string;
        userId: { _id: string };
        frozen: boolean;
        payeeRefused: boolean;
      }[]
    ).filter((w) => w.userId._id === u.user.id);
  const statusOf = async (id: string) =>
    (
      (await call(t, 'GET', '/api/withdrawal/admin/all?pageSize=100', { token: admin.token })).data.withdrawals as {
        _id: string;
        status: string;
        txHash: string | null;
      }[]
    ).find((w) => w._id === id);
  /** A batch of these withdrawals, its Safe file downloaded: what the multisig will execute. */
  async function exported(ids: string[]) {
    const created = await call(t, 'POST', '/api/withdrawal/admin/batches', {
      token: admin.token,
      body: { withdrawalIds: ids, grouped: true },
    });
    expect(created.statusCode, JSON.stringify(created.data)).toBe(201);
    const id = created.data.batch._id as string;
    const file = await call(t, 'GET', `/api/withdrawal/admin/batches/${id}/file?format=safe`, { token: admin.token });
    const transfers = (file.data.transactions as { contractInputsValues: { to: string; value: string } }[]).map(
      (x) => x.contractInputsValues,
    );
    return { id, transfers };
  }
  /** The multisig executes a Safe file: every transfer in one transaction from the payout address. */
  const execute = (transfers: { to: string; value: string }[]) =>
    sendToken(chain, token, payout, 'transferBatch', [
      transfers.map((x) => x.to),
      transfers.map((x) => BigInt(x.value)),
    ]);
  const batchOf = async (id: string) =>
    (
      (await call(t, 'GET', '/api/withdrawal/admin/batches', { token: admin.token })).data.batches as {
        _id: string;
      }[]
    ).find((b) => b._id === id);

  it('a sweep plan whose treasury was changed is refused by the signer; a file to elsewhere by the submitter; money leaving a deposit address for elsewhere is an alarm and a difference', async () => {
    const a = await investor(1_000);
    const b = await investor(1_000);
    const planRes = await call(t, 'GET', '/api/admin/solvency/sweep-plan', { token: admin.token });
    const plan = JSON.parse(planRes.body) as { treasury: string; addresses: unknown[] };
    const planFile = path.join(dir, 'plan.json');
    writeFileSync(planFile, planRes.body);
    const tamperedFile = path.join(dir, 'tampered.json');
    writeFileSync(tamperedFile, JSON.stringify({ ...plan, treasury: attacker.toLowerCase() }));
    const xprv = `${node.privateExtendedKey}\n`;
    const sign = (args: string[]) => runCliAsync('sweep-sign', [...args, '--path', PATH], {}, { input: xprv });

    // The signing machine decides where money goes: a plan naming another treasury is refused, nothing written.
    const out = path.join(dir, 'signed.json');
    const refused = await sign(['--plan', tamperedFile, '--treasury', treasury, '--out', out, '--yes']);
    expect(refused.status).toBe(2);
    expect(refused.output).toContain(
      `the plan sends the money to ${attacker.toLowerCase()}, not to --treasury ${treasury}`,
    );
    expect(existsSync(out)).toBe(false);
    const noTreasury = await sign(['--plan', planFile, '--out', out, '--yes']);
    expect(noTreasury.output).toMatch(/--treasury ADDRESS is required/);
    // Without --yes and without a terminal to type yes at: the summary, then nothing signed.
    const unconfirmed = await sign(['--plan', planFile, '--treasury', treasury, '--out', out]);
    expect(unconfirmed.status).toBe(2);
    expect(unconfirmed.output).toContain(`destination  ${treasury}`);
    expect(unconfirmed.output).toMatch(/addresses {4}2\n/);
    expect(unconfirmed.output).toMatch(/total {8}2000 of USD Coin/);
    expect(unconfirmed.output).toMatch(/not confirmed: nothing was signed/);
    expect(existsSync(out)).toBe(false);

    // An operator deceived into typing the attacker's address signs; sweep:submit still refuses the whole file.
    const deceived = await sign(['--plan', tamperedFile, '--treasury', attacker, '--out', out, '--yes']);
    expect(deceived.status, deceived.output).toBe(0);
    const submitEnv = { SWEEP_RELAYER_KEY: RELAYER_KEY, CHAIN_RPC_URL: chain.url, CHAIN_ID: '137' };
    const submitted = await runCliAsync('sweep-submit', [out], { ...submitEnv, TREASURY_ADDRESS: treasury });
    expect(submitted.status).toBe(2);
    expect(submitted.output).toMatch(/2 authorization\(s\) send USDC somewhere other than TREASURY_ADDRESS/);
    expect(submitted.output).toMatch(/nothing was sent/);
    expect(await onChain(a.address)).toBe(usdc(1_000));
    expect((await runCliAsync('sweep-submit', [out], submitEnv)).output).toMatch(/TREASURY_ADDRESS is not set/);

    // Whoever holds the key can still move the money by hand: the watcher raises it within one pass.
    const read = await call(t, 'POST', '/api/admin/solvency/refresh', { token: admin.token });
    const heldBefore = read.data.assets.depositAddresses as number;
    const signed = JSON.parse(readFileSync(out, 'utf8')) as {
      authorizations: {
        from: Hex;
        to: Hex;
        value: string;
        validAfter: string;
        validBefore: string;
        nonce: Hex;
        v: number;
        r: Hex;
        s: Hex;
      }[];
    };
    for (const x of signed.authorizations)
      await sendToken(chain, token, chain.accounts[9] as Address, 'transferWithAuthorization', [
        x.from,
        x.to,
        BigInt(x.value),
        BigInt(x.validAfter),
        BigInt(x.validBefore),
        x.nonce,
        x.v,
        x.r,
        x.s,
      ]);
    expect(await onChain(attacker)).toBe(usdc(2_000));
    await passes();
    const solvency = (await call(t, 'GET', '/api/admin/solvency', { token: admin.token })).data;
    const alarms = (solvency.alarms as { kind: string; detail: string }[]).filter((x) => x.kind === 'sweep_elsewhere');
    expect(alarms).toHaveLength(2);
    expect(alarms.map((x) => x.detail).join('\n')).toContain(b.address.toLowerCase());
    expect(solvency.unexplainedOutflow).toEqual({ payoutWallet: 0, depositAddresses: 2_000 });
    // The addresses it left were read again: the panel no longer counts money that is gone.
    expect(heldBefore - (solvency.assets.depositAddresses as number)).toBe(2_000);
    expect(await t.ctx.metrics.registry.getSingleMetricAsString('chain_alarms_open')).toMatch(/chain_alarms_open 2/);
    const adminMail = (await mailsTo(t, admin.user.email)).filter((m) => m.subject === 'Chain alarm: sweep_elsewhere');
    expect(adminMail).toHaveLength(2);
    const found = (await differences()).filter((d) => d.kind === 'sweep_elsewhere');
    expect(found.map((d) => [d.address, d.chainAmount])).toEqual(
      expect.arrayContaining([
        [a.address.toLowerCase(), usdc(1_000)],
        [b.address.toLowerCase(), usdc(1_000)],
      ]),
    );
    expect(differenceLine(found[0]!)).toMatch(/^SWEEP_ELSEWHERE: USDC left this deposit address for 0x2b5a/);
  });

  it('sweep:sign at a terminal signs after "yes" is typed there, and after nothing else', async () => {
    const planFile = path.join(dir, 'plan.json');
    const atTerminal = (typed: string, out: string) =>
      new Promise<{ status: number | null; output: string }>((resolve) => {
        // `script` gives the command a terminal of its own, as an operator's shell does.
        const cmd = `node apps/server/dist/cli/sweep-sign.js --plan ${planFile} --treasury ${treasury} --out ${out} --path "${PATH}"`;
        const child = spawn('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
        let output = '';
        let sent = false;
        const seen = (d: Buffer) => {
          output += d.toString();
          // The secret is typed once its hidden prompt shows, as a person would (typed earlier, a terminal echoes it).
          if (!sent && output.includes('(input hidden)')) {
            sent = true;
            child.stdin.end(`${node.privateExtendedKey}\r`);
          }
        };
        child.stdout.on('data', seen);
        child.stderr.on('data', seen);
        child.stdin.write(`${typed}\r`);
        child.once('exit', (status) => resolve({ status, output }));
      });
    const declined = path.join(dir, 'declined.json');
    const no = await atTerminal('sign it', declined);
    expect(no.status).toBe(2);
    expect(no.output).toMatch(/Type yes: /);
    expect(no.output).toMatch(/not confirmed: nothing was signed/);
    expect(existsSync(declined)).toBe(false);
    const signedFile = path.join(dir, 'typed.json');
    const yes = await atTerminal('yes', signedFile);
    expect(yes.status, yes.output).toBe(0);
    expect(yes.output).not.toContain(node.privateExtendedKey!.slice(4, 40));
    const signed = JSON.parse(readFileSync(signedFile, 'utf8')) as { authorizations: { to: string }[] };
    expect(signed.authorizations.length).toBeGreaterThan(0);
    expect(signed.authorizations.every((a) => a.to === treasury.toLowerCase())).toBe(true);
  });

  it('"this wasn’t me" before the payout: the thief’s request is taken back; paid anyway from a stale file, the watcher holds it and the reconciliation names it', async () => {
    const u = await investor(250);
    await signIn(t, u, { ua: CHROME_LINUX, deviceId: `own-${u.user.id}` });
    const thiefIn = await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `thief-${u.user.id}` });
    const thief = { ...u, token: thiefIn.data.token as string };
    const thiefWallet = chain.accounts[7] as Address;
    expect((await withdrawAll(thief, thiefWallet)).statusCode).toBe(200);
    const [w] = await pendingOf(u);
    const mail = await lastMail(t, u.user.email, 'New sign-in to your Harvest Farm account');
    expect(
      (await call(t, 'POST', '/api/security/not-me', { body: { token: linkToken(mail, 'not-me') } })).statusCode,
    ).toBe(200);
    expect(await statusOf(w!._id)).toMatchObject({ status: 'rejected' });
    expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(usdc(250));
    const batch = await call(t, 'POST', '/api/withdrawal/admin/batches', {
      token: admin.token,
      body: { withdrawalIds: [w!._id], grouped: true },
    });
    expect(batch.statusCode).toBe(409);

    // The operator pays it anyway (an old transfer list): the books release nothing, the chain shows it.
    const before = await onChain(thiefWallet);
    await sendToken(chain, token, payout, 'transfer', [thiefWallet, usdc(250)]);
    await passes();
    expect(await statusOf(w!._id)).toMatchObject({ status: 'rejected' });
    expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(usdc(250));
    expect((await onChain(thiefWallet)) - before).toBe(usdc(250));
    const named = (await differences()).find((d) => d.address === thiefWallet.toLowerCase());
    expect(named).toMatchObject({ kind: 'paid_after_rejection', chainAmount: usdc(250) });
    await expectLedgerClean(t);
  });

  it('a frozen account’s withdrawal in a downloaded batch stays unpaid by the books: the executed file is held, not completed', async () => {
    const u = await investor(120);
    await signIn(t, u, { ua: CHROME_LINUX, deviceId: `own-${u.user.id}` });
    const thiefIn = await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `thief-${u.user.id}` });
    const wallet = chain.accounts[6] as Address;
    expect((await withdrawAll({ ...u, token: thiefIn.data.token as string }, wallet)).statusCode).toBe(200);
    const [w] = await pendingOf(u);
    const { transfers } = await exported([w!._id]);
    const mail = await lastMail(t, u.user.email, 'New sign-in to your Harvest Farm account');
    await call(t, 'POST', '/api/security/not-me', { body: { token: linkToken(mail, 'not-me') } });
    expect(await pendingOf(u)).toEqual([expect.objectContaining({ _id: w!._id, frozen: true })]);

    const lost = async () =>
      (await call(t, 'GET', '/api/admin/solvency', { token: admin.token })).data.unexplainedOutflow
        .payoutWallet as number;
    const lostBefore = await lost();
    const hash = await execute(transfers);
    await passes();
    expect(await statusOf(w!._id)).toMatchObject({ status: 'pending', txHash: null });
    const found = (
      (await call(t, 'GET', '/api/withdrawal/admin/payouts', { token: admin.token })).data.payouts as {
        _id: string;
        txHash: string;
      }[]
    ).filter((p) => p.txHash === hash.toLowerCase());
    expect(found).toEqual([expect.objectContaining({ status: 'held', detail: MSG.payoutHeldFrozen, amount: 120 })]);
    const assign = await call(t, 'POST', `/api/withdrawal/admin/payouts/${found[0]!._id}/assign`, {
      token: admin.token,
      body: { withdrawalIds: [w!._id] },
    });
    expect(assign.data.code).toBe('withdrawals_frozen');
    expect((await differences()).find((d) => d.txHash === hash.toLowerCase())).toMatchObject({
      kind: 'unmatched_payout',
      chainAmount: usdc(120),
    });
    expect((await lost()) - lostBefore).toBe(120);

    // Once an administrator has looked into it and lifted the freeze, the transfer completes the withdrawal.
    await call(t, 'PUT', `/api/admin/users/${u.user.id}/withdrawals-frozen`, {
      token: admin.token,
      body: { frozen: false },
    });
    const again = await call(t, 'POST', `/api/withdrawal/admin/payouts/${found[0]!._id}/assign`, {
      token: admin.token,
      body: { withdrawalIds: [w!._id] },
    });
    expect(again.statusCode, JSON.stringify(again.data)).toBe(200);
    expect(await statusOf(w!._id)).toMatchObject({ status: 'approved', txHash: hash.toLowerCase() });
    expect((await differences()).find((d) => d.txHash === hash.toLowerCase())).toBeUndefined();
    await expectLedgerClean(t);
  });

  it('a withdrawal in a batch is decided by the batch: never rejected and paid; a stale file executed after its grace is named', async () => {
    const u = await investor(100);
    const wallet = chain.accounts[8] as Address;
    await withdrawAll(u, wallet);
    const [w] = await pendingOf(u);
    const first = await exported([w!._id]);
    const rejected = await call(t, 'POST', '/api/withdrawal/admin/reject', {
      token: admin.token,
      body: { withdrawalId: w!._id },
    });
    expect(rejected.statusCode).toBe(409);
    expect(rejected.data.code).toBe('in_payment');
    const cancelUrl = `/api/withdrawal/admin/batches/${first.id}/cancel`;
    expect((await call(t, 'POST', cancelUrl, { token: admin.token })).data.code).toBe('batch_downloaded');
    expect(
      (await call(t, 'POST', cancelUrl, { token: admin.token, body: { confirmNotExecuted: true } })).statusCode,
    ).toBe(200);
    // The multisig executed the file after all, inside the grace: it completes the withdrawal, once.
    const hash = await execute(first.transfers);
    await passes();
    expect(await statusOf(w!._id)).toMatchObject({ status: 'approved', txHash: hash.toLowerCase() });
    expect(await batchOf(first.id)).toMatchObject({ status: 'cancelled', paid: 100, total: 100, pending: 0 });
    expect((await userBalances(t.ctx.db, u.user.id)).pending_withdrawal).toBe(0n);

    // A second request, its batch cancelled and the grace over: rejected, then the stale file runs.
    await call(t, 'POST', '/api/admin/update-user-balance', {
      token: admin.token,
      body: { userId: u.user.id, newBalance: 50 },
    });
    await withdrawAll(u, wallet);
    const [w2] = await pendingOf(u);
    const second = await exported([w2!._id]);
    await call(t, 'POST', `/api/withdrawal/admin/batches/${second.id}/cancel`, {
      token: admin.token,
      body: { confirmNotExecuted: true },
    });
    hours(t, 24);
    const late = await call(t, 'POST', '/api/withdrawal/admin/reject', {
      token: admin.token,
      body: { withdrawalId: w2!._id, notes: 'batch not executed' },
    });
    expect(late.statusCode).toBe(200);
    const stale = await execute(second.transfers);
    await passes();
    expect(await statusOf(w2!._id)).toMatchObject({ status: 'rejected' });
    expect(await batchOf(second.id)).toMatchObject({ paid: 0, total: 0, withdrawals: 0 });
    const named = (await differences()).filter((d) => d.txHash === stale.toLowerCase());
    expect(named).toEqual([expect.objectContaining({ kind: 'paid_after_rejection', chainAmount: usdc(50) })]);
    expect((await differences()).find((d) => d.txHash === hash.toLowerCase())).toBeUndefined();
    await expectLedgerClean(t);
  });

  it('a payout the token would refuse is caught before it is batched; the investor is told', async () => {
    const u = await investor(80);
    const ok = await investor(20);
    const blocked = chain.accounts[4] as Address;
    await sendToken(chain, token, chain.accounts[0] as Address, 'blacklist', [blocked]);
    await withdrawAll(u, blocked);
    await withdrawAll(ok, chain.accounts[3] as Address);
    await payeeCheckJob.run(t.ctx);
    const [w] = await pendingOf(u);
    expect(w).toMatchObject({ payeeRefused: true });
    const [fine] = await pendingOf(ok);
    expect(fine).toMatchObject({ payeeRefused: false });
    const mine = (await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token: u.token })).data.withdrawals;
    expect(mine[0]).toMatchObject({ payeeRefused: true });
    expect((await lastMail(t, u.user.email, 'Your withdrawal cannot be paid to this address')).text).toContain(
      getAddress(blocked),
    );
    const refused = await call(t, 'POST', '/api/withdrawal/admin/batches', {
      token: admin.token,
      body: { withdrawalIds: [w!._id, fine!._id], grouped: false },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.data).toEqual({ error: MSG.batchPayeeRefused, code: 'payee_refused' });

    // Blacklisted after the export: the file leaves it out rather than revert the whole batch.
    await sendToken(chain, token, chain.accounts[0] as Address, 'unBlacklist', [blocked]);
    await payeeCheckJob.run(t.ctx);
    expect((await pendingOf(u))[0]).toMatchObject({ payeeRefused: false });
    const both = await call(t, 'POST', '/api/withdrawal/admin/batches', {
      token: admin.token,
      body: { withdrawalIds: [w!._id, fine!._id], grouped: false },
    });
    expect(both.statusCode).toBe(201);
    await sendToken(chain, token, chain.accounts[0] as Address, 'blacklist', [blocked]);
    const csv = await call(t, 'GET', `/api/withdrawal/admin/batches/${both.data.batch._id}/file?format=csv`, {
      token: admin.token,
    });
    expect(csv.body.trim().split('\n')).toEqual(['address,amount', `${getAddress(chain.accounts[3] as Address)},20`]);
    expect(await batchOf(both.data.batch._id)).toMatchObject({ refused: 1 });
  });

  it('a payout carrying more than the withdrawals approved with it is named overpaid', async () => {
    const u = await investor(100);
    const wallet = chain.accounts[2] as Address;
    await withdrawAll(u, wallet);
    const [w] = await pendingOf(u);
    const hash = await sendToken(chain, token, payout, 'transfer', [wallet, usdc(150)]);
    await passes();
    const found = (await call(t, 'GET', '/api/withdrawal/admin/payouts', { token: admin.token })).data.payouts.find(
      (p: { txHash: string }) => p.txHash === hash.toLowerCase(),
    );
    expect(found).toMatchObject({ status: 'unmatched' });
    await call(t, 'POST', `/api/withdrawal/admin/payouts/${found._id}/assign`, {
      token: admin.token,
      body: { withdrawalIds: [w!._id] },
    });
    expect((await differences()).find((d) => d.txHash === hash.toLowerCase())).toMatchObject({
      kind: 'overpaid',
      chainAmount: usdc(150),
      creditedAmount: usdc(100),
    });
  });

  it('a payout approved by hand is explained, even when another pending withdrawal to that wallet asks the same amount', async () => {
    const wallet = chain.accounts[2] as Address;
    const [a, b] = [await investor(10), await investor(10)];
    await withdrawAll(a, wallet);
    await withdrawAll(b, wallet);
    const [wa] = await pendingOf(a);
    const lostBefore = (await call(t, 'GET', '/api/admin/solvency', { token: admin.token })).data.unexplainedOutflow;
    const hash = await sendToken(chain, token, payout, 'transfer', [wallet, usdc(10)]);
    const approved = await call(t, 'POST', '/api/withdrawal/admin/approve', {
      token: admin.token,
      body: { withdrawalId: wa!._id, txHash: hash },
    });
    expect(approved.statusCode).toBe(200);
    await passes();
    const found = (await call(t, 'GET', '/api/withdrawal/admin/payouts', { token: admin.token })).data.payouts;
    expect(found.filter((p: { txHash: string }) => p.txHash === hash.toLowerCase())).toEqual([]);
    expect((await pendingOf(b))[0]).toMatchObject({ payeeRefused: false });
    expect((await call(t, 'GET', '/api/admin/solvency', { token: admin.token })).data.unexplainedOutflow).toEqual(
      lostBefore,
    );
  });
});
