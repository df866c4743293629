import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { userBalances } from '../../src/ledger/ledger.ts';
import { call, createTestApp, expectLedgerClean, fund, makeUser, type TestApp, type TestUser } from '../helpers.ts';
import { hashOf } from '../support/money.ts';
import {
  CHROME_LINUX,
  FIREFOX_WINDOWS,
  OWN_WALLET,
  THIEF_WALLET,
  hours,
  lastMail,
  linkToken,
  signIn,
  withdrawAll,
} from './support.ts';

/**
 * Money out stops where it should (DOMAIN.md "Money out"), over HTTP without a chain: a freeze stops every
 * way out, "this wasn't me" takes back what the reported session asked for, and a withdrawal in a payout batch is
 * decided by the batch (a cancelled batch whose file was downloaded keeps it in payment for its grace).
 */
let t: TestApp;
let admin: TestUser;
const PAYOUT = '0x3333333333333333333333333333333333333333';

beforeAll(async () => {
  t = await createTestApp({ PAYOUT_ADDRESS: PAYOUT, JWT_TTL_SECONDS: String(7 * 24 * 3600) });
  t.clock.set(new Date('2026-11-25T09:00:00Z'));
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

const pending = async () =>
  (await call(t, 'GET', '/api/withdrawal/admin/pending?pageSize=100', { token: admin.token })).data.withdrawals as {
    _id: string;
    userId: { _id: string };
    frozen: boolean;
    batchId: string | null;
    inPaymentUntil: string | null;
    netAmount: number;
  }[];
const pendingOf = async (u: TestUser) => (await pending()).filter((w) => w.userId._id === u.user.id);
const approve = (id: string, n: number) =>
  call(t, 'POST', '/api/withdrawal/admin/approve', {
    token: admin.token,
    body: { withdrawalId: id, txHash: hashOf(n) },
  });
const reject = (id: string) =>
  call(t, 'POST', '/api/withdrawal/admin/reject', { token: admin.token, body: { withdrawalId: id, notes: 'no' } });
const batch = (ids: string[]) =>
  call(t, 'POST', '/api/withdrawal/admin/batches', { token: admin.token, body: { withdrawalIds: ids, grouped: true } });
const freeze = (u: TestUser, frozen: boolean) =>
  call(t, 'PUT', `/api/admin/users/${u.user.id}/withdrawals-frozen`, { token: admin.token, body: { frozen } });
const statusOf = async (u: TestUser, id: string) =>
  (
    (await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token: u.token })).data.withdrawals as {
      _id: string;
      status: string;
      notes: string | null;
    }[]
  ).find((w) => w._id === id);

async function investorWith(usdc: bigint): Promise<TestUser> {
  const u = await makeUser(t);
  await fund(t, u.user.id, usdc * 1_000_000n);
  return u;
}

describe('a freeze stops money out', () => {
  it('a frozen account’s withdrawal shows frozen and cannot be approved by hash or batched; lifting it pays', async () => {
    const u = await investorWith(250n);
    expect((await withdrawAll(t, u, THIEF_WALLET)).statusCode).toBe(200);
    const [w] = await pendingOf(u);
    expect(w).toMatchObject({ frozen: false, batchId: null });
    expect((await freeze(u, true)).statusCode).toBe(200);
    expect((await pendingOf(u))[0]).toMatchObject({ frozen: true });

    const approved = await approve(w!._id, 1);
    expect(approved.statusCode).toBe(403);
    expect(approved.data).toEqual({ error: MSG.withdrawalAccountFrozen, code: 'withdrawals_frozen' });
    const batched = await batch([w!._id]);
    expect(batched.statusCode).toBe(403);
    expect(batched.data).toEqual({ error: MSG.batchHasFrozen, code: 'withdrawals_frozen' });
    // Nothing moved: still pending, still held.
    expect(await statusOf(u, w!._id)).toMatchObject({ status: 'pending' });
    expect((await userBalances(t.ctx.db, u.user.id)).pending_withdrawal).toBe(250_000_000n);
    expect((await call(t, 'GET', '/api/withdrawal/admin/batches', { token: admin.token })).data.batches).toEqual([]);

    expect((await freeze(u, false)).statusCode).toBe(200);
    expect((await approve(w!._id, 2)).statusCode).toBe(200);
    expect((await userBalances(t.ctx.db, u.user.id)).pending_withdrawal).toBe(0n);
    await expectLedgerClean(t);
  });

  it('"this wasn’t me" about a sign-in rejects what that session asked for; the owner’s own request stays, frozen', async () => {
    const u = await investorWith(100n);
    const own = await signIn(t, u, { ua: CHROME_LINUX, deviceId: `own-${u.user.id}` });
    const owner = { ...u, token: own.data.token as string };
    expect((await withdrawAll(t, owner, OWN_WALLET)).statusCode).toBe(200);
    await fund(t, u.user.id, 250_000_000n);

    // A thief with both passwords signs in from another device and asks for everything.
    const signedIn = await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `thief-${u.user.id}` });
    const thief = { ...u, token: signedIn.data.token as string };
    expect((await withdrawAll(t, thief, THIEF_WALLET)).statusCode).toBe(200);
    const mine = await pendingOf(u);
    expect(mine).toHaveLength(2);
    const stolen = mine.find((w) => w.netAmount === 250)!;
    const honest = mine.find((w) => w.netAmount === 100)!;

    const mail = await lastMail(t, u.user.email, 'New sign-in to your Harvest Farm account');
    const res = await call(t, 'POST', '/api/security/not-me', { body: { token: linkToken(mail, 'not-me') } });
    expect(res.statusCode).toBe(200);

    const again = await signIn(t, u, { ua: CHROME_LINUX, deviceId: `own-${u.user.id}` });
    const back = { ...u, token: again.data.token as string };
    expect(await statusOf(back, stolen._id)).toMatchObject({ status: 'rejected', notes: MSG.notMeWithdrawalRejected });
    expect(await statusOf(back, honest._id)).toMatchObject({ status: 'pending' });
    expect(await userBalances(t.ctx.db, u.user.id)).toMatchObject({
      balance: 250_000_000n,
      pending_withdrawal: 100_000_000n,
    });
    expect(await pendingOf(u)).toEqual([expect.objectContaining({ _id: honest._id, frozen: true })]);
    expect((await approve(honest._id, 3)).data.code).toBe('withdrawals_frozen');
    const receipt = await lastMail(t, u.user.email, 'Withdrawal rejected');
    expect(receipt.text).toContain(MSG.notMeWithdrawalRejected);
    const activity = (await call(t, 'GET', '/api/user/security-events', { token: back.token })).data.events as {
      type: string;
      detail: string;
    }[];
    expect(activity.find((e) => e.type === 'not_me')?.detail).toContain('1 withdrawal cancelled');
    await expectLedgerClean(t);
  });
});

describe('a withdrawal in a payout batch is decided by the batch', () => {
  it('reject and approval by hash answer 409 while it is in an open batch; a cancel before any download frees it', async () => {
    const u = await investorWith(40n);
    await withdrawAll(t, u, OWN_WALLET);
    const [w] = await pendingOf(u);
    const b = (await batch([w!._id])).data.batch as { _id: string };
    expect((await pendingOf(u))[0]).toMatchObject({ batchId: b._id });
    for (const res of [await reject(w!._id), await approve(w!._id, 4)]) {
      expect(res.statusCode).toBe(409);
      expect(res.data).toEqual({ error: MSG.withdrawalInPayment, code: 'in_payment' });
    }
    const cancelled = await call(t, 'POST', `/api/withdrawal/admin/batches/${b._id}/cancel`, { token: admin.token });
    expect(cancelled.data).toMatchObject({
      message: MSG.batchCancelled,
      batch: { status: 'cancelled', graceUntil: null },
    });
    expect((await pendingOf(u))[0]).toMatchObject({ batchId: null });
    expect((await reject(w!._id)).statusCode).toBe(200);
    await expectLedgerClean(t);
  });

  it('a downloaded batch is cancelled only when confirmed, and keeps its withdrawals in payment for the grace', async () => {
    const u = await investorWith(100n);
    await withdrawAll(t, u, OWN_WALLET);
    const frozenOne = await investorWith(30n);
    await withdrawAll(t, frozenOne, THIEF_WALLET);
    const [w] = await pendingOf(u);
    const [f] = await pendingOf(frozenOne);
    const b = (await batch([w!._id, f!._id])).data.batch as { _id: string };
    // A freeze after the export: the file leaves that withdrawal out, and the batch says so.
    await freeze(frozenOne, true);
    const file = await call(t, 'GET', `/api/withdrawal/admin/batches/${b._id}/file?format=csv`, { token: admin.token });
    expect(file.body.trim().split('\n')).toEqual(['address,amount', `${OWN_WALLET},100`]);
    const listed = (await call(t, 'GET', '/api/withdrawal/admin/batches', { token: admin.token })).data.batches;
    expect(listed.find((x: { _id: string }) => x._id === b._id)).toMatchObject({
      frozen: 1,
      total: 130,
      paid: 0,
      downloadedAt: expect.any(String),
    });

    const url = `/api/withdrawal/admin/batches/${b._id}/cancel`;
    const unconfirmed = await call(t, 'POST', url, { token: admin.token, body: {} });
    expect(unconfirmed.statusCode).toBe(409);
    expect(unconfirmed.data).toEqual({ error: MSG.batchCancelConfirm, code: 'batch_downloaded' });
    const cancelled = await call(t, 'POST', url, { token: admin.token, body: { confirmNotExecuted: true } });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.data).toMatchObject({ message: MSG.batchCancelledGrace, batch: { status: 'cancelled' } });
    const until = cancelled.data.batch.graceUntil as string;
    // The grace is BATCH_CANCEL_GRACE_HOURS (24) from the cancel.
    expect(Date.parse(until) - Date.parse(cancelled.data.batch.closedAt as string)).toBe(24 * 3600_000);
    expect((await pendingOf(u))[0]).toMatchObject({ batchId: b._id, inPaymentUntil: until });
    const during = await reject(w!._id);
    expect(during.data).toEqual({ error: MSG.withdrawalInPaymentGrace, code: 'in_payment' });
    expect((await batch([w!._id])).statusCode).toBe(409);

    hours(t, 24);
    expect((await pendingOf(u))[0]).toMatchObject({ batchId: null, inPaymentUntil: null });
    expect((await reject(w!._id)).statusCode).toBe(200);
    // The batch counts only what it paid: nothing, and the rejected one no more.
    const after = (await call(t, 'GET', '/api/withdrawal/admin/batches', { token: admin.token })).data.batches;
    expect(after.find((x: { _id: string }) => x._id === b._id)).toMatchObject({ total: 30, paid: 0, withdrawals: 1 });
    const audit = (await call(t, 'GET', '/api/admin/audit?action=payout_batch_cancel', { token: admin.token })).data
      .entries as { targetId: string; after: { confirmedNotExecuted: boolean } }[];
    expect(audit.find((e) => e.targetId === b._id)?.after).toMatchObject({ confirmedNotExecuted: true });
    await expectLedgerClean(t);
  });

  it('"this wasn’t me" leaves a reported withdrawal that is in payment in its batch, frozen', async () => {
    const u = await investorWith(60n);
    await signIn(t, u, { ua: CHROME_LINUX, deviceId: `own-${u.user.id}` });
    const signedIn = await signIn(t, u, { ua: FIREFOX_WINDOWS, deviceId: `thief-${u.user.id}` });
    await withdrawAll(t, { ...u, token: signedIn.data.token as string }, THIEF_WALLET);
    const [w] = await pendingOf(u);
    const b = (await batch([w!._id])).data.batch as { _id: string };
    const mail = await lastMail(t, u.user.email, 'New sign-in to your Harvest Farm account');
    await call(t, 'POST', '/api/security/not-me', { body: { token: linkToken(mail, 'not-me') } });
    expect(await pendingOf(u)).toEqual([expect.objectContaining({ _id: w!._id, batchId: b._id, frozen: true })]);
    const csv = await call(t, 'GET', `/api/withdrawal/admin/batches/${b._id}/file?format=csv`, { token: admin.token });
    expect(csv.body.trim()).toBe('address,amount');
  });
});
