import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawRows } from '../../src/db/raw.ts';
import { call, createTestApp, makeUser, signupBody, uniqueEmail, type TestApp, type TestUser } from '../helpers.ts';
import { signIn, withdrawAll, OWN_WALLET } from '../account/support.ts';

/**
 * Every row time the server writes comes from its injected clock, never from the database's now(): with the
 * clock in 2031, a signup, a sign-in, a deposit an administrator credits and a withdrawal are all stamped 2031.
 */
let t: TestApp;
let admin: TestUser;
const AT = new Date('2031-03-04T05:06:07Z');

beforeAll(async () => {
  t = await createTestApp({ JWT_TTL_SECONDS: String(7 * 24 * 3600) });
  t.clock.set(AT);
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

const in2031 = (iso: unknown) => expect(String(iso).slice(0, 4)).toBe('2031');

it('a signup, a session, a deposit, a withdrawal and their audit rows carry the clock’s time, not the database’s', async () => {
  const email = uniqueEmail('clock');
  expect((await call(t, 'POST', '/api/send-code', { body: { email } })).statusCode).toBe(200);
  const reg = await call(t, 'POST', '/api/register', {
    body: signupBody({ invitationCode: admin.user.invitationCode, email, verificationCode: t.smtp.codeFor(email) }),
  });
  expect(reg.statusCode, JSON.stringify(reg.data)).toBe(200);
  const token: string = (await signIn(t, { user: { email }, password: 'secret-pass' })).data.token;
  const u = { token, withdrawalPassword: 'withdraw-pass' } as TestUser;
  in2031((await call(t, 'GET', '/api/user/me', { token })).data.user.createdAt);
  for (const s of (await call(t, 'GET', '/api/user/sessions', { token })).data.sessions) in2031(s.createdAt);

  const claim = await call(t, 'POST', '/api/user/process-deposit', {
    token,
    body: { txHash: `0x${randomBytes(32).toString('hex')}`, amount: 150, fromAddress: OWN_WALLET },
  });
  expect(claim.statusCode, JSON.stringify(claim.data)).toBe(200);
  const credited = await call(t, 'POST', '/api/admin/process-deposit', {
    token: admin.token,
    body: { depositId: claim.data.deposit._id },
  });
  expect(credited.statusCode, JSON.stringify(credited.data)).toBe(200);
  in2031(credited.data.deposit.createdAt);
  in2031(credited.data.deposit.processedAt);

  const w = await withdrawAll(t, u, OWN_WALLET);
  expect(w.statusCode, JSON.stringify(w.data)).toBe(200);
  const mine = (await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token })).data.withdrawals;
  expect(mine.length).toBeGreaterThan(0);
  for (const x of mine) in2031(x.requestedAt ?? x.createdAt);
  const audit = (await call(t, 'GET', '/api/admin/audit', { token: admin.token })).data.entries;
  expect(audit.length).toBeGreaterThan(0);
  for (const e of audit) in2031(e.createdAt);

  // And every time column of every row, whichever path wrote it.
  const columns = await rawRows<{ table_name: string; column_name: string }>(
    t.ctx.db,
    sql`SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type LIKE 'timestamp%'`,
  );
  expect(columns.length).toBeGreaterThan(20);
  const early: string[] = [];
  for (const c of columns) {
    const [row] = await rawRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(c.table_name)} WHERE ${sql.identifier(c.column_name)} < ${AT.toISOString()}::timestamptz`,
    );
    if (Number(row?.n) > 0) early.push(`${c.table_name}.${c.column_name}`);
  }
  expect(early).toEqual([]);
});
