import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MSG } from '@harvest/shared/messages';
import {
  call,
  createTestApp,
  expectLedgerClean,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { hashOf, WALLET } from '../../../test/support/money.ts';
import { rawRows } from '../../db/raw.ts';
import { userBalances } from '../../ledger/ledger.ts';

/** An administrator rejects a pending deposit; its owner corrects it (or dismisses it). */
let t: TestApp;
let admin: TestUser;
let n = 7000;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

const OTHER_WALLET = '0x00000000000000000000000000000000000000b2';
const submit = async (u: TestUser, amount = 4) => {
  const res = await call(t, 'POST', '/api/user/process-deposit', {
    token: u.token,
    body: { txHash: hashOf(++n), amount, fromAddress: WALLET },
  });
  expect(res.statusCode).toBe(200);
  return res.data.deposit._id as string;
};
const reject = (depositId: string, reason: unknown = 'Nothing arrived from this sender', token = admin.token) =>
  call(t, 'POST', '/api/admin/reject-deposit', { token, body: { depositId, reason } });
const approve = (depositId: string) =>
  call(t, 'POST', '/api/admin/process-deposit', { token: admin.token, body: { depositId } });
const failedList = async (u: TestUser) =>
  (await call(t, 'GET', '/api/withdrawal/failed-deposits', { token: u.token })).data.deposits as { _id: string }[];
const history = async (u: TestUser) =>
  (await call(t, 'GET', '/api/user/deposit-history', { token: u.token })).data.deposits as {
    _id: string;
    status: string;
  }[];
const statusOf = async (id: string) =>
  (await rawRows<{ status: string }>(t.ctx.db, sql`SELECT status FROM deposits WHERE id = ${id}::uuid`))[0]?.status;

describe('POST /admin/reject-deposit', () => {
  it('fails a pending deposit with the reason, audited; its owner sees it in the failed deposits', async () => {
    const u = await makeUser(t);
    const id = await submit(u);
    const res = await reject(id, '  Wrong sender: we received nothing from 0x00…a1  ');
    expect(res.statusCode).toBe(200);
    expect(res.data.message).toBe(MSG.depositRejected);
    expect(res.data.deposit).toMatchObject({
      _id: id,
      status: 'failed',
      failureReason: 'Wrong sender: we received nothing from 0x00…a1',
      failureKind: 'rejected',
    });
    expect(res.data.deposit.processedAt).not.toBeNull();
    const listed = (await failedList(u)).find((d) => d._id === id);
    expect(listed).toMatchObject({ failureReason: 'Wrong sender: we received nothing from 0x00…a1' });
    const [audit] = await rawRows<{ admin_id: string; note: string; after: { status: string } }>(
      t.ctx.db,
      sql`SELECT admin_id, note, after FROM audit_log WHERE action = 'deposit_reject' AND target_id = ${id}`,
    );
    expect(audit).toMatchObject({ admin_id: admin.user.id, after: { status: 'failed' } });
    expect(audit?.note).toContain('Wrong sender');
    expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(0n);
  });

  it('is decided once: a second reject or an approval after it is 409; a confirmed deposit cannot be rejected', async () => {
    const u = await makeUser(t);
    const id = await submit(u);
    expect((await reject(id)).statusCode).toBe(200);
    const again = await reject(id, 'Another reason');
    expect(again.statusCode).toBe(409);
    expect(again.data.error).toBe(MSG.depositAlreadyProcessed);
    const late = await approve(id);
    expect(late.statusCode).toBe(409);
    expect(late.data.error).toBe(MSG.depositNotPending);

    const confirmed = await submit(u);
    expect((await approve(confirmed)).statusCode).toBe(200);
    const refused = await reject(confirmed);
    expect(refused.statusCode).toBe(409);
    expect(refused.data.error).toBe(MSG.depositAlreadyProcessed);
    expect(await statusOf(confirmed)).toBe('confirmed');
    expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(4_000_000n);
    await expectLedgerClean(t);
  });

  it('refuses bad input with the message and changes nothing; investors get 403; unknown ids 404', async () => {
    const u = await makeUser(t);
    const id = await submit(u);
    for (const [reason, message] of [
      ['', MSG.rejectReasonRequired],
      ['   ', MSG.rejectReasonRequired],
      [null, MSG.rejectReasonRequired],
      [42, MSG.rejectReasonRequired],
      ['x'.repeat(501), MSG.rejectReasonTooLong],
    ] as const) {
      const res = await reject(id, reason);
      expect(res.statusCode, String(reason)).toBe(400);
      expect(res.data.error).toBe(message);
    }
    const missing = await call(t, 'POST', '/api/admin/reject-deposit', { token: admin.token, body: { depositId: id } });
    expect(missing.data.error).toBe(MSG.rejectReasonRequired);
    expect((await reject(id, 'Nope', u.token)).statusCode).toBe(403);
    expect((await reject('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await reject('not-a-uuid')).statusCode).toBe(404);
    expect(await statusOf(id)).toBe('pending');
  });

  it('an Idempotency-Key retry gets the first answer and rejects (and mails) once', async () => {
    const u = await makeUser(t);
    const id = await submit(u);
    const headers = { 'idempotency-key': `reject-${id}` };
    const body = { depositId: id, reason: 'Duplicate of another deposit' };
    const first = await call(t, 'POST', '/api/admin/reject-deposit', { token: admin.token, body, headers });
    const second = await call(t, 'POST', '/api/admin/reject-deposit', { token: admin.token, body, headers });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.data).toEqual(first.data);
    const [mails] = await rawRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM mail_outbox WHERE user_id = ${u.user.id}::uuid AND kind = 'deposit_failed'`,
    );
    expect(mails?.n).toBe(1);
  });
});

describe('correcting and dismissing a rejected deposit', () => {
  it('the owner corrects it with another from-address; it is pending again and an approval credits it', async () => {
    const u = await makeUser(t);
    const id = await submit(u, 4);
    expect((await reject(id, 'Wrong sender')).statusCode).toBe(200);
    const bad = await call(t, 'POST', '/api/withdrawal/update-failed-deposit', {
      token: u.token,
      body: { depositId: id, txHash: hashOf(++n), amount: 5, fromAddress: '0x1234' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.error).toBe(MSG.invalidWallet);
    expect(await statusOf(id)).toBe('failed');

    const txHash = hashOf(++n);
    const fixed = await call(t, 'POST', '/api/withdrawal/update-failed-deposit', {
      token: u.token,
      body: { depositId: id, txHash, amount: '5.5', fromAddress: OTHER_WALLET.toUpperCase().replace('0X', '0x') },
    });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.data.deposit).toMatchObject({
      status: 'pending',
      txHash,
      amount: 5.5,
      fromAddress: OTHER_WALLET,
      failureReason: null,
      failureKind: null,
    });
    expect((await failedList(u)).map((d) => d._id)).not.toContain(id);
    expect((await approve(id)).statusCode).toBe(200);
    expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(5_500_000n);
    await expectLedgerClean(t);
  });

  it('without a from-address the correction keeps the one given before', async () => {
    const u = await makeUser(t);
    const id = await submit(u);
    await reject(id);
    const res = await call(t, 'POST', '/api/withdrawal/update-failed-deposit', {
      token: u.token,
      body: { depositId: id, txHash: hashOf(++n), amount: 4 },
    });
    expect(res.data.deposit).toMatchObject({ status: 'pending', fromAddress: WALLET });
  });

  it('the owner dismisses it: gone from the failed list, kept in the history; once, own, failed only', async () => {
    const u = await makeUser(t);
    const stranger = await makeUser(t);
    const id = await submit(u);
    const pending = await submit(u);
    await reject(id);
    const dismiss = (depositId: string, token = u.token) =>
      call(t, 'POST', '/api/withdrawal/dismiss-failed-deposit', { token, body: { depositId } });

    expect((await dismiss(id, stranger.token)).statusCode).toBe(404);
    const notFailed = await dismiss(pending);
    expect(notFailed.statusCode).toBe(409);
    expect(notFailed.data.error).toBe(MSG.depositNotDismissable);

    const res = await dismiss(id);
    expect(res.statusCode).toBe(200);
    expect(res.data.message).toBe(MSG.depositDismissed);
    expect(res.data.deposit).toMatchObject({ _id: id, status: 'failed' });
    expect((await failedList(u)).map((d) => d._id)).not.toContain(id);
    expect((await history(u)).find((d) => d._id === id)).toMatchObject({ status: 'failed' });
    expect((await dismiss(id)).statusCode).toBe(409);
    expect((await dismiss('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});
