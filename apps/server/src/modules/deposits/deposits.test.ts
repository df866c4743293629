import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { userBalances } from '../../ledger/ledger.ts';
import { rawRows } from '../../db/raw.ts';
import { sql } from 'drizzle-orm';
import { inTransaction } from '../../db/tx.ts';
import { deliverOutbox } from '../../mail/outbox.ts';
import { failPending } from './deposits.credit.ts';

const hash = () => `0x${randomBytes(32).toString('hex')}`;
// EIP-55 checksummed (a mixed-case address must carry its checksum).
const FROM = '0xabCDeF0123456789AbcdEf0123456789aBCDEF01';
const SENDER = '0x00000000000000000000000000000000000000a1';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  alice = await makeUser(t, { firstName: 'Alice', lastName: 'Investor' });
  bob = await makeUser(t, { firstName: 'Bob', lastName: 'Builder' });
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

const submit = (u: TestUser, body: unknown) => call(t, 'POST', '/api/user/process-deposit', { token: u.token, body });
const balanceOf = async (u: TestUser) => (await userBalances(t.ctx.db, u.user.id)).balance;

describe('process-deposit input (spec section 5 messages, in order)', () => {
  it('asks for all fields first, whatever else is wrong', async () => {
    for (const body of [
      {},
      { txHash: hash(), amount: 1 },
      { txHash: '  ', amount: 0.1, fromAddress: FROM },
      { txHash: hash(), amount: '', fromAddress: FROM },
      { txHash: 'bad', amount: 5, fromAddress: ' ' },
    ]) {
      const res = await submit(alice, body);
      expect(res.statusCode).toBe(400);
      expect(res.data).toEqual({ error: MSG.depositRequired, code: 'validation' });
    }
  });

  it('then the minimum, then hash and address formats', async () => {
    expect((await submit(alice, { txHash: 'bad', amount: 0.49, fromAddress: 'bad' })).data).toEqual({
      error: MSG.minDeposit,
      code: 'validation',
    });
    expect((await submit(alice, { txHash: hash(), amount: -3, fromAddress: FROM })).data).toEqual({
      error: MSG.minDeposit,
      code: 'validation',
    });
    expect((await submit(alice, { txHash: '0x1234', amount: 0.5, fromAddress: 'bad' })).data).toEqual({
      error: MSG.invalidTxHash,
      code: 'validation',
    });
    expect((await submit(alice, { txHash: hash(), amount: 0.5, fromAddress: '0x12' })).data).toEqual({
      error: MSG.invalidWallet,
      code: 'validation',
    });
    expect((await submit(alice, { txHash: hash(), amount: 1.1234567, fromAddress: FROM })).data).toEqual({
      error: MSG.invalidDepositAmount,
      code: 'validation',
    });
    expect((await submit(alice, { txHash: hash(), amount: 'ten', fromAddress: FROM })).data).toEqual({
      error: MSG.invalidDepositAmount,
      code: 'validation',
    });
  });

  it('refuses extra fields and requires a session', async () => {
    expect(
      (await submit(alice, { txHash: hash(), amount: 1, fromAddress: FROM, userId: bob.user.id })).statusCode,
    ).toBe(400);
    expect(
      (await call(t, 'POST', '/api/user/process-deposit', { body: { txHash: hash(), amount: 1, fromAddress: FROM } }))
        .statusCode,
    ).toBe(401);
  });
});

describe('demo deposits (no chain configured)', () => {
  it('stays pending for an admin, who credits it exactly once', async () => {
    const h = hash().toUpperCase().replace('0X', '0x');
    const res = await submit(alice, { txHash: h, amount: '12.5', fromAddress: FROM });
    expect(res.statusCode).toBe(200);
    expect(res.data.message).toBe(MSG.depositSubmitted);
    const d = res.data.deposit;
    expect(d).toMatchObject({
      amount: 12.5,
      status: 'pending',
      type: 'demo',
      txHash: h.toLowerCase(),
      fromAddress: FROM.toLowerCase(),
      processedAt: null,
      userId: alice.user.id,
    });
    expect(await balanceOf(alice)).toBe(0n);

    const history = await call(t, 'GET', '/api/user/deposit-history', { token: alice.token });
    expect(history.data.deposits.map((x: { _id: string }) => x._id)).toContain(d._id);
    expect(
      (await call(t, 'GET', '/api/user/deposit-history', { token: bob.token })).data.deposits.map(
        (x: { _id: string }) => x._id,
      ),
    ).not.toContain(d._id);

    // Non-admins cannot approve.
    expect(
      (await call(t, 'POST', '/api/admin/process-deposit', { token: alice.token, body: { depositId: d._id } }))
        .statusCode,
    ).toBe(403);

    const ok = await call(t, 'POST', '/api/admin/process-deposit', { token: admin.token, body: { depositId: d._id } });
    expect(ok.statusCode).toBe(200);
    expect(ok.data.deposit).toMatchObject({ status: 'confirmed', amount: 12.5 });
    expect(ok.data.deposit.processedAt).not.toBeNull();
    expect(await balanceOf(alice)).toBe(12_500_000n);

    const again = await call(t, 'POST', '/api/admin/process-deposit', {
      token: admin.token,
      body: { depositId: d._id },
    });
    expect(again.statusCode).toBe(409);
    expect(again.data.error).toBe(MSG.depositAlreadyProcessed);
    expect(await balanceOf(alice)).toBe(12_500_000n);

    const audit = await rawRows<{ action: string }>(
      t.ctx.db,
      sql`SELECT action FROM audit_log WHERE target_id = ${d._id}`,
    );
    expect(audit.map((a) => a.action)).toEqual(['deposit_approve']);
    await expectLedgerClean(t);
  });

  it('a hash is claimed once: the same hash again, by anyone, is 409 and credits nothing', async () => {
    const h = hash();
    expect((await submit(alice, { txHash: h, amount: 1, fromAddress: FROM })).statusCode).toBe(200);
    const same = await submit(alice, { txHash: h, amount: 1, fromAddress: FROM });
    expect(same.statusCode).toBe(409);
    expect(same.data.error).toBe(MSG.depositHashTaken);
    const upper = await submit(bob, { txHash: h.toUpperCase().replace('0X', '0x'), amount: 2, fromAddress: FROM });
    expect(upper.statusCode).toBe(409);
    const rows = await rawRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM deposits WHERE tx_hash = ${h}`,
    );
    expect(rows[0]?.n).toBe(1);
    await expectLedgerClean(t);
  });

  it('admin approval: unknown or malformed ids are 404', async () => {
    expect(
      (await call(t, 'POST', '/api/admin/process-deposit', { token: admin.token, body: { depositId: 'nope' } }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await call(t, 'POST', '/api/admin/process-deposit', {
          token: admin.token,
          body: { depositId: '00000000-0000-4000-8000-000000000000' },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('failed-deposit correction', () => {
  async function failedDeposit(owner: TestUser, amount = 3): Promise<string> {
    const res = await submit(owner, { txHash: hash(), amount, fromAddress: FROM });
    const id: string = res.data.deposit._id;
    await rawRows(
      t.ctx.db,
      sql`UPDATE deposits SET status = 'failed', failure_reason = 'Wrong recipient' WHERE id = ${id}::uuid RETURNING id`,
    );
    return id;
  }

  it('a reason with values keeps them: its owner gets the template and values, and the e-mail says it in their language', async () => {
    const owner = await makeUser(t);
    await rawRows(t.ctx.db, sql`UPDATE users SET locale = 'es' WHERE id = ${owner.user.id}::uuid RETURNING id`);
    const id: string = (await submit(owner, { txHash: hash(), amount: 2, fromAddress: FROM })).data.deposit._id;
    const reason = MSG.depositWrongSender([SENDER], FROM.toLowerCase());
    await inTransaction(t.ctx.db, (tx) =>
      failPending(t.ctx, tx, id, { reason, kind: 'wrong_sender', processedAt: t.clock.now() }),
    );
    const list = await call(t, 'GET', '/api/withdrawal/failed-deposits', { token: owner.token });
    expect(list.data.deposits).toEqual([
      expect.objectContaining({
        failureReason: reason.text,
        failureSaid: { template: reason.template, params: { from: SENDER, entered: FROM.toLowerCase() } },
      }),
    ]);
    await deliverOutbox(t.ctx);
    const [mail] = t.smtp.mailsTo(owner.user.email);
    expect(mail?.text).toContain(`Remitente incorrecto: el USDC de esta transacción vino de ${SENDER}`);
  });

  it('lists only the owner failed deposits and corrects one back to pending', async () => {
    const id = await failedDeposit(alice);
    const list = await call(t, 'GET', '/api/withdrawal/failed-deposits', { token: alice.token });
    expect(list.statusCode).toBe(200);
    expect(list.data.deposits).toEqual([
      expect.objectContaining({ _id: id, status: 'failed', failureReason: 'Wrong recipient', failureSaid: null }),
    ]);
    expect((await call(t, 'GET', '/api/withdrawal/failed-deposits', { token: bob.token })).data.deposits).toEqual([]);

    const body = (over: Record<string, unknown>) => ({ depositId: id, txHash: hash(), amount: 4, ...over });
    const upd = (u: TestUser, b: unknown) =>
      call(t, 'POST', '/api/withdrawal/update-failed-deposit', { token: u.token, body: b });
    expect((await upd(alice, body({ txHash: '' }))).data).toEqual({
      error: MSG.failedDepositRequired,
      code: 'validation',
    });
    expect((await upd(alice, body({ amount: undefined }))).data).toEqual({
      error: MSG.failedDepositRequired,
      code: 'validation',
    });
    expect((await upd(alice, body({ amount: 0.2 }))).data).toEqual({ error: MSG.minDeposit, code: 'validation' });
    expect((await upd(alice, body({ txHash: '0xzz' }))).data).toEqual({
      error: MSG.invalidTxHash,
      code: 'validation',
    });
    // Another user's deposit does not exist for them.
    const foreign = await upd(bob, body({}));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.data.error).toBe(MSG.notFound);

    const newHash = hash();
    const ok = await upd(alice, body({ txHash: newHash, amount: '4.25' }));
    expect(ok.statusCode).toBe(200);
    expect(ok.data.message).toBe(MSG.depositResubmitted);
    expect(ok.data.deposit).toMatchObject({
      _id: id,
      status: 'pending',
      txHash: newHash,
      amount: 4.25,
      failureReason: null,
    });
    // Only failed deposits can be corrected.
    const twice = await upd(alice, body({}));
    expect(twice.statusCode).toBe(409);
    expect(twice.data.error).toBe(MSG.depositNotFailed);
    expect((await call(t, 'GET', '/api/withdrawal/failed-deposits', { token: alice.token })).data.deposits).toEqual([]);
    await expectLedgerClean(t);
  });

  it('a correction cannot take a hash another live deposit holds', async () => {
    const live = hash();
    await submit(bob, { txHash: live, amount: 1, fromAddress: FROM });
    const id = await failedDeposit(alice);
    const res = await call(t, 'POST', '/api/withdrawal/update-failed-deposit', {
      token: alice.token,
      body: { depositId: id, txHash: live, amount: 1 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.data.error).toBe(MSG.depositHashTaken);
  });

  it('a failed hash can be submitted again as a new deposit', async () => {
    const id = await failedDeposit(alice);
    const [row] = await rawRows<{ tx_hash: string }>(
      t.ctx.db,
      sql`SELECT tx_hash FROM deposits WHERE id = ${id}::uuid`,
    );
    const again = await submit(bob, { txHash: row?.tx_hash, amount: 3, fromAddress: FROM });
    expect(again.statusCode).toBe(200);
  });
});

describe('admin deposits list', () => {
  it('populates the depositor, filters by status with counts, pages', async () => {
    const all = await call(t, 'GET', '/api/admin/deposits', { token: admin.token });
    expect(all.statusCode).toBe(200);
    const c = all.data.counts;
    expect(c.all).toBe(c.pending + c.confirmed + c.failed);
    expect(all.data.total).toBe(c.all);
    const first = all.data.deposits[0];
    expect(first.userId).toEqual({
      _id: expect.any(String),
      firstName: expect.any(String),
      lastName: expect.any(String),
      email: expect.stringContaining('@'),
    });
    const mine = all.data.deposits.find((d: { userId: { _id: string } }) => d.userId._id === alice.user.id);
    expect(mine.userId).toMatchObject({ firstName: 'Alice', lastName: 'Investor', email: alice.user.email });

    for (const status of ['pending', 'confirmed', 'failed'] as const) {
      const res = await call(t, 'GET', `/api/admin/deposits?status=${status}`, { token: admin.token });
      expect(res.data.total).toBe(c[status]);
      expect(res.data.deposits.every((d: { status: string }) => d.status === status)).toBe(true);
    }
    const page = await call(t, 'GET', '/api/admin/deposits?page=2&pageSize=2', { token: admin.token });
    expect(page.data.deposits).toHaveLength(Math.min(2, Math.max(0, c.all - 2)));
    expect(page.data.deposits[0]._id).toBe(all.data.deposits[2]._id);
    expect((await call(t, 'GET', '/api/admin/deposits?status=weird', { token: admin.token })).statusCode).toBe(400);
    expect((await call(t, 'GET', '/api/admin/deposits', { token: alice.token })).statusCode).toBe(403);
  });
});

describe('admin update-user-balance', () => {
  const update = (body: unknown, token = admin.token) =>
    call(t, 'POST', '/api/admin/update-user-balance', { token, body });

  it('sets the exact balance; a rise shows as a confirmed admin_credit deposit', async () => {
    const carol = await makeUser(t);
    await fund(t, carol.user.id, 2_000_000n);
    const res = await update({ userId: carol.user.id, newBalance: 10.5, note: 'Bonus for testing' });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ message: MSG.balanceUpdated });
    expect(await balanceOf(carol)).toBe(10_500_000n);

    const history = (await call(t, 'GET', '/api/user/deposit-history', { token: carol.token })).data.deposits;
    expect(history).toEqual([
      expect.objectContaining({ type: 'admin_credit', status: 'confirmed', amount: 8.5, txHash: null }),
    ]);

    const [txn] = await rawRows<{ kind: string; ref_id: string; memo: string; created_by: string }>(
      t.ctx.db,
      sql`SELECT kind, ref_id, memo, created_by FROM ledger_transactions WHERE kind = 'admin_adjustment' AND ref_id = ${history[0]._id}`,
    );
    expect(txn).toEqual({
      kind: 'admin_adjustment',
      ref_id: history[0]._id,
      memo: 'Bonus for testing',
      created_by: admin.user.id,
    });
    const audit = await rawRows<{ action: string; note: string; admin_id: string }>(
      t.ctx.db,
      sql`SELECT action, note, admin_id FROM audit_log WHERE target_id = ${carol.user.id}`,
    );
    expect(audit).toEqual([{ action: 'balance_update', note: 'Bonus for testing', admin_id: admin.user.id }]);
    await expectLedgerClean(t);
  });

  it('a cut is one adjustment with the default note and no deposit; zero changes nothing', async () => {
    const dave = await makeUser(t);
    await fund(t, dave.user.id, 5_000_000n);
    expect((await update({ userId: dave.user.id, newBalance: '1.25' })).statusCode).toBe(200);
    expect(await balanceOf(dave)).toBe(1_250_000n);
    const txns = await rawRows<{ memo: string; amount: string }>(
      t.ctx.db,
      sql`SELECT t.memo, e.amount::text AS amount FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
        JOIN ledger_accounts a ON a.id = e.account_id WHERE t.kind = 'admin_adjustment' AND a.user_id = ${dave.user.id}::uuid`,
    );
    expect(txns).toEqual([{ memo: MSG.balanceNoteDefault, amount: '-3750000' }]);
    expect((await call(t, 'GET', '/api/user/deposit-history', { token: dave.token })).data.deposits).toEqual([]);

    expect((await update({ userId: dave.user.id, newBalance: 0, note: '  ' })).statusCode).toBe(200);
    expect(await balanceOf(dave)).toBe(0n);
    expect((await update({ userId: dave.user.id, newBalance: 0 })).statusCode).toBe(200);
    expect(await balanceOf(dave)).toBe(0n);
    await expectLedgerClean(t);
  });

  it('refuses negative or malformed amounts with the spec text, unknown users and non-admins', async () => {
    for (const newBalance of [-1, 'abc', '', null]) {
      const res = await update({ userId: alice.user.id, newBalance });
      expect(res.statusCode).toBe(400);
      expect(res.data).toEqual({ error: MSG.validAmount, code: 'validation' });
    }
    // A seventh decimal is named (balance-update.test.ts).
    expect((await update({ userId: alice.user.id, newBalance: 1.0000001 })).data).toEqual({
      error: MSG.amountTooPrecise,
      code: 'validation',
    });
    expect((await update({ userId: alice.user.id })).data).toEqual({ error: MSG.validAmount, code: 'validation' });
    expect((await update({ userId: '00000000-0000-4000-8000-000000000000', newBalance: 1 })).statusCode).toBe(404);
    expect((await update({ userId: 'x', newBalance: 1 })).statusCode).toBe(404);
    expect((await update({ userId: alice.user.id, newBalance: 1 }, bob.token)).statusCode).toBe(403);
    await expectLedgerClean(t);
  });
});
