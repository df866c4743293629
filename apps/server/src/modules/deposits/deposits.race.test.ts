import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  isPostgres,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { rawRows } from '../../db/raw.ts';
import { userBalances } from '../../ledger/ledger.ts';
import { MSG } from '@harvest/shared/messages';

/** Races only show on real PostgreSQL (PGlite is a single connection). */
const hash = () => `0x${randomBytes(32).toString('hex')}`;
const FROM = '0x00000000000000000000000000000000000000a1';

describe.runIf(isPostgres)('deposit races (PostgreSQL)', () => {
  let t: TestApp;
  let admin: TestUser;
  let admin2: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { isAdmin: true });
    admin2 = await makeUser(t, { isAdmin: true });
  });
  afterAll(() => t.close());

  const balance = async (u: TestUser) => (await userBalances(t.ctx.db, u.user.id)).balance;
  const submit = (u: TestUser, txHash: string, amount: number) =>
    call(t, 'POST', '/api/user/process-deposit', { token: u.token, body: { txHash, amount, fromAddress: FROM } });
  const approve = (a: TestUser, depositId: string) =>
    call(t, 'POST', '/api/admin/process-deposit', { token: a.token, body: { depositId } });

  it('20 parallel submissions of one hash by two users: one deposit, credited once', async () => {
    const [u1, u2] = [await makeUser(t), await makeUser(t)];
    const h = hash();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit(i % 2 ? u1 : u2, i % 3 ? h : h.toUpperCase().replace('0X', '0x'), 5)),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.data.error).toBe(MSG.depositHashTaken);
    const rows = await rawRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM deposits WHERE tx_hash = ${h}`,
    );
    expect(rows[0]?.n).toBe(1);

    const id: string = ok[0]?.data.deposit._id;
    const approvals = await Promise.all([approve(admin, id), approve(admin2, id), approve(admin, id)]);
    expect(approvals.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect((await balance(u1)) + (await balance(u2))).toBe(5_000_000n);
    await expectLedgerClean(t);
  });

  it('two admins approving the same deposit at once credit it once; the other gets 409', async () => {
    const u = await makeUser(t);
    for (let round = 0; round < 5; round++) {
      const res = await submit(u, hash(), 3);
      const id: string = res.data.deposit._id;
      const [a, b] = await Promise.all([approve(admin, id), approve(admin2, id)]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      expect((a.statusCode === 409 ? a : b).data.error).toBe(MSG.depositAlreadyProcessed);
      const txns = await rawRows<{ n: number }>(
        t.ctx.db,
        sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'deposit' AND ref_id = ${id}`,
      );
      expect(txns[0]?.n).toBe(1);
    }
    expect(await balance(u)).toBe(15_000_000n);
    await expectLedgerClean(t);
  });

  it('an admin balance update racing a deposit approval loses nothing (the result of one serial order)', async () => {
    for (let round = 0; round < 8; round++) {
      const u = await makeUser(t);
      await fund(t, u.user.id, 10_000_000n);
      const res = await submit(u, hash(), 5);
      const id: string = res.data.deposit._id;
      const [ap, up] = await Promise.all([
        approve(admin, id),
        call(t, 'POST', '/api/admin/update-user-balance', {
          token: admin2.token,
          body: { userId: u.user.id, newBalance: 20, note: `race ${round}` },
        }),
      ]);
      expect(ap.statusCode).toBe(200);
      expect(up.statusCode).toBe(200);
      const order = await rawRows<{ kind: string }>(
        t.ctx.db,
        sql`SELECT t.kind FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
          WHERE a.user_id = ${u.user.id}::uuid AND t.kind IN ('deposit', 'admin_adjustment') ORDER BY t.id`,
      );
      const kinds = order.map((o) => o.kind);
      // Approval first: 10 + 5 = 15, then set to 20. Update first: set to 20, then + 5 = 25.
      const expected = kinds[0] === 'deposit' ? 20_000_000n : 25_000_000n;
      expect(kinds).toHaveLength(2);
      expect(await balance(u)).toBe(expected);
      await expectLedgerClean(t);
    }
  });

  it('a reject racing an approval (and another reject): one decision wins, the rest get 409, one e-mail', async () => {
    const u = await makeUser(t);
    let credited = 0n;
    for (let round = 0; round < 8; round++) {
      const res = await submit(u, hash(), 2);
      const id: string = res.data.deposit._id;
      const rejectIt = (a: TestUser) =>
        call(t, 'POST', '/api/admin/reject-deposit', { token: a.token, body: { depositId: id, reason: `r${round}` } });
      const results = await Promise.all(
        round % 2 ? [approve(admin, id), rejectIt(admin2), rejectIt(admin)] : [rejectIt(admin2), approve(admin, id)],
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(results.length - 1);
      const [row] = await rawRows<{ status: string; credits: number; mails: number }>(
        t.ctx.db,
        sql`SELECT d.status,
              (SELECT count(*)::int FROM ledger_transactions WHERE kind = 'deposit' AND ref_id = ${id}) AS credits,
              (SELECT count(*)::int FROM mail_outbox WHERE user_id = ${u.user.id}::uuid AND created_at >= d.created_at
                 AND kind IN ('deposit_confirmed', 'deposit_failed') AND text_body LIKE ${`%${res.data.deposit.txHash}%`}) AS mails
            FROM deposits d WHERE d.id = ${id}::uuid`,
      );
      expect(row?.credits).toBe(row?.status === 'confirmed' ? 1 : 0);
      expect(row?.status).toMatch(/^(confirmed|failed)$/);
      expect(row?.mails).toBe(1);
      if (row?.status === 'confirmed') credited += 2_000_000n;
    }
    expect(await balance(u)).toBe(credited);
    await expectLedgerClean(t);
  });
});
