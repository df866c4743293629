import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MSG } from '@harvest/shared/messages';
import { rawRows } from '../../db/raw.ts';
import { userBalances } from '../../ledger/ledger.ts';
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
} from '../../../test/helpers.ts';
import { WALLET } from '../../../test/support/money.ts';

/** Races only show on a real PostgreSQL server (PGlite is one connection). */
describe.runIf(isPostgres)('four-eyes races on PostgreSQL', () => {
  let t: TestApp;
  let proposer: TestUser;
  const approvers: TestUser[] = [];
  beforeAll(async () => {
    t = await createTestApp({ FOUR_EYES: 'on' });
    proposer = await makeUser(t, { role: 'finance' });
    for (let i = 0; i < 4; i++) approvers.push(await makeUser(t, { role: i % 2 ? 'owner' : 'finance' }));
  });
  afterAll(() => t.close());

  const propose = async (userId: string, newBalance: number) => {
    const res = await call(t, 'POST', '/api/admin/update-user-balance', {
      token: proposer.token,
      body: { userId, newBalance, note: 'Correction' },
    });
    expect(res.statusCode).toBe(202);
    return String(res.data.proposalId);
  };
  const approve = (by: TestUser, id: string) =>
    call(t, 'POST', `/api/admin/proposals/${id}/approve`, { token: by.token });

  it('approvals of one proposal at the same instant (also twice by each approver) have one effect', async () => {
    const investor = await makeUser(t);
    await fund(t, investor.user.id, 1_000_000_000n);
    const id = await propose(investor.user.id, 1_234_567.5);
    const results = await Promise.all([...approvers, ...approvers].map((a) => approve(a, id)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200))
      expect(r.data).toEqual({ error: MSG.proposalDecided, code: 'proposal_closed' });
    expect((await userBalances(t.ctx.db, investor.user.id)).balance).toBe(1_234_567_500_000n);
    const adjustments = await rawRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM balance_adjustments WHERE user_id = ${investor.user.id}`,
    );
    expect(adjustments[0]?.n).toBe(1);
    await expectLedgerClean(t);
  });

  it('an approval racing a Withdraw All: whichever comes second finds the premise changed, nothing moves twice', async () => {
    const investor = await makeUser(t);
    await fund(t, investor.user.id, 50_000_000n);
    const id = await propose(investor.user.id, 80);
    const [approval, withdrawal] = await Promise.all([
      approve(approvers[0]!, id),
      call(t, 'POST', '/api/withdrawal/request-all', {
        token: investor.token,
        body: { walletAddress: WALLET, withdrawalPassword: investor.withdrawalPassword },
      }),
    ]);
    expect(withdrawal.statusCode).toBe(200);
    const b = await userBalances(t.ctx.db, investor.user.id);
    if (approval.statusCode === 200) {
      // The approval came first: the balance was set to 80, then Withdraw All held all of it.
      expect(b).toMatchObject({ balance: 0n, pending_withdrawal: 80_000_000n });
    } else {
      // Withdraw All came first: the balance the proposal showed (50) is gone, so it is refused and says why.
      expect(approval.data).toEqual(saidError(MSG.balanceChanged(0n), 'balance_changed'));
      expect(b).toMatchObject({ balance: 0n, pending_withdrawal: 50_000_000n });
    }
    await expectLedgerClean(t);
  });

  it("two approvals that demote each other's approver or proposer at the same instant: one takes effect", async () => {
    const [a, b, c] = [
      await makeUser(t, { role: 'owner' }),
      await makeUser(t, { role: 'owner' }),
      await makeUser(t, { role: 'owner' }),
    ];
    const demote = async (by: TestUser, who: TestUser) => {
      const res = await call(t, 'PUT', `/api/admin/staff/${who.user.id}/role`, {
        token: by.token,
        body: { role: 'auditor' },
      });
      expect(res.statusCode).toBe(202);
      return String(res.data.proposalId);
    };
    const demoteB = await demote(a, b);
    const demoteA = await demote(c, a);
    // In either order the second is refused: B demoted cannot approve; A demoted no longer counts as proposer.
    const results = await Promise.all([approve(c, demoteB), approve(b, demoteA)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, results[0]!.statusCode === 200 ? 403 : 409].sort());
    const roles = await rawRows<{ role: string }>(
      t.ctx.db,
      sql`SELECT role FROM users WHERE id IN (${a.user.id}, ${b.user.id}) ORDER BY role`,
    );
    expect(roles.map((r) => r.role)).toEqual(['auditor', 'owner']);
  });

  it('two owners demoting each other at the same instant (four-eyes off) leave one owner', async () => {
    const off = await createTestApp();
    try {
      const a = await makeUser(off, { role: 'owner' });
      const b = await makeUser(off, { role: 'owner' });
      // Only these two are owners of this platform.
      const [ra, rb] = await Promise.all([
        call(off, 'PUT', `/api/admin/staff/${b.user.id}/role`, { token: a.token, body: { role: 'auditor' } }),
        call(off, 'PUT', `/api/admin/staff/${a.user.id}/role`, { token: b.token, body: { role: 'auditor' } }),
      ]);
      const codes = [ra, rb].map((r) => r.statusCode).sort();
      expect(codes[0]).toBe(200);
      expect([403, 409]).toContain(codes[1]);
      const owners = await rawRows<{ n: number }>(
        off.ctx.db,
        sql`SELECT count(*)::int AS n FROM users WHERE role = 'owner'`,
      );
      expect(owners[0]?.n).toBe(1);
      // With a third owner the last-owner rule does not decide: the second of the two finds its owner demoted.
      const c = await makeUser(off, { role: 'owner' });
      const d = await makeUser(off, { role: 'owner' });
      const [rc, rd] = await Promise.all([
        call(off, 'PUT', `/api/admin/staff/${d.user.id}/role`, { token: c.token, body: { role: 'auditor' } }),
        call(off, 'PUT', `/api/admin/staff/${c.user.id}/role`, { token: d.token, body: { role: 'auditor' } }),
      ]);
      expect([rc.statusCode, rd.statusCode].sort()).toEqual([200, 403]);
      expect([rc, rd].find((r) => r.statusCode === 403)?.data).toEqual({
        error: MSG.forbiddenRole,
        code: 'forbidden_role',
      });
    } finally {
      await off.close();
    }
  });
});
