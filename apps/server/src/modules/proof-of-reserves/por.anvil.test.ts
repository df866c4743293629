import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { getAddress, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InclusionProof } from '@harvest/por-verifier/merkle';
import {
  anvilAvailability,
  deployReserveWallet,
  deployToken,
  sendToken,
  startAnvil,
  type Anvil,
  type Token,
} from '../../../test/anvil.ts';
import { call, createTestApp, fund, makeUser, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { listenOnLoopback } from '../../../test/http.ts';
import { ROOT, runCliAsync } from '../../../test/support/processes.ts';

/**
 * Proof of reserves against a real chain: the reserves read at the snapshot's block, signed offline by `por:sign`
 * (a key for the payout address, 2 of the 3 owners of a contract wallet for the treasury, checked by EIP-1271), and the
 * independent verifier (`harvest-por`, run as a process) checking proofs and reserves against what the server
 * published, and failing with the reason when the published data lies.
 */
const avail = anvilAvailability();
if (!avail.ok) console.warn(`[por.anvil.test] skipped: ${avail.why}`);

const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));

/** The verifier CLI as an investor runs it (`npx harvest-por ...`), in its own process. */
function harvestPor(args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['verifier/bin/harvest-por.mjs', ...args], { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (status) => resolve({ status, output }));
  });
}

describe.runIf(avail.ok)('proof of reserves on chain (anvil) and the independent verifier', () => {
  let node: Anvil;
  let token: Token;
  let t: TestApp;
  let admin: TestUser;
  let investors: TestUser[];
  let base: string;
  let dir: string;
  const payoutKey = generatePrivateKey();
  const ownerKeys = [generatePrivateKey(), generatePrivateKey(), generatePrivateKey()];
  const owners = ownerKeys.map((k) => privateKeyToAccount(k).address);
  const strangerKey = generatePrivateKey();
  const payout = privateKeyToAccount(payoutKey).address;
  const shared = privateKeyToAccount(generatePrivateKey()).address;
  let treasury: Address;
  let snapshot: { id: string; root: string; total: number; blockNumber: number };

  /** `npm run por:sign` for the snapshot, these keys on standard input, the treasury signed by `signers`. */
  async function porSign(keys: Hex[], signers: Address[]) {
    const file = path.join(dir, 'snapshot.json');
    writeFileSync(file, JSON.stringify((await call(t, 'GET', `/api/proof-of-reserves/${snapshot.id}`)).data));
    const out = path.join(dir, 'sigs.json');
    const run = await runCliAsync(
      'por-sign',
      ['--snapshot', snapshot.id, '--from', file, '--out', out, '--wallet', `${treasury}:${signers.join(',')}`],
      {},
      { input: `${keys.join('\n')}\n` },
    );
    const signatures =
      run.status === 0
        ? (JSON.parse(readFileSync(out, 'utf8')) as { signatures: { address: string; signature: Hex }[] }).signatures
        : [];
    return { ...run, signatures };
  }
  const upload = (signatures: { address: string; signature: string }[]) =>
    call(t, 'POST', `/api/admin/proof-of-reserves/${snapshot.id}/signatures`, {
      token: admin.token,
      body: { signatures },
    });
  const reserveOf = (r: { reserves: { address: string }[] }, address: string) =>
    r.reserves.find((x) => x.address === address.toLowerCase());

  beforeAll(async () => {
    node = await startAnvil({ chainId: 137 });
    token = await deployToken(node);
    treasury = await deployReserveWallet(node, owners, 2);
    const minter = node.accounts[0] as Address;
    await sendToken(node, token, minter, 'mint', [payout, usdc(1_500_000)]);
    await sendToken(node, token, minter, 'mint', [treasury, usdc(2_000_000)]);
    await sendToken(node, token, minter, 'mint', [shared, usdc(250)]);
    t = await createTestApp({
      CHAIN_RPC_URL: node.url,
      CHAIN_ID: '137',
      USDC_CONTRACTS: token.address,
      PAYOUT_ADDRESS: payout,
      TREASURY_ADDRESS: treasury,
      DEPOSIT_ADDRESS: shared,
    });
    admin = await makeUser(t, { isAdmin: true });
    investors = [await makeUser(t), await makeUser(t), await makeUser(t)];
    await fund(t, investors[0]!.user.id, usdc(1_234_567.891234));
    await fund(t, investors[1]!.user.id, usdc(2_500_000));
    await fund(t, investors[2]!.user.id, usdc(0.5), 'rewards');
    const at = await listenOnLoopback(t.app);
    base = `http://${at.host}:${at.port}`;
    dir = mkdtempSync(path.join(os.tmpdir(), 'por-'));
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await node?.stop();
  });

  it('reads every reserve at one block; signatures made offline by por:sign count the key and 2 of the 3 wallet owners, not the unsigned address', async () => {
    const taken = await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: admin.token });
    expect(taken.statusCode).toBe(200);
    snapshot = taken.data;
    expect(snapshot.blockNumber).toBe(Number(await node.publicClient.getBlockNumber()));
    expect(taken.data.reserves).toEqual({ counted: 0, listed: 3_500_250 });
    // The chain moves on after the snapshot: what counts is what was held at its block.
    await sendToken(node, token, node.accounts[0] as Address, 'mint', [payout, usdc(7)]);

    const before = await call(t, 'GET', `/api/admin/proof-of-reserves/${snapshot.id}/reserves`, { token: admin.token });
    expect(before.data.reserves.map((r: { reason: string }) => r.reason)).toEqual(['unsigned', 'unsigned', 'unsigned']);
    const keys = [payoutKey, ownerKeys[2]!, ownerKeys[0]!];
    const signed = await porSign(keys, [owners[2]!, owners[0]!]);
    expect(signed.status).toBe(0);
    expect(signed.output).toContain(`Signed snapshot ${snapshot.id}`);
    for (const key of keys) expect(signed.output).not.toContain(key.slice(2));

    const up = await upload(signed.signatures);
    expect(up.statusCode).toBe(200);
    const byAddress = Object.fromEntries(
      up.data.reserves.map((r: { address: string; verified: boolean; balance: number }) => [r.address, r]),
    );
    expect(byAddress[payout.toLowerCase()]).toMatchObject({ balance: 1_500_000, verified: true });
    expect(byAddress[treasury.toLowerCase()]).toMatchObject({ balance: 2_000_000, verified: true });
    expect(byAddress[shared.toLowerCase()]).toMatchObject({ balance: 250, verified: false, signature: null });
    const now = (await call(t, 'GET', '/api/proof-of-reserves')).data;
    expect(now.reserves).toEqual({ counted: 3_500_000, listed: 3_500_250 });
    expect(now.coverage).toBe(Number(((usdc(3_500_000) * 10_000n) / usdc(now.total)).toString()) / 10_000);

    // A signature of another snapshot's message (or by another key) is stored but does not count.
    const forged = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: 'anything' });
    await call(t, 'POST', `/api/admin/proof-of-reserves/${snapshot.id}/signatures`, {
      token: admin.token,
      body: { signatures: [{ address: shared, signature: forged }] },
    });
    expect((await call(t, 'GET', '/api/proof-of-reserves')).data.reserves.counted).toBe(3_500_000);
  });

  it('a verified signature is final: another upload for that reserve changes nothing', async () => {
    const stranger = await privateKeyToAccount(strangerKey).signMessage({ message: 'anything' });
    const again = await upload([{ address: treasury, signature: stranger }]);
    expect(reserveOf(again.data, treasury)).toMatchObject({ verified: true, reason: null });
    const published = (await call(t, 'GET', `/api/proof-of-reserves/${snapshot.id}`)).data;
    expect(published.reserves.counted).toBe(3_500_000);
  });

  it('the treasury signed by one owner, or with a non-owner, is listed but not counted, and the back office says why', async () => {
    // A new snapshot (the first one's signatures are final); the tests after this one read the first again.
    const first = snapshot;
    snapshot = (await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: admin.token })).data;
    const one = await porSign([ownerKeys[1]!], [owners[1]!]);
    expect(one.status).toBe(0);
    const alone = await upload(one.signatures);
    expect(reserveOf(alone.data, treasury)).toMatchObject({
      balance: 2_000_000,
      verified: false,
      reason: 'too_few_owners',
    });
    expect((await call(t, 'GET', '/api/proof-of-reserves')).data.reserves.counted).toBe(0);

    // A signature by a key that is no owner, whatever owner signs beside it.
    const withStranger = await porSign(
      [ownerKeys[0]!, strangerKey],
      [owners[0]!, privateKeyToAccount(strangerKey).address],
    );
    const stranger = await upload(withStranger.signatures);
    expect(reserveOf(stranger.data, treasury)).toMatchObject({ verified: false, reason: 'not_owner' });
    // The payout address signed by another key.
    const other = await privateKeyToAccount(strangerKey).signMessage({ message: stranger.data.message });
    const wrong = await upload([{ address: payout, signature: other }]);
    expect(reserveOf(wrong.data, payout)).toMatchObject({ verified: false, reason: 'wrong_signer' });
    const listed = await call(t, 'GET', `/api/admin/proof-of-reserves/${snapshot.id}/reserves`, { token: admin.token });
    expect(listed.headers['cache-control']).toBe('private, no-store');
    expect(reserveOf(listed.data, shared)).toMatchObject({ verified: false, reason: 'unsigned' });

    // The independent verifier refuses the one-owner signature too, were the server to count it.
    const oneSig = one.signatures.find((x) => x.address.toLowerCase() === treasury.toLowerCase())!.signature;
    await t.ctx.db.execute(
      sql`UPDATE por_reserves SET signature = ${oneSig}, verified = true
        WHERE snapshot_id = ${snapshot.id} AND address = ${treasury.toLowerCase()}`,
    );
    const lied = await harvestPor([
      'reserves',
      '--snapshot',
      `${base}/api/proof-of-reserves/${snapshot.id}`,
      '--rpc',
      node.url,
      '--usdc',
      token.address,
    ]);
    expect(lied.status).toBe(1);
    expect(lied.output).toContain(
      `MISMATCH: ${getAddress(treasury)} is counted, but its signature does not verify for this snapshot's message`,
    );

    await t.ctx.db.execute(
      sql`UPDATE por_reserves SET signature = NULL, verified = false WHERE snapshot_id = ${snapshot.id}`,
    );

    // Signed by 2 of the 3 owners (and the payout key): both count.
    const again = await porSign([payoutKey, ownerKeys[1]!, ownerKeys[2]!], [owners[1]!, owners[2]!]);
    const back = await upload(again.signatures);
    expect(reserveOf(back.data, treasury)).toMatchObject({ verified: true, reason: null });
    // The payout address got 7 more after the first snapshot's block.
    expect((await call(t, 'GET', '/api/proof-of-reserves')).data.reserves.counted).toBe(3_500_007);
    snapshot = first;
  });

  it("harvest-por verify: every investor's proof checks against the published root; an altered amount or sibling sum fails with the reason", async () => {
    for (const [i, u] of investors.entries()) {
      const proof = (await call(t, 'GET', '/api/user/proof-of-reserves/proof', { token: u.token }))
        .data as InclusionProof;
      const file = path.join(dir, `proof-${i}.json`);
      writeFileSync(file, JSON.stringify(proof));
      const ok = await harvestPor(['verify', file, '--root-from', base]);
      expect(ok.output).toMatch(/^OK: [\d.]+ USDC is included in snapshot/);
      expect(ok.status).toBe(0);
      if (i > 0) continue;
      writeFileSync(file, JSON.stringify({ ...proof, amount: String(BigInt(proof.amount) + 1n) }));
      const more = await harvestPor(['verify', file, '--root-from', base]);
      expect(more.status).toBe(1);
      expect(more.output).toMatch(
        /MISMATCH: the path from this amount \(1234567\.891235 USDC\) leads to 0x[0-9a-f]{64}, not to the published root/,
      );
      const path0 = proof.path.map((p, j) => (j === 0 ? { ...p, sum: String(BigInt(p.sum) + 1n) } : p));
      writeFileSync(file, JSON.stringify({ ...proof, path: path0 }));
      const less = await harvestPor(['verify', file, '--root-from', base]);
      expect(less.status).toBe(1);
      expect(less.output).toMatch(/MISMATCH: .*not to the published root/);
    }
  });

  it('harvest-por reserves: re-reads each counted reserve at the block and checks its signature; a published balance or signature that lies fails', async () => {
    const args = ['reserves', '--snapshot', `${base}/api/proof-of-reserves/${snapshot.id}`, '--rpc', node.url];
    const ok = await harvestPor([...args, '--usdc', token.address]);
    expect(ok.output).toMatch(/^OK: 3500000\.000000 USDC held at block \d+ by 2 signed reserve address\(es\)/);
    expect(ok.status).toBe(0);

    await t.ctx.db.execute(
      sql`UPDATE por_reserves SET balance = balance + 1000000 WHERE address = ${payout.toLowerCase()}`,
    );
    const rich = await harvestPor([...args, '--usdc', token.address]);
    expect(rich.status).toBe(1);
    expect(rich.output).toContain(
      `MISMATCH: ${payout} held 1500000.000000 USDC at block ${snapshot.blockNumber}, not the published 1500001.000000 USDC`,
    );
    await t.ctx.db.execute(
      sql`UPDATE por_reserves SET balance = balance - 1000000 WHERE address = ${payout.toLowerCase()}`,
    );

    const other = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: 'Harvest Farm' });
    await t.ctx.db.execute(sql`UPDATE por_reserves SET signature = ${other} WHERE address = ${treasury.toLowerCase()}`);
    const unsigned = await harvestPor([...args, '--usdc', token.address]);
    expect(unsigned.status).toBe(1);
    expect(unsigned.output).toContain(
      `MISMATCH: ${getAddress(treasury)} is counted, but its signature does not verify for this snapshot's message`,
    );
  });
});
