import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MSG } from '@harvest/shared/messages';
import { microToDisplay } from '@harvest/shared/money';
import { auditLog, cycleEarnings, investments, mailOutbox } from '../../db/schema.ts';
import { rawRows } from '../../db/raw.ts';
import { sqlState } from '../../db/tx.ts';
import { userBalances } from '../../ledger/ledger.ts';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import {
  WALLET,
  hashOf,
  seedCycleEarning,
  seedFundedInvestment,
  seedManyCycleEarnings,
  withdrawalsOf,
} from '../../../test/support/money.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

const requestAll = (u: TestUser, body: unknown) =>
  call(t, 'POST', '/api/withdrawal/request-all', { token: u.token, body });
const withdrawAll = (u: TestUser, wallet = WALLET) =>
  requestAll(u, { walletAddress: wallet, withdrawalPassword: u.withdrawalPassword });
const mine = async (u: TestUser) =>
  (await call(t, 'GET', `/api/withdrawal/my-withdrawals?t=${Date.now()}`, { token: u.token })).data.withdrawals;
const approve = (body: unknown, token = admin.token) =>
  call(t, 'POST', '/api/withdrawal/admin/approve', { token, body });
const reject = (body: unknown, token = admin.token) => call(t, 'POST', '/api/withdrawal/admin/reject', { token, body });

/** A user with two cycle earnings (one with an odd micro amount), 3 USDC rewards and 10 USDC balance. */
async function userWithFunds() {
  const u = await makeUser(t);
  const inv = await seedFundedInvestment(t, u.user.id, 100_000_000n, 'Gold');
  const e1 = await seedCycleEarning(t, u.user.id, inv, 1_234_567n);
  const e2 = await seedCycleEarning(t, u.user.id, inv, 1_500_000n);
  await fund(t, u.user.id, 3_000_000n, 'rewards');
  await fund(t, u.user.id, 10_000_000n);
  return { u, inv, e1, e2 };
}

describe('POST /withdrawal/request-all refusals', () => {
  it('needs a session', async () => {
    const res = await call(t, 'POST', '/api/withdrawal/request-all', {
      body: { walletAddress: WALLET, withdrawalPassword: 'x' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('asks for the wallet address with the spec text, and for a valid one', async () => {
    const { u } = await userWithFunds();
    for (const body of [
      { withdrawalPassword: u.withdrawalPassword },
      { walletAddress: '', withdrawalPassword: u.withdrawalPassword },
      { walletAddress: '   ', withdrawalPassword: u.withdrawalPassword },
    ]) {
      const res = await requestAll(u, body);
      expect(res.statusCode).toBe(400);
      expect(res.data).toEqual({ error: MSG.walletRequired, code: 'validation' });
    }
    for (const walletAddress of [
      '0x123',
      'not-an-address',
      `${WALLET}00`,
      '0xZZ22222222222222222222222222222222222222',
    ]) {
      const res = await requestAll(u, { walletAddress, withdrawalPassword: u.withdrawalPassword });
      expect(res.statusCode).toBe(400);
      expect(res.data).toEqual({ error: MSG.invalidWallet, code: 'validation' });
    }
    const extra = await requestAll(u, { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword, amount: 5 });
    expect(extra.statusCode).toBe(400);
    expect(await withdrawalsOf(t, u.user.id)).toHaveLength(0);
  });

  it('needs the right withdrawal password; a wrong one changes nothing', async () => {
    const { u } = await userWithFunds();
    const missing = await requestAll(u, { walletAddress: WALLET });
    expect(missing.data).toEqual({ error: MSG.withdrawalPasswordRequired, code: 'validation' });
    for (const withdrawalPassword of ['wrong-one', u.password]) {
      const res = await requestAll(u, { walletAddress: WALLET, withdrawalPassword });
      expect(res.statusCode).toBe(400);
      expect(res.data).toEqual({ error: MSG.withdrawalPasswordWrong, code: 'validation' });
    }
    expect(await withdrawalsOf(t, u.user.id)).toHaveLength(0);
    const b = await userBalances(t.ctx.db, u.user.id);
    expect(b.pending_withdrawal).toBe(0n);
    expect(b.balance).toBe(10_000_000n);
    expect(b.earnings).toBe(2_734_567n);
    expect(b.rewards).toBe(3_000_000n);
    // The writes that ran beside the password check were rolled back: earnings still unrequested,
    // no wallet saved, no receipt queued.
    const earnings = await t.ctx.db.select().from(cycleEarnings).where(eq(cycleEarnings.userId, u.user.id));
    expect(earnings.map((e) => e.withdrawalRequested)).toEqual([false, false]);
    const me = await call(t, 'GET', '/api/user/me', { token: u.token });
    expect(me.data.user.withdrawalWallet).toBeNull();
    const mails = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.userId, u.user.id));
    expect(mails.filter((m) => m.kind === 'withdrawal_requested')).toEqual([]);
  });

  it("says 'No available funds to withdraw' when there is nothing", async () => {
    const u = await makeUser(t);
    const res = await withdrawAll(u);
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ error: MSG.noFunds, code: 'no_funds' });
    const me = await call(t, 'GET', '/api/user/me', { token: u.token });
    expect(me.data.user.withdrawalWallet).toBeNull();
  });
});

describe('Withdraw All', () => {
  it('creates one withdrawal per earning (15% fee, exact to the micro) plus rewards and balance, and holds the money', async () => {
    const { u, inv, e1, e2 } = await userWithFunds();
    const mixedCase = '0xabCDeF0123456789AbcdEf0123456789aBCDEF01'; // EIP-55 checksummed
    const res = await withdrawAll(u, mixedCase);
    expect(res.statusCode).toBe(200);
    expect(res.data.message).toMatch(/^Withdrawal request submitted for 4 items/);
    // The receipt's values as data (micro-USDC), beside the English they fill.
    const { template, params } = res.data;
    expect(template).toBe(
      'Withdrawal request submitted for {n} items: {gross}\u00a0USDC gross, {fee}\u00a0USDC fee, {net}\u00a0USDC to be paid. Withdrawals may take up to 48 hours to process.',
    );
    expect(params.n).toBe(4);
    expect(BigInt(params.gross) - BigInt(params.fee)).toBe(BigInt(params.net));
    expect(res.data.message).toContain(`${microToDisplay(BigInt(params.gross))}\u00a0USDC gross`);

    const list = await mine(u);
    expect(list).toHaveLength(4);
    const byCycle = (n: number) => list.find((w: { cycleNumber: number | null }) => w.cycleNumber === n);
    // 1.234567 x 15% = 0.18518505 -> 0.185185 (rounded down), net 1.049382
    expect(byCycle(1)).toMatchObject({
      status: 'pending',
      source: 'earning',
      amount: 1.234567,
      feeAmount: 0.185185,
      netAmount: 1.049382,
      investmentId: { _id: inv, tier: 'Gold', amount: 100 },
    });
    expect(byCycle(2)).toMatchObject({ amount: 1.5, feeAmount: 0.225, netAmount: 1.275 });
    const rewards = list.find((w: { source: string }) => w.source === 'rewards');
    const balance = list.find((w: { source: string }) => w.source === 'balance');
    expect(rewards).toMatchObject({ amount: 3, feeAmount: 0, netAmount: 3, cycleNumber: null, investmentId: null });
    expect(balance).toMatchObject({ amount: 10, feeAmount: 0, netAmount: 10, cycleNumber: null, investmentId: null });
    for (const w of list) {
      expect(w).toMatchObject({
        walletAddress: mixedCase.toLowerCase(),
        processedAt: null,
        txHash: null,
        notes: null,
        payeeRefused: false,
      });
      expect(Object.keys(w).sort()).toEqual(
        [
          '_id',
          'amount',
          'cycleNumber',
          'feeAmount',
          'investmentId',
          'netAmount',
          'notes',
          'payeeRefused',
          'processedAt',
          'requestId',
          'requestedAt',
          'source',
          'status',
          'txHash',
          'walletAddress',
        ].sort(),
      );
      expect(w.requestId).toBe(list[0].requestId);
    }

    const b = await userBalances(t.ctx.db, u.user.id);
    expect(b).toMatchObject({
      balance: 0n,
      rewards: 0n,
      earnings: 0n,
      pending_withdrawal: 1_234_567n + 1_500_000n + 3_000_000n + 10_000_000n,
      invested: 100_000_000n,
    });
    const ces = await t.ctx.db.select().from(cycleEarnings).where(eq(cycleEarnings.investmentId, inv));
    expect(ces.map((c) => c.withdrawalRequested)).toEqual([true, true]);
    expect([e1, e2].sort()).toEqual(ces.map((c) => c.id).sort());

    const me = await call(t, 'GET', '/api/user/me', { token: u.token });
    expect(me.data.user.withdrawalWallet).toBe(mixedCase.toLowerCase());

    const again = await withdrawAll(u);
    expect(again.statusCode).toBe(400);
    expect(again.data).toEqual({ error: MSG.noFunds, code: 'no_funds' });
    await expectLedgerClean(t);
  });

  it('answers a retry with the same Idempotency-Key with the first answer, without a second request', async () => {
    const { u } = await userWithFunds();
    const body = { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword };
    const headers = { 'idempotency-key': 'withdraw-all-1' };
    const first = await call(t, 'POST', '/api/withdrawal/request-all', { token: u.token, body, headers });
    const retry = await call(t, 'POST', '/api/withdrawal/request-all', { token: u.token, body, headers });
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    expect(retry.data).toEqual(first.data);
    expect(await withdrawalsOf(t, u.user.id)).toHaveLength(4);
    const other = await call(t, 'POST', '/api/withdrawal/request-all', {
      token: u.token,
      body: { ...body, walletAddress: '0x3333333333333333333333333333333333333333' },
      headers,
    });
    expect(other.statusCode).toBe(422);
    await expectLedgerClean(t);
  });

  it('only shows the caller their own withdrawals', async () => {
    const { u } = await userWithFunds();
    await withdrawAll(u);
    const other = await makeUser(t);
    expect(await mine(other)).toEqual([]);
    const res = await call(t, 'GET', '/api/withdrawal/my-withdrawals?t=1700000000000&x=1', { token: u.token });
    expect(res.statusCode).toBe(400);
  });

  it('handles 1,000 unrequested earnings in one request and one transaction', async () => {
    const u = await makeUser(t);
    const inv = await seedFundedInvestment(t, u.user.id);
    await seedManyCycleEarnings(t, u.user.id, inv, 1000, 1_500_001n);
    await expectLedgerClean(t);
    // Its speed is measured by `npm run bench` (docs/BENCHMARKS.md), not asserted here.
    const res = await withdrawAll(u);
    expect(res.statusCode).toBe(200);
    expect(res.data.message).toMatch(/for 1000 items/);
    const rows = await withdrawalsOf(t, u.user.id);
    expect(rows).toHaveLength(1000);
    // 1.500001 x 15% = 0.22500015 -> 0.225000
    expect(rows.every((r) => r.feeAmount === 225_000n && r.netAmount === 1_275_001n)).toBe(true);
    expect((await userBalances(t.ctx.db, u.user.id)).pending_withdrawal).toBe(1_500_001_000n);
    await expectLedgerClean(t);
  });
});

describe('admin approve', () => {
  it('is for admins only and needs a hash', async () => {
    const { u } = await userWithFunds();
    await withdrawAll(u);
    const [w] = await mine(u);
    expect((await approve({ withdrawalId: w._id, txHash: hashOf(1) }, u.token)).statusCode).toBe(403);
    expect((await reject({ withdrawalId: w._id }, u.token)).statusCode).toBe(403);
    expect((await call(t, 'GET', '/api/withdrawal/admin/pending', { token: u.token })).statusCode).toBe(403);
    expect((await call(t, 'GET', '/api/withdrawal/admin/all', { token: u.token })).statusCode).toBe(403);

    for (const txHash of [undefined, '', '  ']) {
      const res = await approve({ withdrawalId: w._id, ...(txHash === undefined ? {} : { txHash }) });
      expect(res.statusCode).toBe(400);
      expect(res.data).toEqual({ error: MSG.txHashRequired, code: 'validation' });
    }
    const bad = await approve({ withdrawalId: w._id, txHash: '0x1234' });
    expect(bad.data).toEqual({ error: MSG.invalidTxHash, code: 'validation' });
    const unknown = await approve({ withdrawalId: '00000000-0000-4000-8000-000000000000', txHash: hashOf(2) });
    expect(unknown.statusCode).toBe(404);
    expect((await mine(u)).every((x: { status: string }) => x.status === 'pending')).toBe(true);
  });

  it('approves an earning withdrawal once: pays out, records the hash and starts the 48 h wait', async () => {
    const { u, inv } = await userWithFunds();
    await withdrawAll(u);
    const earning = (await mine(u)).find((w: { cycleNumber: number | null }) => w.cycleNumber === 1);
    // Ahead of the real time the tokens were issued at (a token is not valid before its issue time).
    const now = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000);
    t.clock.set(now);
    const res = await approve({
      withdrawalId: earning._id,
      txHash: hashOf(10).toUpperCase().replace('0X', '0x'),
      notes: ' paid ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.withdrawal).toMatchObject({
      status: 'approved',
      txHash: hashOf(10),
      notes: 'paid',
      userId: { _id: u.user.id, email: u.user.email },
    });

    const after = (await mine(u)).find((w: { _id: string }) => w._id === earning._id);
    expect(after.status).toBe('approved');
    expect(Date.parse(after.processedAt)).toBeGreaterThanOrEqual(now.getTime());
    const [invRow] = await t.ctx.db.select().from(investments).where(eq(investments.id, inv));
    expect(invRow?.withdrawalApprovedAt?.getTime()).toBe(Date.parse(after.processedAt));
    expect((invRow?.nextCycleAvailableAt?.getTime() ?? 0) - (invRow?.withdrawalApprovedAt?.getTime() ?? 0)).toBe(
      48 * 3600 * 1000,
    );

    const b = await userBalances(t.ctx.db, u.user.id);
    expect(b.pending_withdrawal).toBe(1_500_000n + 3_000_000n + 10_000_000n);

    const twice = await approve({ withdrawalId: earning._id, txHash: hashOf(11) });
    expect(twice.statusCode).toBe(409);
    const rejectAfter = await reject({ withdrawalId: earning._id });
    expect(rejectAfter.statusCode).toBe(409);
    const audits = await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetId, earning._id));
    expect(audits.map((a) => a.action)).toEqual(['withdrawal_approve']);
    await expectLedgerClean(t);
  });

  it('lets one hash pay several withdrawals of the same request and wallet, never another request', async () => {
    const { u } = await userWithFunds();
    await withdrawAll(u);
    const list = await mine(u);
    const h = hashOf(20);
    for (const w of list.slice(0, 2)) expect((await approve({ withdrawalId: w._id, txHash: h })).statusCode).toBe(200);

    const { u: other } = await userWithFunds();
    await withdrawAll(other);
    const [ow] = await mine(other);
    const reused = await approve({ withdrawalId: ow._id, txHash: h });
    expect(reused.statusCode).toBe(409);
    expect(reused.data).toEqual({ error: MSG.hashUsedElsewhere, code: 'conflict' });
    expect((await mine(other))[0].status).toBe('pending');
    await expectLedgerClean(t);
  });
});

describe('admin reject', () => {
  it('returns each withdrawal to where it came from; a rejected earning is available again', async () => {
    const { u, e1 } = await userWithFunds();
    await withdrawAll(u);
    const list = await mine(u);
    for (const w of list) {
      const res = await reject({ withdrawalId: w._id, notes: 'Wrong network' });
      expect(res.statusCode).toBe(200);
      expect(res.data.withdrawal).toMatchObject({ status: 'rejected', notes: 'Wrong network', txHash: null });
    }
    const b = await userBalances(t.ctx.db, u.user.id);
    expect(b).toMatchObject({
      balance: 10_000_000n,
      rewards: 3_000_000n,
      earnings: 2_734_567n,
      pending_withdrawal: 0n,
    });
    const [ce] = await t.ctx.db.select().from(cycleEarnings).where(eq(cycleEarnings.id, e1));
    expect(ce?.withdrawalRequested).toBe(false);
    expect((await reject({ withdrawalId: list[0]._id })).statusCode).toBe(409);
    expect((await approve({ withdrawalId: list[0]._id, txHash: hashOf(30) })).statusCode).toBe(409);

    // Available again: a new Withdraw All takes the same earnings.
    const again = await withdrawAll(u);
    expect(again.statusCode).toBe(200);
    const now = await mine(u);
    expect(now.filter((w: { status: string }) => w.status === 'pending')).toHaveLength(4);
    await expectLedgerClean(t);
  });
});

describe('one hold per request (docs/decisions/0053-withdraw-all-one-hold.md)', () => {
  /** Ledger transactions booked for `ref`, each with its entries as { account kind: amount }. */
  async function booked(ref: string) {
    const rows = await rawRows<{ id: string; kind: string; account: string; amount: string }>(
      t.ctx.db,
      sql`SELECT t.id::text AS id, t.kind, a.kind AS account, e.amount::text AS amount
          FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
          WHERE t.ref_id = ${ref} ORDER BY t.id, a.kind`,
    );
    const byTx = new Map<string, { kind: string; entries: Record<string, bigint> }>();
    for (const r of rows) {
      const tx = byTx.get(r.id) ?? { kind: r.kind, entries: {} };
      tx.entries[r.account] = BigInt(r.amount);
      byTx.set(r.id, tx);
    }
    return [...byTx.values()];
  }

  it("holds every withdrawal of a request with one ledger transaction moving each source's sum", async () => {
    const { u } = await userWithFunds();
    expect((await withdrawAll(u)).statusCode).toBe(200);
    const rows = await withdrawalsOf(t, u.user.id);
    expect(rows).toHaveLength(4);
    const requestId = rows[0]?.requestId ?? '';
    expect(await booked(requestId)).toEqual([
      {
        kind: 'withdrawal_request_hold',
        entries: {
          earnings: -2_734_567n,
          rewards: -3_000_000n,
          balance: -10_000_000n,
          pending_withdrawal: 15_734_567n,
        },
      },
    ]);
    // No withdrawal has a hold of its own.
    for (const w of rows) expect(await booked(w.id)).toEqual([]);
    await expectLedgerClean(t);
  });

  it('approves one withdrawal and rejects another out of one request: each moves only its own money', async () => {
    const { u, e1, e2 } = await userWithFunds();
    await withdrawAll(u);
    const rows = await withdrawalsOf(t, u.user.id);
    const first = rows.find((w) => w.cycleEarningId === e1);
    const second = rows.find((w) => w.cycleEarningId === e2);
    const balanceRow = rows.find((w) => w.source === 'balance');
    if (!first || !second || !balanceRow) throw new Error('withdrawals missing');

    expect((await reject({ withdrawalId: first.id, notes: 'Wrong wallet' })).statusCode).toBe(200);
    expect((await approve({ withdrawalId: balanceRow.id, txHash: hashOf(41) })).statusCode).toBe(200);
    expect(await userBalances(t.ctx.db, u.user.id)).toMatchObject({
      earnings: 1_234_567n,
      rewards: 0n,
      balance: 0n,
      pending_withdrawal: 1_500_000n + 3_000_000n,
    });
    expect(await booked(first.id)).toEqual([
      { kind: 'withdrawal_release', entries: { earnings: 1_234_567n, pending_withdrawal: -1_234_567n } },
    ]);
    expect((await booked(balanceRow.id)).map((x) => x.kind)).toEqual(['withdrawal_payout']);
    // The request's hold is as it was; the others are still pending and held by it.
    expect((await booked(first.requestId)).map((x) => x.kind)).toEqual(['withdrawal_request_hold']);
    const after = await mine(u);
    expect(after.map((w: { status: string }) => w.status).sort()).toEqual([
      'approved',
      'pending',
      'pending',
      'rejected',
    ]);
    const [ce1] = await t.ctx.db.select().from(cycleEarnings).where(eq(cycleEarnings.id, e1));
    const [ce2] = await t.ctx.db.select().from(cycleEarnings).where(eq(cycleEarnings.id, e2));
    expect([ce1?.withdrawalRequested, ce2?.withdrawalRequested]).toEqual([false, true]);
    await expectLedgerClean(t);

    // The released earning goes out again with a request (and a hold) of its own; the rest stay decided once.
    expect((await withdrawAll(u)).statusCode).toBe(200);
    const again = (await withdrawalsOf(t, u.user.id)).find((w) => w.requestId !== first.requestId);
    expect(again).toMatchObject({ cycleEarningId: e1, amount: 1_234_567n, status: 'pending' });
    expect(await booked(again?.requestId ?? '')).toEqual([
      { kind: 'withdrawal_request_hold', entries: { earnings: -1_234_567n, pending_withdrawal: 1_234_567n } },
    ]);
    expect((await approve({ withdrawalId: second.id, txHash: hashOf(42) })).statusCode).toBe(200);
    expect((await reject({ withdrawalId: balanceRow.id })).statusCode).toBe(409);
    expect(await userBalances(t.ctx.db, u.user.id)).toMatchObject({
      earnings: 0n,
      pending_withdrawal: 3_000_000n + 1_234_567n,
    });
    await expectLedgerClean(t);
  });

  interface RawWithdrawal {
    userId: string;
    source: string;
    status: string;
    cycleEarningId: string | null;
    investmentId: string | null;
  }
  /**
   * A withdrawal row written straight into the table (no service, no ledger): 'inserted', or the SQLSTATE the
   * database refuses it with (23503 a foreign key, 23505 a unique key, 23514 a CHECK).
   */
  const insertRaw = (v: RawWithdrawal) =>
    t.ctx.db
      .execute(
        sql`INSERT INTO withdrawals (user_id, request_id, source, status, amount, fee_amount, net_amount,
            cycle_earning_id, investment_id, cycle_number, wallet_address)
          VALUES (${v.userId}::uuid, gen_random_uuid(), ${v.source}, ${v.status}, 1, 0, 1,
            ${v.cycleEarningId}::uuid, ${v.investmentId}::uuid, 1, ${WALLET})`,
      )
      .then(() => 'inserted', sqlState);

  it('keeps the earning, owner and investment of an earning withdrawal together (database constraints)', async () => {
    const { u, inv, e1 } = await userWithFunds();
    const { u: other, inv: otherInv } = await userWithFunds();
    const refused = (v: Omit<RawWithdrawal, 'status'>) => insertRaw({ ...v, status: 'pending' });
    // Another owner's withdrawal of this earning, or the earning under another investment: no such earning.
    expect(await refused({ userId: other.user.id, source: 'earning', cycleEarningId: e1, investmentId: inv })).toBe(
      '23503',
    );
    expect(await refused({ userId: u.user.id, source: 'earning', cycleEarningId: e1, investmentId: otherInv })).toBe(
      '23503',
    );
    // An earning withdrawal names its earning and investment; a rewards one neither.
    expect(await refused({ userId: u.user.id, source: 'earning', cycleEarningId: e1, investmentId: null })).toBe(
      '23514',
    );
    expect(await refused({ userId: u.user.id, source: 'earning', cycleEarningId: null, investmentId: null })).toBe(
      '23514',
    );
    expect(await refused({ userId: u.user.id, source: 'rewards', cycleEarningId: e1, investmentId: inv })).toBe(
      '23514',
    );
    // A rewards or balance withdrawal's owner exists.
    const nobody = '00000000-0000-4000-8000-000000000000';
    expect(await refused({ userId: nobody, source: 'balance', cycleEarningId: null, investmentId: null })).toBe(
      '23503',
    );
    expect(await withdrawalsOf(t, u.user.id)).toEqual([]);
    expect(await withdrawalsOf(t, other.user.id)).toEqual([]);
  });

  it('holds an earning in at most one live withdrawal, and numbers withdrawals in time order (database)', async () => {
    const { u, inv, e1 } = await userWithFunds();
    const insert = (status: string) =>
      insertRaw({ userId: u.user.id, source: 'earning', status, cycleEarningId: e1, investmentId: inv });
    expect(await insert('rejected')).toBe('inserted');
    expect(await insert('rejected')).toBe('inserted');
    expect(await insert('pending')).toBe('inserted');
    // A second live withdrawal of the same earning, pending or approved: the unique key refuses it.
    expect(await insert('pending')).toBe('23505');
    expect(await insert('approved')).toBe('23505');
    // Ids are UUID version 7: a later row's id sorts after an earlier one's (different milliseconds).
    const ids = (await withdrawalsOf(t, u.user.id)).map((w) => w.id);
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const uuid7 = async () =>
      (await rawRows<{ id: string }>(t.ctx.db, sql`SELECT hf_uuid7()::text AS id`))[0]?.id ?? '';
    const millis = (id: string) => id.replace(/-/g, '').slice(0, 12);
    const before = { id: await uuid7() };
    // The next one made in a later millisecond of the database's clock.
    let after = { id: await uuid7() };
    while (millis(after.id) === millis(before.id)) after = { id: await uuid7() };
    expect((before?.id ?? '') < (after?.id ?? '')).toBe(true);
    expect(Number.parseInt((after?.id ?? '').replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThan(Date.now() - 60_000);
  });
});

// Its own app on a fresh database: time enough for it on a loaded machine (a timeout, not a speed target).
describe('admin lists', { timeout: 120_000 }, () => {
  it('lists pending and all withdrawals with the user, counts and pages', async () => {
    const fresh = await createTestApp();
    try {
      const a = await makeUser(fresh, { isAdmin: true });
      const u = await makeUser(fresh, { firstName: 'Ada', lastName: 'Lovelace' });
      const inv = await seedFundedInvestment(fresh, u.user.id);
      for (let i = 0; i < 3; i++) await seedCycleEarning(fresh, u.user.id, inv, 1_000_000n);
      await fund(fresh, u.user.id, 5_000_000n);
      await call(fresh, 'POST', '/api/withdrawal/request-all', {
        token: u.token,
        body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
      });
      const get = (url: string) => call(fresh, 'GET', url, { token: a.token });

      const pending = await get('/api/withdrawal/admin/pending');
      expect(pending.statusCode).toBe(200);
      expect(pending.data.counts).toEqual({ pending: 4, total: 4 });
      expect(pending.data.withdrawals).toHaveLength(4);
      expect(pending.data.withdrawals[0].userId).toEqual({
        _id: u.user.id,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: u.user.email,
      });

      const first = pending.data.withdrawals[0]._id;
      await call(fresh, 'POST', '/api/withdrawal/admin/reject', { token: a.token, body: { withdrawalId: first } });
      const paged = await get('/api/withdrawal/admin/all?page=2&pageSize=3');
      expect(paged.data.pagination).toEqual({ page: 2, pageSize: 3, total: 4 });
      expect(paged.data.withdrawals).toHaveLength(1);
      expect(paged.data.counts).toEqual({ pending: 3, total: 4 });
      const rejected = await get('/api/withdrawal/admin/all?status=rejected');
      expect(rejected.data.withdrawals.map((w: { _id: string }) => w._id)).toEqual([first]);
      expect(rejected.data.pagination.total).toBe(1);
      expect((await get('/api/withdrawal/admin/pending')).data.withdrawals).toHaveLength(3);
      expect((await get('/api/withdrawal/admin/all?status=done')).statusCode).toBe(400);
      expect((await get('/api/withdrawal/admin/all?pageSize=1000')).statusCode).toBe(400);
      await expectLedgerClean(fresh);
    } finally {
      await fresh.close();
    }
  });
});

describe('withdrawal password throttle', () => {
  it('refuses with 429 and Retry-After after 5 wrong passwords, even the right one', async () => {
    const limited = await createTestApp({ RATE_LIMITS: 'on' });
    try {
      const u = await makeUser(limited);
      await fund(limited, u.user.id, 1_000_000n);
      const send = (withdrawalPassword: string) =>
        call(limited, 'POST', '/api/withdrawal/request-all', {
          token: u.token,
          body: { walletAddress: WALLET, withdrawalPassword },
        });
      for (let i = 0; i < 5; i++)
        expect((await send('wrong-password')).data).toEqual({
          error: MSG.withdrawalPasswordWrong,
          code: 'validation',
        });
      const locked = await send(u.withdrawalPassword);
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      limited.clock.set(new Date(Date.now() + 16 * 60_000));
      expect((await send(u.withdrawalPassword)).statusCode).toBe(200);
      await expectLedgerClean(limited);
    } finally {
      await limited.close();
    }
  });
});
