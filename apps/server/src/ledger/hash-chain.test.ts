import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, createTestApp, fund, makeUser, type TestApp, type TestUser } from '../../test/helpers.ts';
import { rawRows } from '../db/raw.ts';
import { checkLedger } from './check.ts';
import { extendChain } from './hash-chain.ts';

/**
 * The ledger's hash chain: extended after commit over every transaction in id order, and `ledger:check` (checkLedger)
 * names the first historic transaction that was edited, deleted or slipped in, and a snapshot whose published head
 * the chain no longer has.
 */
describe('the ledger hash chain', () => {
  let t: TestApp;
  let users: TestUser[];
  let ids: number[];
  beforeEach(async () => {
    t = await createTestApp();
    users = [await makeUser(t, { isAdmin: true }), await makeUser(t), await makeUser(t)];
    for (const [i, u] of users.entries()) await fund(t, u.user.id, BigInt(i + 1) * 1_000_000n);
    await fund(t, users[1]!.user.id, 2_500_000n, 'rewards');
    ids = (await rawRows<{ id: number }>(t.ctx.db, sql`SELECT id::int FROM ledger_transactions ORDER BY id`)).map(
      (r) => r.id,
    );
    expect(await extendChain(t.ctx.db)).toMatchObject({ headId: ids[ids.length - 1] });
  });
  afterEach(() => t.close());

  /** What someone with the database's superuser rights can do: step past the append-only guards, change history. */
  const tamper = async (statement: ReturnType<typeof sql>) => {
    await t.ctx.db.execute(sql`SET session_replication_role = replica`);
    await t.ctx.db.execute(statement);
    await t.ctx.db.execute(sql`SET session_replication_role = DEFAULT`);
  };

  const chainRule = async () =>
    (await checkLedger(t.ctx.db)).filter((v) => v.rule.startsWith('the hash chain') || v.rule.includes('snapshot'));

  it('a clean ledger matches its chain, and new transactions are chained after a rolled-back id once it is settled', async () => {
    expect(await checkLedger(t.ctx.db)).toEqual([]);
    // An id taken by a transaction that rolled back is a gap the chain must step over, not wait at forever.
    await t.ctx.db.execute(sql`SELECT nextval(pg_get_serial_sequence('ledger_transactions', 'id'))`);
    await fund(t, users[2]!.user.id, 4_000_000n);
    // The gap settles once every transaction running when it was seen has ended; on a shared PostgreSQL cluster
    // that includes other test files' transactions, so wait for the condition rather than count calls.
    await vi.waitFor(async () => expect((await extendChain(t.ctx.db)).headId).toBe(ids[ids.length - 1]! + 2), {
      timeout: 20_000,
      interval: 50,
    });
    expect(await checkLedger(t.ctx.db)).toEqual([]);
  });

  it('finds the first historic transaction whose entry was edited', async () => {
    const target = ids[1]!;
    await tamper(sql`UPDATE ledger_entries SET amount = amount * 2 WHERE transaction_id = ${target}`);
    expect(await chainRule()).toEqual([
      {
        rule: 'the hash chain over the ledger transactions still matches them (the first that differs)',
        detail: `transaction ${target}: its entries, kind or reference no longer hash to its link (edited)`,
      },
    ]);
  });

  it('finds a deleted historic transaction, with its link or without', async () => {
    const target = ids[2]!;
    await tamper(sql`DELETE FROM ledger_entries WHERE transaction_id = ${target}`);
    await tamper(sql`DELETE FROM ledger_transactions WHERE id = ${target}`);
    expect((await chainRule())[0]?.detail).toBe(
      `transaction ${target}: it is in the chain but no longer in the ledger (deleted)`,
    );
    // Its link deleted too: the next transaction no longer follows from the one before.
    await t.ctx.db.execute(sql`DELETE FROM ledger_chain WHERE transaction_id = ${target}`);
    expect((await chainRule())[0]?.detail).toBe(
      `transaction ${ids[3]}: its entries, kind or reference no longer hash to its link (edited)`,
    );
  });

  it('a chain rebuilt after an edit matches itself, but not the head a snapshot published', async () => {
    const s = await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: users[0]!.token });
    expect(s.data.ledgerHead).toMatchObject({ transactionId: ids[ids.length - 1] });
    await tamper(sql`UPDATE ledger_transactions SET ref_id = 'rewritten' WHERE id = ${ids[0]!}`);
    await t.ctx.db.execute(sql`DELETE FROM ledger_chain`);
    await t.ctx.db.execute(sql`DELETE FROM ledger_chain_state`);
    await extendChain(t.ctx.db);
    expect(await chainRule()).toEqual([
      {
        rule: "every published snapshot's ledger head is still the chain's link",
        detail: expect.stringContaining(`snapshot ${s.data.id} published ${s.data.ledgerHead.hash}`),
      },
    ]);
  });
});
