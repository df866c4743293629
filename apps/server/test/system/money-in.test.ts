import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { anvilAvailability } from '../anvil.ts';
import { freePort } from '../net.ts';
import { runCliAsync, type ServerProcess } from '../support/processes.ts';
import {
  adminLogin,
  balanceOf,
  http,
  metric,
  signUp,
  startPlatform,
  until,
  watcherCaughtUp,
  type Investor,
  type Platform,
} from '../support/platform.ts';

/**
 * Money in, cases 1 to 5 of docs/SECURITY.md's "Money in proven by the chain", from outside: server processes started
 * as an operator starts them, on one database, against a real anvil node with a 6-decimal USDC, an RPC that can be
 * taken away, and real e-mail sign-ups. Each case is what an investor, an operator or an attacker sees.
 */
const avail = anvilAvailability();
if (!avail.ok) console.warn(`[money-in system test] skipped: ${avail.why}`);

const CONFIRMATIONS = 3;

describe.runIf(avail.ok)('money in is what the chain says (real server, anvil)', () => {
  let p: Platform;
  let server: ServerProcess;
  let metricsPort: number;
  let admin: string;
  let ann: Investor;
  let bob: Investor;
  let base: string;

  beforeAll(async () => {
    p = await startPlatform({ confirmations: CONFIRMATIONS });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  const history = async (i: Investor) =>
    (await http(base, 'GET', '/api/user/deposit-history', { token: i.token })).data.deposits as {
      _id: string;
      txHash: string;
      amount: number;
      status: string;
      failureReason: string | null;
      correctable: boolean;
    }[];
  const mine = (n: number) => p.chain.mine(n);

  it('an honest claim the chain refused, made on the shared address before per-investor addresses', async () => {
    // The platform first ran on the spec's shared address: Ann claims a transfer that went to the wrong address.
    server = await p.start({ DEPOSIT_XPUB: '' });
    base = server.baseUrl;
    admin = await adminLogin(base);
    ann = await signUp(p, base, admin);
    const wrong = await p.send(p.chain.accounts[7] as Address, 7);
    await mine(CONFIRMATIONS);
    const claim = await http(base, 'POST', '/api/user/process-deposit', {
      token: ann.token,
      body: { txHash: wrong, amount: 7, fromAddress: p.sender },
    });
    expect(claim.status).toBe(200);
    expect(claim.data.deposit).toMatchObject({ status: 'failed', failureKind: 'wrong_recipient' });
    await server.stop();
  });

  it('case 2 and 5: started while the RPC cannot be reached, the watcher says it has failed', async () => {
    await server?.stop();
    p.proxy.setDown(true);
    metricsPort = await freePort();
    server = await p.start({}, { metricsPort });
    base = server.baseUrl;
    admin = await adminLogin(base);
    // Faults are visible: failed job runs, errors by kind, no successful pass.
    await until(
      async () => ((await metric(metricsPort, 'deposit_watcher_errors_total', '{kind="rpc"}')) > 0 ? true : null),
      20_000,
      'a watcher error',
    );
    expect(await metric(metricsPort, 'job_runs_total', '{job="deposit-watcher",result="failed"}')).toBeGreaterThan(0);
    expect(await metric(metricsPort, 'deposit_watcher_last_success_timestamp_seconds')).toBe(0);
    // An administrator's refresh says the node cannot be reached (and changes nothing).
    const refresh = await http(base, 'POST', '/api/admin/solvency/refresh', { token: admin });
    expect(refresh.status).toBe(502);
  });

  it('case 2: a transfer to an address handed out while the chain could not be read is credited once it can', async () => {
    bob = await signUp(p, base, admin);
    expect(bob.address).toMatch(/^0x[0-9a-f]{40}$/);
    await p.send(bob.address, 10);
    await mine(40);
    expect(await balanceOf(base, bob.token)).toBe(0);
    p.proxy.setDown(false);
    await until(async () => ((await balanceOf(base, bob.token)) === 10 ? true : null), 30_000, "Bob's 10 USDC");
    expect(await history(bob)).toMatchObject([{ amount: 10, status: 'confirmed' }]);
    await until(
      async () => ((await metric(metricsPort, 'deposit_watcher_last_success_timestamp_seconds')) > 0 ? true : null),
      10_000,
      'a good pass',
    );
  });

  it('case 4: the Solvency panel is read at start and after credits, and an administrator can refresh it (audited, once per 10 s)', async () => {
    const s = await until(
      async () => {
        const r = await http(base, 'GET', '/api/admin/solvency', { token: admin });
        return r.data.asOf ? r.data : null;
      },
      30_000,
      'a solvency reading',
    );
    expect(s.coverage).toBeGreaterThan(0);
    expect(s.assets.depositAddresses).toBeGreaterThanOrEqual(10);
    expect(s.watcher).toMatchObject({ cursorBlock: expect.any(Number) });
    // The refresh refused with 502 a moment ago counts too: within 10 s of it, this one waits its turn.
    const first = await until(
      async () => {
        const r = await http(base, 'POST', '/api/admin/solvency/refresh', { token: admin });
        return r.status === 200 ? r : null;
      },
      15_000,
      'a refresh',
    );
    expect(new Date(first.data.asOf).getTime()).toBeGreaterThanOrEqual(new Date(s.asOf).getTime());
    const again = await http(base, 'POST', '/api/admin/solvency/refresh', { token: admin });
    expect(again.status).toBe(429);
    expect(again.data.code).toBe('rate_limited');
    const audit = await http(base, 'GET', '/api/admin/audit', { token: admin });
    expect(
      audit.data.entries.filter((e: { action: string }) => e.action === 'solvency_refresh').length,
    ).toBeGreaterThanOrEqual(2);
    // A non-administrator cannot.
    expect((await http(base, 'POST', '/api/admin/solvency/refresh', { token: bob.token })).status).toBe(403);
  });

  it('case 1: a transfer the watcher recorded cannot be "corrected" into money the chain never sent', async () => {
    const below = await p.send(bob.address, 0.1);
    await mine(CONFIRMATIONS);
    const failed = await until(
      async () => (await history(bob)).find((d) => d.txHash === below.toLowerCase() && d.status === 'failed'),
      15_000,
      'the below-minimum deposit',
    );
    expect(failed).toMatchObject({ amount: 0.1, failureReason: 'Below the minimum deposit' });
    const before = await balanceOf(base, bob.token);
    // Any hash and any amount: refused, nothing changes.
    const forged = await http(base, 'POST', '/api/withdrawal/update-failed-deposit', {
      token: bob.token,
      body: { depositId: failed._id, txHash: `0x${'5a'.repeat(32)}`, amount: 5000 },
    });
    expect(forged.status).toBe(409);
    expect(forged.data.error).toMatch(/read from the blockchain, so it cannot be corrected/);
    expect(failed.correctable).toBe(false);
    // A stranger's real transfer into the shared (treasury) address: refused too.
    const stranger = await p.send(p.env.DEPOSIT_ADDRESS as Address, 500);
    await mine(CONFIRMATIONS);
    const stolen = await http(base, 'POST', '/api/withdrawal/update-failed-deposit', {
      token: bob.token,
      body: { depositId: failed._id, txHash: stranger, amount: 500, fromAddress: p.sender },
    });
    expect(stolen.status).toBe(409);
    // Nor can it be claimed as a new deposit: it did not go to Bob's address.
    const claimed = await http(base, 'POST', '/api/user/process-deposit', {
      token: bob.token,
      body: { txHash: stranger, amount: 500, fromAddress: p.sender },
    });
    expect(claimed.status).toBe(400);
    await mine(CONFIRMATIONS + 2);
    await watcherCaughtUp(p, base, admin);
    expect(await balanceOf(base, bob.token)).toBe(before);
    expect((await history(bob)).find((d) => d._id === failed._id)).toMatchObject({
      status: 'failed',
      amount: 0.1,
      txHash: below.toLowerCase(),
    });
  });

  it("case 1: the honest correction of a claim is verified against the investor's own address and credited", async () => {
    const annAddress = (await http(base, 'GET', '/api/user/me', { token: ann.token })).data.user
      .depositAddress as Address;
    const failed = (await history(ann)).find((d) => d.status === 'failed');
    expect(failed).toBeDefined();
    // The watcher may record a fresh transfer before the correction arrives: then the correction is refused
    // (the transfer is already Ann's deposit, credited once) and she tries again with another transfer.
    let sent: `0x${string}` = '0x';
    let fixed: Awaited<ReturnType<typeof http>> | undefined;
    let lost = 0;
    for (let attempt = 0; attempt < 5 && fixed?.status !== 200; attempt++) {
      sent = await p.send(annAddress, 7);
      fixed = await http(base, 'POST', '/api/withdrawal/update-failed-deposit', {
        token: ann.token,
        body: { depositId: failed!._id, txHash: sent, amount: 7, fromAddress: p.sender },
      });
      if (fixed.status !== 200) {
        expect(fixed).toMatchObject({ status: 409, data: { code: 'conflict' } });
        expect(fixed.data.error).toBe('This transaction hash has already been submitted for a deposit');
        lost += 7;
      }
    }
    expect(fixed!.status).toBe(200);
    expect(fixed!.data.deposit).toMatchObject({ _id: failed!._id, status: 'pending', txHash: sent.toLowerCase() });
    // Before, it was a claim its owner could correct; now it is the chain's transfer.
    expect(failed!.correctable).toBe(true);
    expect(fixed!.data.deposit.correctable).toBe(false);
    await mine(CONFIRMATIONS);
    await until(async () => ((await balanceOf(base, ann.token)) === lost + 7 ? true : null), 15_000, "Ann's 7 USDC");
    // One deposit for that transfer: the correction and the watcher's own read are the same row.
    await mine(CONFIRMATIONS);
    await watcherCaughtUp(p, base, admin);
    expect((await history(ann)).filter((d) => d.txHash === sent.toLowerCase())).toHaveLength(1);
    expect(await balanceOf(base, ann.token)).toBe(lost + 7);
  });

  it('case 3: after a graceful restart the next instance finds deposits within one interval, not after the lease', async () => {
    // The instance that leads the watcher (it credits a transfer) stops gracefully.
    const first = await balanceOf(base, bob.token);
    await p.send(bob.address, 1);
    await mine(CONFIRMATIONS);
    await until(
      async () => ((await balanceOf(base, bob.token)) === first + 1 ? true : null),
      15_000,
      'a leading watcher',
    );
    await server.stop();
    server = await p.start({ DEPOSIT_CHECK_INTERVAL_MS: '1000' });
    base = server.baseUrl;
    const started = Date.now();
    await p.send(bob.address, 2);
    await mine(CONFIRMATIONS);
    await until(
      async () => ((await balanceOf(base, bob.token)) === first + 3 ? true : null),
      20_000,
      "Bob's 2 USDC after the restart",
    );
    // The lease of the stopped instance (60 s) was given back: found within a few intervals.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('the reconciliation against the chain is clean: every credit has its transfer, every transfer is shown', async () => {
    await server.stop();
    const r = await runCliAsync('chain-reconcile', [], p.env);
    expect(r.output).toMatch(/Chain reconciliation: no differences/);
    expect(r.status).toBe(0);
  });
});
