import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../test/helpers.ts';
import { WALLET, seedCycleEarning, seedFundedInvestment, withdrawalsOf } from '../../test/support/money.ts';
import { rawRows } from '../db/raw.ts';
import { withdrawals } from '../db/schema.ts';
import { inTransaction } from '../db/tx.ts';
import { checkLedger } from './check.ts';
import { post, userTransfer } from './ledger.ts';

/**
 * ledger:check against the holds of Withdraw All (docs/decisions/0053-withdraw-all-one-hold.md): each
 * test breaks the books in one way and finds the rule that says so. The ledger is append-only, so what a
 * test posts stays: every test looks for its own rows only.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HELD_ONCE = 'every withdrawal is held once and settled at most once, matching its status';
const HOLD_AMOUNTS = "every hold moves exactly its withdrawals' amounts from their sources into pending_withdrawal";
const PENDING_HELD = 'pending withdrawals equal the held money';

const details = async (rule: string) =>
  (await checkLedger(t.ctx.db)).filter((v) => v.rule === rule).map((v) => v.detail);

/** A user who asked for Withdraw All of one earning (2 USDC) and 5 USDC balance. */
async function withdrawn(): Promise<{ u: TestUser; rows: Awaited<ReturnType<typeof withdrawalsOf>> }> {
  const u = await makeUser(t);
  const inv = await seedFundedInvestment(t, u.user.id);
  await seedCycleEarning(t, u.user.id, inv, 2_000_000n);
  await fund(t, u.user.id, 5_000_000n);
  const res = await call(t, 'POST', '/api/withdrawal/request-all', {
    token: u.token,
    body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
  });
  expect(res.statusCode).toBe(200);
  return { u, rows: await withdrawalsOf(t, u.user.id) };
}

const holdOf = async (requestId: string) => {
  const [row] = await rawRows<{ id: string }>(
    t.ctx.db,
    sql`SELECT id::text AS id FROM ledger_transactions WHERE kind = 'withdrawal_request_hold' AND ref_id = ${requestId}`,
  );
  return row?.id;
};

describe('ledger:check and the hold of a Withdraw All request', () => {
  it('finds nothing wrong after Withdraw All (one hold for the request)', async () => {
    const { rows } = await withdrawn();
    expect(rows).toHaveLength(2);
    await expectLedgerClean(t);
  });

  it('reports a withdrawal nothing holds', async () => {
    const u = await makeUser(t);
    const [w] = await t.ctx.db
      .insert(withdrawals)
      .values({
        userId: u.user.id,
        requestId: randomUUID(),
        source: 'balance',
        amount: 1_000_000n,
        feeAmount: 0n,
        netAmount: 1_000_000n,
        walletAddress: WALLET,
      })
      .returning();
    if (!w) throw new Error('not inserted');
    expect(await details(HELD_ONCE)).toContain(`${w.id} pending`);
    expect((await details(PENDING_HELD)).some((d) => d.startsWith(u.user.id))).toBe(true);
    await t.ctx.db.delete(withdrawals).where(eq(withdrawals.id, w.id));
    expect(await details(HELD_ONCE)).not.toContain(`${w.id} pending`);
  });

  it('reports a withdrawal held twice (its own hold besides its request one)', async () => {
    const { u, rows } = await withdrawn();
    const w = rows.find((r) => r.source === 'earning');
    if (!w) throw new Error('no earning withdrawal');
    await fund(t, u.user.id, w.amount);
    await inTransaction(t.ctx.db, (tx) =>
      post(
        tx,
        userTransfer('withdrawal_hold', w.id, u.user.id, {
          from: 'balance',
          to: 'pending_withdrawal',
          amount: w.amount,
        }),
      ),
    );
    expect(await details(HELD_ONCE)).toContain(`${w.id} pending`);
    // The others of the request are still held once.
    for (const other of rows.filter((r) => r.id !== w.id))
      expect(await details(HELD_ONCE)).not.toContain(`${other.id} pending`);
  });

  it("reports a request hold that does not move its withdrawals' amounts", async () => {
    const { u, rows } = await withdrawn();
    const w = rows.find((r) => r.source === 'balance');
    if (!w) throw new Error('no balance withdrawal');
    const hold = await holdOf(w.requestId);
    await t.ctx.db
      .update(withdrawals)
      .set({ amount: w.amount + 1n, netAmount: w.netAmount + 1n })
      .where(eq(withdrawals.id, w.id));
    const found = await details(HOLD_AMOUNTS);
    expect(found).toContain(`${hold} ${u.user.id} balance expected=-5000001 booked=-5000000`);
    expect(found).toContain(`${hold} ${u.user.id} pending_withdrawal expected=7000001 booked=7000000`);
    await t.ctx.db
      .update(withdrawals)
      .set({ amount: w.amount, netAmount: w.netAmount })
      .where(eq(withdrawals.id, w.id));
    expect((await details(HOLD_AMOUNTS)).filter((d) => d.startsWith(`${hold} `))).toEqual([]);
  });

  it('reports a request hold with no withdrawal, and one that took from the wrong account', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 3_000_000n);
    await fund(t, u.user.id, 3_000_000n, 'rewards');
    const orphan = randomUUID();
    const requestId = randomUUID();
    await t.ctx.db.insert(withdrawals).values({
      userId: u.user.id,
      requestId,
      source: 'balance',
      amount: 1_000_000n,
      feeAmount: 0n,
      netAmount: 1_000_000n,
      walletAddress: WALLET,
    });
    const [orphanTx, wrongTx] = await inTransaction(t.ctx.db, async (tx) => [
      await post(
        tx,
        userTransfer('withdrawal_request_hold', orphan, u.user.id, {
          from: 'balance',
          to: 'pending_withdrawal',
          amount: 1n,
        }),
      ),
      // Its withdrawal is a balance one: the money should have come from balance, not rewards.
      await post(
        tx,
        userTransfer('withdrawal_request_hold', requestId, u.user.id, {
          from: 'rewards',
          to: 'pending_withdrawal',
          amount: 1_000_000n,
        }),
      ),
    ]);
    const found = await details(HOLD_AMOUNTS);
    expect(found).toContain(`${orphanTx} ${u.user.id} balance expected=0 booked=-1`);
    expect(found).toContain(`${orphanTx} ${u.user.id} pending_withdrawal expected=0 booked=1`);
    expect(found).toContain(`${wrongTx} ${u.user.id} balance expected=-1000000 booked=0`);
    expect(found).toContain(`${wrongTx} ${u.user.id} rewards expected=0 booked=-1000000`);
  });
});
