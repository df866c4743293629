import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  isPostgres,
  makeUser,
  type TestApp,
  sessionToken,
} from '../helpers.ts';

const HASH = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const FROM = '0x3333333333333333333333333333333333333333';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('Idempotency-Key on money-moving calls', () => {
  it('a retry with the same key and body gets the first answer and moves nothing again', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const u = await makeUser(t);
    const body = { userId: u.user.id, newBalance: 25, note: 'correction' };
    const headers = { 'idempotency-key': 'balance-1' };
    const first = await call(t, 'POST', '/api/admin/update-user-balance', { token: admin.token, body, headers });
    expect(first.statusCode).toBe(200);
    // Someone else changes the balance meanwhile; the retry must not set it back.
    await fund(t, u.user.id, 5_000_000n);
    const retry = await call(t, 'POST', '/api/admin/update-user-balance', { token: admin.token, body, headers });
    expect(retry.statusCode).toBe(200);
    expect(retry.data).toEqual(first.data);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const credits = await t.ctx.db.query.deposits.findMany({
      where: (d, { eq, and }) => and(eq(d.userId, u.user.id), eq(d.type, 'admin_credit')),
    });
    expect(credits).toHaveLength(1);
    const accounts = await t.ctx.db.query.ledgerAccounts.findMany({
      where: (a, { eq, and }) => and(eq(a.userId, u.user.id), eq(a.kind, 'balance')),
    });
    expect(accounts[0]?.balance).toBe(30_000_000n);
    await expectLedgerClean(t);
  });

  it('the same key with another body is refused with 422 and changes nothing', async () => {
    const u = await makeUser(t);
    const headers = { 'idempotency-key': 'dep-1' };
    const first = await call(t, 'POST', '/api/user/process-deposit', {
      token: u.token,
      body: { txHash: HASH(1), amount: 10, fromAddress: FROM },
      headers,
    });
    expect(first.statusCode).toBe(200);
    const other = await call(t, 'POST', '/api/user/process-deposit', {
      token: u.token,
      body: { txHash: HASH(2), amount: 10, fromAddress: FROM },
      headers,
    });
    expect(other.statusCode).toBe(422);
    const rows = await t.ctx.db.query.deposits.findMany({ where: (d, { eq }) => eq(d.userId, u.user.id) });
    expect(rows).toHaveLength(1);
  });

  it('keys are scoped per user: another user may use the same key', async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const headers = { 'idempotency-key': 'shared-key' };
    expect(
      (
        await call(t, 'POST', '/api/user/process-deposit', {
          token: a.token,
          body: { txHash: HASH(11), amount: 1, fromAddress: FROM },
          headers,
        })
      ).statusCode,
    ).toBe(200);
    const res = await call(t, 'POST', '/api/user/process-deposit', {
      token: b.token,
      body: { txHash: HASH(12), amount: 1, fromAddress: FROM },
      headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keys expire after 24 hours', async () => {
    const u = await makeUser(t);
    const headers = { 'idempotency-key': 'old-key' };
    expect(
      (
        await call(t, 'POST', '/api/user/process-deposit', {
          token: u.token,
          body: { txHash: HASH(21), amount: 1, fromAddress: FROM },
          headers,
        })
      ).statusCode,
    ).toBe(200);
    t.clock.set(new Date(Date.now() + 25 * 3600_000));
    const token = await sessionToken(t, u.user.id, u.user.tokenVersion);
    const later = await call(t, 'POST', '/api/user/process-deposit', {
      token,
      body: { txHash: HASH(22), amount: 1, fromAddress: FROM },
      headers,
    });
    t.clock.set(new Date());
    expect(later.statusCode).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a malformed key', async () => {
    const u = await makeUser(t);
    const res = await call(t, 'POST', '/api/user/process-deposit', {
      token: u.token,
      body: { txHash: HASH(31), amount: 1, fromAddress: FROM },
      headers: { 'idempotency-key': 'x'.repeat(300) },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe.runIf(isPostgres)('Idempotency-Key under concurrency (PostgreSQL)', () => {
  it('parallel retries of one key: one runs, the others get 409 or the replay; money moves once', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const u = await makeUser(t);
    await fund(t, u.user.id, 1_000_000n);
    const body = { userId: u.user.id, newBalance: 7, note: 'race' };
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(t, 'POST', '/api/admin/update-user-balance', {
          token: admin.token,
          body,
          headers: { 'idempotency-key': 'race-key' },
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const txs = await t.ctx.db.query.ledgerTransactions.findMany({
      where: (x, { eq }) => eq(x.kind, 'admin_adjustment'),
    });
    const mine = txs.filter((x) => x.memo === 'race');
    expect(mine).toHaveLength(1);
    await expectLedgerClean(t);
  });
});
