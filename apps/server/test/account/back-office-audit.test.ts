import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, expectLedgerClean, fund, makeUser, type TestApp, type TestUser } from '../helpers.ts';
import { hashOf } from '../support/money.ts';
import { recordPayoutTransfers } from '../../src/modules/withdrawals/payouts.queries.ts';
import { settlePayouts } from '../../src/modules/withdrawals/payouts.service.ts';
import { OWN_WALLET, withdrawAll } from './support.ts';

/**
 * The audit log as an administrator reads it (GET /api/admin/audit): a payout batch's entries say which batch and
 * what it holds; a withdrawal the watcher completed by a payout it found on chain is there, by the platform, with the
 * hash and the batch; every entry carries the platform clock's time, not the machine's.
 */
let t: TestApp;
let admin: TestUser;
const PAYOUT = '0x3333333333333333333333333333333333333333';
/** Far from today: an entry stamped by the database or the machine clock cannot carry it. */
const AT = '2031-03-04T05:06:07.000Z';

beforeAll(async () => {
  t = await createTestApp({ PAYOUT_ADDRESS: PAYOUT, JWT_TTL_SECONDS: String(7 * 24 * 3600) });
  t.clock.set(new Date(AT));
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

interface Entry {
  action: string;
  targetId: string;
  createdAt: string;
  admin: { _id: string } | null;
  subject: { _id: string } | null;
  after: Record<string, unknown>;
  batch: { _id: string; createdAt: string; withdrawals: number; total: number } | null;
}
/** On the platform clock: at or just after the time it was set to (it keeps running from there). */
const onClock = (e: Entry, set: string) => {
  const after = Date.parse(e.createdAt) - Date.parse(set);
  expect(after, `${e.action} at ${e.createdAt}, clock set to ${set}`).toBeGreaterThanOrEqual(0);
  expect(after).toBeLessThan(60_000);
};
const auditOf = async (targetId: string): Promise<Entry[]> => {
  const res = await call(t, 'GET', `/api/admin/audit?targetId=${targetId}`, { token: admin.token });
  expect(res.statusCode).toBe(200);
  return res.data.entries;
};

async function pendingWithdrawal(usdc: bigint): Promise<{ u: TestUser; id: string; net: number }> {
  const u = await makeUser(t);
  await fund(t, u.user.id, usdc * 1_000_000n);
  expect((await withdrawAll(t, u, OWN_WALLET)).statusCode).toBe(200);
  const res = await call(t, 'GET', '/api/withdrawal/admin/pending?pageSize=100', { token: admin.token });
  const w = (res.data.withdrawals as { _id: string; userId: { _id: string }; netAmount: number }[]).find(
    (x) => x.userId._id === u.user.id,
  );
  if (!w) throw new Error('no pending withdrawal');
  return { u, id: w._id, net: w.netAmount };
}

describe('the audit log of money out', () => {
  it('names the payout batch of each batch entry and what it holds, at the platform clock’s time', async () => {
    const a = await pendingWithdrawal(1_250_000n);
    const b = await pendingWithdrawal(40n);
    const created = await call(t, 'POST', '/api/withdrawal/admin/batches', {
      token: admin.token,
      body: { withdrawalIds: [a.id, b.id], grouped: false },
    });
    expect(created.statusCode).toBe(201);
    const batchId: string = created.data.batch._id;
    const file = await call(t, 'GET', `/api/withdrawal/admin/batches/${batchId}/file?format=csv`, {
      token: admin.token,
    });
    expect(file.statusCode).toBe(200);

    const entries = await auditOf(batchId);
    expect(entries.map((e) => e.action).sort()).toEqual(['payout_batch_create', 'payout_batch_download']);
    const holds = { _id: batchId, withdrawals: 2, total: a.net + b.net };
    for (const e of entries) {
      expect(e).toMatchObject({ admin: { _id: admin.user.id }, batch: holds });
      onClock(e, AT);
      if (e.batch) onClock({ ...e, createdAt: e.batch.createdAt }, AT);
    }
  });

  it('records a withdrawal the watcher completed by a payout found on chain: by the platform, with hash and batch', async () => {
    const w = await pendingWithdrawal(300n);
    const created = await call(t, 'POST', '/api/withdrawal/admin/batches', {
      token: admin.token,
      body: { withdrawalIds: [w.id], grouped: true },
    });
    const batchId: string = created.data.batch._id;
    const later = '2031-03-05T10:00:00.000Z';
    t.clock.set(new Date(later));
    // What the watcher's pass does with a transfer out of PAYOUT_ADDRESS it read in a deep block.
    const txHash = hashOf(0xb0);
    await recordPayoutTransfers(t.ctx.db, [
      {
        txHash,
        logIndex: 0,
        toAddress: OWN_WALLET.toLowerCase(),
        amount: BigInt(Math.round(w.net * 1_000_000)),
        blockNumber: 100n,
        blockHash: hashOf(0xb1),
        createdAt: t.clock.now(),
      },
    ]);
    expect(await settlePayouts(t.ctx, 100n)).toEqual({ matched: 1, open: 0 });

    const [entry, ...more] = await auditOf(w.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'withdrawal_paid_on_chain',
      admin: null,
      subject: { _id: w.u.user.id },
      after: { status: 'approved', txHash, batchId },
      batch: { _id: batchId, withdrawals: 1, total: w.net },
    });
    onClock(entry!, later);
    const byAction = await call(t, 'GET', '/api/admin/audit?action=withdrawal_paid_on_chain', { token: admin.token });
    expect(byAction.data.actions).toContain('withdrawal_paid_on_chain');
    expect(byAction.data.total).toBe(1);
    await expectLedgerClean(t);
  });
});
