import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { rawRows } from '../../src/db/raw.ts';
import { userBalances } from '../../src/ledger/ledger.ts';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  isPostgres,
  makeUser,
  saidError,
  type TestApp,
  type TestUser,
} from '../helpers.ts';

/**
 * Update Balance is a compare-and-set. The administrator sees 100 and sets 50; the
 * investor's Withdraw All moves the 100 first: with `expectedBalance: 100` the update is refused (409,
 * 'The balance changed to 0.00 USDC...') instead of booking +50, and the audit row holds the true
 * before and after. The spec's call without `expectedBalance` still sets the balance. On PostgreSQL,
 * parallel updates and an update racing a Withdraw All: exactly one decision per balance seen.
 */
const WALLET = '0x2222222222222222222222222222222222222222';
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

const balance = async (u: TestUser) => (await userBalances(t.ctx.db, u.user.id)).balance;
const setBalance = (u: TestUser, body: Record<string, unknown>) =>
  call(t, 'POST', '/api/admin/update-user-balance', { token: admin.token, body: { userId: u.user.id, ...body } });
const withdrawAll = (u: TestUser) =>
  call(t, 'POST', '/api/withdrawal/request-all', {
    token: u.token,
    body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
  });
const audits = (u: TestUser) =>
  rawRows<{ before: { balance: string }; after: { balance: string } }>(
    t.ctx.db,
    sql`SELECT before, after FROM audit_log WHERE action = 'balance_update' AND target_id = ${u.user.id} ORDER BY id`,
  );

describe('Update Balance with the balance the administrator saw', () => {
  it('a balance that moved in between is refused (409) and nothing is booked', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 100_000_000n);
    // The administrator reads 100; the investor withdraws everything; the administrator sets 50.
    expect((await withdrawAll(u)).statusCode).toBe(200);
    const res = await setBalance(u, { newBalance: 50, expectedBalance: 100, note: 'claw back 50' });
    expect(res.statusCode).toBe(409);
    expect(res.data).toEqual(saidError(MSG.balanceChanged(0n), 'balance_changed'));
    expect(res.data.error).toBe('The balance changed to 0.00\u00a0USDC. Review and try again.');
    expect(await balance(u)).toBe(0n);
    expect(await audits(u)).toEqual([]);
  });

  it('the balance still seen is set, and the audit row holds the true before and after', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 100_000_000n);
    const res = await setBalance(u, { newBalance: '50.000000', expectedBalance: 100 });
    expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
    expect(await balance(u)).toBe(50_000_000n);
    expect(await audits(u)).toEqual([{ before: { balance: '100000000' }, after: { balance: '50000000' } }]);
  });

  it("the spec's call without expectedBalance keeps working", async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 7_000_000n);
    const res = await setBalance(u, { newBalance: 12 });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ message: MSG.balanceUpdated });
    expect(await balance(u)).toBe(12_000_000n);
  });

  it('a malformed expectedBalance is a 400 with the spec text, nothing changed', async () => {
    const u = await makeUser(t);
    const res = await setBalance(u, { newBalance: 1, expectedBalance: -1 });
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ error: MSG.validAmount, code: 'validation' });
    expect(await balance(u)).toBe(0n);
  });

  it('a seventh decimal is refused by name, as text or as a JSON number, nothing changed', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 7_000_000n);
    for (const newBalance of ['12.1234567', 12.1234567]) {
      const res = await setBalance(u, { newBalance });
      expect(res.statusCode).toBe(400);
      expect(res.data).toMatchObject({ error: 'Amount must have at most 6 decimals', code: 'validation' });
    }
    expect(await balance(u)).toBe(7_000_000n);
  });
});

describe.runIf(isPostgres)('Update Balance races (PostgreSQL)', () => {
  it('10 administrators setting one balance they all saw: one is applied, nine get 409', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 100_000_000n);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => setBalance(u, { newBalance: 10 + i, expectedBalance: 100 })),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409 && r.data.code === 'balance_changed')).toHaveLength(9);
    const rows = await audits(u);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.before).toEqual({ balance: '100000000' });
    expect(await balance(u)).toBe(BigInt(rows[0]?.after.balance ?? -1));
  });

  it('Update Balance racing Withdraw All: either the update is refused or the withdrawal takes the new balance', async () => {
    for (let round = 0; round < 10; round++) {
      const u = await makeUser(t);
      await fund(t, u.user.id, 100_000_000n);
      const [update, withdrawal] = await Promise.all([
        setBalance(u, { newBalance: 50, expectedBalance: 100 }),
        withdrawAll(u),
      ]);
      expect(withdrawal.statusCode).toBe(200);
      expect([200, 409]).toContain(update.statusCode);
      const rows = await audits(u);
      if (update.statusCode === 409) {
        // Withdraw All came first and held the 100: nothing was booked.
        expect(rows).toEqual([]);
        expect(withdrawal.data.message).toContain('100.00');
      } else {
        // The update came first: 100 -> 50, and Withdraw All held the 50.
        expect(rows).toEqual([{ before: { balance: '100000000' }, after: { balance: '50000000' } }]);
        expect(withdrawal.data.message).toContain('50.00');
      }
      expect(await balance(u)).toBe(0n);
    }
    await expectLedgerClean(t);
  });
});
