import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectLedgerClean, fund, makeUser, type TestApp, type TestUser } from '../../test/helpers.ts';
import { rawRows } from '../db/raw.ts';
import { inTransaction } from '../db/tx.ts';
import { lockUserAccounts, post, postMany, userBalances, userTransfer, type PostInput } from './ledger.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const counts = async () =>
  (
    await rawRows<{ txs: number; entries: number }>(
      t.ctx.db,
      sql`SELECT (SELECT count(*) FROM ledger_transactions)::int AS txs, (SELECT count(*) FROM ledger_entries)::int AS entries`,
    )
  )[0];

const reward = (userId: string, amount: bigint): PostInput =>
  userTransfer('test_funding', randomUUID(), userId, { from: 'platform_reward_expense', to: 'rewards', amount });
const balanceOf = async (u: TestUser, kind: 'balance' | 'rewards' = 'balance') =>
  (await userBalances(t.ctx.db, u.user.id))[kind];
/** A new user with `micro` in `balance`. */
async function funded(micro: bigint): Promise<TestUser> {
  const u = await makeUser(t);
  await fund(t, u.user.id, micro);
  return u;
}

describe('the ledger takes a transaction, never the database', () => {
  it('does not compile with the database handle (money moves only inside a transaction)', async () => {
    const u = await makeUser(t);
    const input = reward(u.user.id, 1n);
    // Only the type checker runs these lines: each must fail to compile.
    const typeOnly = (run: boolean) => {
      if (!run) return;
      // @ts-expect-error post takes a transaction (Tx), not Db
      void post(t.ctx.db, input);
      // @ts-expect-error postMany takes a transaction (Tx), not Db
      void postMany(t.ctx.db, [input]);
      // @ts-expect-error lockUserAccounts takes a transaction (Tx), not Db
      void lockUserAccounts(t.ctx.db, [u.user.id]);
    };
    typeOnly(false);
    expect(await inTransaction(t.ctx.db, (tx) => post(tx, input))).toBeGreaterThan(0);
    expect(await balanceOf(u, 'rewards')).toBe(1n);
  });
});

describe('postMany with objects', () => {
  it('posts every transaction, returns their ids in input order and updates the cached balances once', async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const inputs = [reward(a.user.id, 5n), reward(b.user.id, 7n), reward(a.user.id, 11n)];
    const ids = await inTransaction(t.ctx.db, (tx) => postMany(tx, inputs));
    const rows = await rawRows<{ id: number | string; ref_id: string }>(
      t.ctx.db,
      sql`SELECT id, ref_id FROM ledger_transactions WHERE id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    expect(ids.map((id) => rows.find((r) => Number(r.id) === id)?.ref_id)).toEqual(inputs.map((i) => i.refId));
    expect([await balanceOf(a, 'rewards'), await balanceOf(b, 'rewards')]).toEqual([16n, 7n]);
    await expectLedgerClean(t);
  });

  it('refuses the whole batch when one user account would go negative, and writes nothing', async () => {
    const u = await funded(10n);
    const before = await counts();
    const spend = (amount: bigint): PostInput => ({
      ...userTransfer('test_funding', randomUUID(), u.user.id, { from: 'balance', to: 'platform_payouts', amount }),
      insufficientMessage: 'Not enough',
    });
    await expect(inTransaction(t.ctx.db, (tx) => postMany(tx, [spend(6n), spend(5n)]))).rejects.toMatchObject({
      code: 'insufficient_funds',
      message: 'Not enough',
    });
    expect(await counts()).toEqual(before);
    expect(await balanceOf(u)).toBe(10n);
  });

  it('books a business row once: the same (kind, refId) twice is a conflict', async () => {
    const u = await makeUser(t);
    const one = reward(u.user.id, 3n);
    await expect(inTransaction(t.ctx.db, (tx) => postMany(tx, [one, { ...one }]))).rejects.toMatchObject({
      code: 'conflict',
    });
    await inTransaction(t.ctx.db, (tx) => post(tx, one));
    await expect(inTransaction(t.ctx.db, (tx) => post(tx, one))).rejects.toMatchObject({ code: 'conflict' });
    expect(await balanceOf(u, 'rewards')).toBe(3n);
  });
});

describe('postMany with a set of business rows (SQL)', () => {
  /** Payout-like rows: the user pays `amount`, of which `fee` is the platform's fee (0 for some). */
  async function table(rows: { userId: string; amount: bigint; fee: bigint }[]) {
    const name = `t_${randomUUID().replace(/-/g, '')}`;
    await t.ctx.db.execute(
      sql.raw(`CREATE TABLE ${name} (id uuid PRIMARY KEY, user_id uuid, amount bigint, fee bigint, at timestamptz)`),
    );
    for (const r of rows)
      await t.ctx.db.execute(
        sql`INSERT INTO ${sql.identifier(name)} VALUES (${randomUUID()}, ${r.userId}, ${r.amount}, ${r.fee}, '2026-01-02T03:04:05Z')`,
      );
    return sql.identifier(name);
  }
  const payouts = (from: ReturnType<typeof sql.identifier>) => ({
    kind: 'test_funding' as const,
    from: sql`${from} p`,
    refId: sql`p.id`,
    createdAt: sql`p.at`,
    memo: sql`'payout'`,
    legs: [
      { account: { userId: sql`p.user_id`, kind: 'balance' as const }, amount: sql`-p.amount` },
      { account: { platform: 'platform_payouts' as const }, amount: sql`p.amount - p.fee` },
      { account: { platform: 'platform_fees' as const }, amount: sql`p.fee` },
    ],
  });

  it('posts one transaction per row with its time and memo, leaves zero legs out, and keeps the books exact', async () => {
    const [a, b] = [await funded(100n), await funded(100n)];
    const from = await table([
      { userId: a.user.id, amount: 40n, fee: 6n },
      { userId: a.user.id, amount: 10n, fee: 0n },
      { userId: b.user.id, amount: 100n, fee: 15n },
    ]);
    const before = await counts();
    expect(await inTransaction(t.ctx.db, (tx) => postMany(tx, payouts(from)))).toBe(3);
    expect(await counts()).toEqual({ txs: (before?.txs ?? 0) + 3, entries: (before?.entries ?? 0) + 8 });
    const posted = await rawRows<{ memo: string; at: string }>(
      t.ctx.db,
      sql`SELECT memo, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS at FROM ledger_transactions
          WHERE ref_id IN (SELECT id::text FROM ${from})`,
    );
    expect(posted).toEqual(Array.from({ length: 3 }, () => ({ memo: 'payout', at: '2026-01-02T03:04:05' })));
    expect([await balanceOf(a), await balanceOf(b)]).toEqual([50n, 0n]);
    await expectLedgerClean(t);
  });

  it('refuses a set that would take a user account below zero, and writes nothing', async () => {
    const u = await funded(30n);
    const from = await table([
      { userId: u.user.id, amount: 20n, fee: 0n },
      { userId: u.user.id, amount: 20n, fee: 0n },
    ]);
    const before = await counts();
    await expect(
      inTransaction(t.ctx.db, (tx) => postMany(tx, { ...payouts(from), insufficientMessage: 'Short' })),
    ).rejects.toMatchObject({ code: 'insufficient_funds', message: 'Short' });
    expect(await counts()).toEqual(before);
    expect(await balanceOf(u)).toBe(30n);
  });

  it('refuses legs that do not sum to zero, and a source that repeats a business row', async () => {
    const u = await funded(100n);
    const from = await table([{ userId: u.user.id, amount: 10n, fee: 1n }]);
    const before = await counts();
    const unbalanced = { ...payouts(from), legs: payouts(from).legs.slice(0, 2) };
    await expect(inTransaction(t.ctx.db, (tx) => postMany(tx, unbalanced))).rejects.toThrow(/not balanced/);
    // A join that yields the row twice would book its money twice.
    const doubled = { ...payouts(from), from: sql`${from} p CROSS JOIN generate_series(1, 2) AS twice` };
    await expect(inTransaction(t.ctx.db, (tx) => postMany(tx, doubled))).rejects.toThrow(/not balanced/);
    expect(await counts()).toEqual(before);
    expect(await balanceOf(u)).toBe(100n);
  });

  it('books a business row once, also as a set', async () => {
    const u = await funded(100n);
    const from = await table([{ userId: u.user.id, amount: 10n, fee: 1n }]);
    await inTransaction(t.ctx.db, (tx) => postMany(tx, payouts(from)));
    await expect(inTransaction(t.ctx.db, (tx) => postMany(tx, payouts(from)))).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await balanceOf(u)).toBe(90n);
    await expectLedgerClean(t);
  });
});
