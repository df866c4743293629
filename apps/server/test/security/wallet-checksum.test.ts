import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { rawRows } from '../../src/db/raw.ts';
import { userBalances } from '../../src/ledger/ledger.ts';
import { call, createTestApp, expectLedgerClean, fund, makeUser, type TestApp } from '../helpers.ts';

/**
 * A mixed-case address is an EIP-55 checksummed one, and its checksum must match: one letter's case
 * flipped (a typo) would pass review and be submitted. It is refused with 'This address has a
 * typo: its checksum does not match' and nothing moves; the right checksum, all lower case and all upper
 * case are accepted.
 */
const RIGHT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** The typo: the last letter's case flipped. */
const TYPO = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
const ONE_FLIP = '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

describe('EIP-55 checksums of wallet addresses', () => {
  it('Withdraw All to a mistyped mixed-case address is refused and nothing moves', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 25_000_000n);
    for (const wallet of [TYPO, ONE_FLIP]) {
      const res = await call(t, 'POST', '/api/withdrawal/request-all', {
        token: u.token,
        body: { walletAddress: wallet, withdrawalPassword: u.withdrawalPassword },
      });
      expect(res.statusCode, wallet).toBe(400);
      expect(res.data).toEqual({ error: MSG.walletChecksum, code: 'validation' });
      expect(res.data.error).toBe('This address has a typo: its checksum does not match');
    }
    expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(25_000_000n);
    const rows = await rawRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM withdrawals WHERE user_id = ${u.user.id}::uuid`,
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('a deposit claim or correction from a mistyped mixed-case sender is refused and nothing is recorded', async () => {
    const u = await makeUser(t);
    const hash = `0x${'ab'.repeat(32)}`;
    const claim = await call(t, 'POST', '/api/user/process-deposit', {
      token: u.token,
      body: { txHash: hash, amount: '10', fromAddress: TYPO },
    });
    expect(claim.statusCode).toBe(400);
    expect(claim.data).toEqual({ error: MSG.walletChecksum, code: 'validation' });
    const correction = await call(t, 'POST', '/api/withdrawal/update-failed-deposit', {
      token: u.token,
      body: { depositId: '00000000-0000-4000-8000-000000000000', txHash: hash, amount: '10', fromAddress: ONE_FLIP },
    });
    expect(correction.statusCode).toBe(400);
    expect(correction.data).toEqual({ error: MSG.walletChecksum, code: 'validation' });
    const rows = await rawRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM deposits WHERE user_id = ${u.user.id}::uuid`,
    );
    expect(rows[0]?.n).toBe(0);
    // The right checksum is taken as the sender, saved lower case.
    const right = await call(t, 'POST', '/api/user/process-deposit', {
      token: u.token,
      body: { txHash: hash, amount: '10', fromAddress: RIGHT },
    });
    expect(right.statusCode, JSON.stringify(right.data)).toBe(200);
  });

  it('the right checksum, all lower case and all upper case are accepted (saved lower case)', async () => {
    for (const wallet of [RIGHT, RIGHT.toLowerCase(), `0x${RIGHT.slice(2).toUpperCase()}`]) {
      const u = await makeUser(t);
      await fund(t, u.user.id, 1_000_000n);
      const res = await call(t, 'POST', '/api/withdrawal/request-all', {
        token: u.token,
        body: { walletAddress: wallet, withdrawalPassword: u.withdrawalPassword },
      });
      expect(res.statusCode, `${wallet} ${JSON.stringify(res.data)}`).toBe(200);
      const me = await call(t, 'GET', '/api/user/me', { token: u.token });
      expect(me.data.user.withdrawalWallet).toBe(RIGHT.toLowerCase());
    }
  });
});
