import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '../../src/db/raw.ts';
import { call, createTestApp, fund, makeUser, type TestApp } from '../helpers.ts';

/**
 * The stored Idempotency-Key fingerprint of a Withdraw All is not an unsalted SHA-256 of the
 * body, which holds the withdrawal password: anyone who reads the table (a
 * backup, a replica, a SQL injection elsewhere) could test guesses offline at full speed.
 */
const WALLET = '0x2222222222222222222222222222222222222222';
const ROUTE = '/api/withdrawal/request-all';

/** Every way the old fingerprint could have been formed from a guess, as an attacker would try. */
function candidates(body: Record<string, unknown>): string[] {
  const sorted = `{${Object.keys(body)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(body[k])}`)
    .join(',')}}`;
  const texts = [sorted, JSON.stringify(body), `POST ${ROUTE}\n${sorted}`, `POST ${ROUTE}\n${JSON.stringify(body)}`];
  return texts.map((x) => createHash('sha256').update(x).digest('hex'));
}

describe('idempotency fingerprints hold no secret', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the stored fingerprint cannot be matched by guessing the withdrawal password, and no row holds it', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 7_000_000n);
    const body = { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword };
    const res = await call(t, 'POST', ROUTE, { token: u.token, body, headers: { 'idempotency-key': 'k-right' } });
    expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
    const wrong = await call(t, 'POST', ROUTE, {
      token: u.token,
      body: { walletAddress: WALLET, withdrawalPassword: 'not-the-one-9' },
      headers: { 'idempotency-key': 'k-wrong' },
    });
    expect(wrong.statusCode).toBe(400);

    const rows = await rawRows<{ key: string; request_hash: string; row: string }>(
      t.ctx.db,
      sql`SELECT key, request_hash, row_to_json(k)::text AS row FROM idempotency_keys k WHERE user_id = ${u.user.id}::uuid ORDER BY key`,
    );
    expect(rows.map((r) => r.key)).toEqual(['k-right', 'k-wrong']);
    // An offline guesser with the right password in the list finds no match.
    const guesses = [u.withdrawalPassword, 'not-the-one-9', 'password', '123456'];
    for (const guess of guesses)
      for (const h of candidates({ walletAddress: WALLET, withdrawalPassword: guess }))
        for (const r of rows) expect(r.request_hash).not.toBe(h);
    // The password is not an input of the fingerprint at all: both requests have the same one.
    expect(rows[0]?.request_hash).toBe(rows[1]?.request_hash);
    // Nothing stored (fingerprint, answer) contains either password.
    for (const r of rows) {
      expect(r.row).not.toContain(u.withdrawalPassword);
      expect(r.row).not.toContain('not-the-one-9');
    }
  });

  it('the fingerprint is keyed by the server secret: another server computes another one', async () => {
    const other = await createTestApp({ JWT_SECRET: 'a-different-Secret-for-this-server-8c1f07e2d94b' });
    try {
      const fingerprints: string[] = [];
      for (const app of [t, other]) {
        const u = await makeUser(app, { email: 'same-person@example.com' });
        await fund(app, u.user.id, 7_000_000n);
        await call(app, 'POST', ROUTE, {
          token: u.token,
          body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
          headers: { 'idempotency-key': 'same-key' },
        });
        const [row] = await rawRows<{ h: string }>(
          app.ctx.db,
          sql`SELECT request_hash AS h FROM idempotency_keys WHERE user_id = ${u.user.id}::uuid`,
        );
        fingerprints.push(row?.h ?? '');
      }
      expect(fingerprints[0]).toMatch(/^[0-9a-f]{64}$/);
      expect(fingerprints[0]).not.toBe(fingerprints[1]);
    } finally {
      await other.close();
    }
  });
});
