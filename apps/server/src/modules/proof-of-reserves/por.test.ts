import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyInclusion, type InclusionProof } from '@harvest/por-verifier/merkle';
import { rawRows } from '../../db/raw.ts';
import { inTransaction } from '../../db/tx.ts';
import { postMany } from '../../ledger/ledger.ts';
import {
  call,
  createTestApp,
  fund,
  makeUser,
  sessionToken,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

const micro = (usdc: number) => BigInt(Math.round(usdc * 1e6));

/** Each user's proof, fetched as they would (their own session), and checked against the published snapshot. */
async function checkAll(t: TestApp, users: TestUser[], snapshot: { root: string; total: number }) {
  let sum = 0n;
  for (const u of users) {
    const r = await call(t, 'GET', '/api/user/proof-of-reserves/proof', { token: u.token });
    expect(r.statusCode).toBe(200);
    const proof = r.data as InclusionProof;
    const verdict = verifyInclusion(proof, { root: snapshot.root, total: micro(snapshot.total).toString() });
    expect(verdict).toMatchObject({ ok: true });
    sum += BigInt(proof.amount);
  }
  return sum;
}

describe('proof of reserves: snapshots, inclusion proofs and the public JSON', () => {
  let t: TestApp;
  let admin: TestUser;
  let users: TestUser[];
  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { isAdmin: true });
  });
  afterAll(() => t.close());

  it('with fewer than 2 users nothing is published', async () => {
    const r = await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: admin.token });
    expect(r.statusCode).toBe(409);
    expect(r.data.error).toBe('A proof of reserves needs at least 2 investors: nothing was published.');
    const latest = await call(t, 'GET', '/api/proof-of-reserves');
    expect(latest.statusCode).toBe(404);
    expect(latest.data.error).toBe('No proof of reserves has been published yet.');
  });

  it('a snapshot publishes every liability: each investor verifies their own proof, and the amounts add up to the ledger', async () => {
    users = [admin, await makeUser(t), await makeUser(t), await makeUser(t), await makeUser(t)];
    await fund(t, users[1]!.user.id, 1_234_567_891_234n);
    await fund(t, users[2]!.user.id, 25_000_000n);
    await fund(t, users[2]!.user.id, 3_500_000n, 'rewards');
    await fund(t, admin.user.id, 700_001n, 'rewards');
    // users[3] owes nothing and is still a leaf; users[4] has money held for a withdrawal.
    await fund(t, users[4]!.user.id, 50_000_000n);
    const w = await call(t, 'POST', '/api/withdrawal/request-all', {
      token: users[4]!.token,
      body: {
        walletAddress: '0x1111111111111111111111111111111111111111',
        withdrawalPassword: users[4]!.withdrawalPassword,
      },
    });
    expect(w.statusCode).toBe(200);

    const taken = await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: admin.token });
    expect(taken.statusCode).toBe(200);
    const s = taken.data;
    expect(s).toMatchObject({
      root: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      total: 1_234_567.891234 + 25 + 3.5 + 0.700001 + 50,
      // The administrator's own rewards are a leaf, not an investor.
      leaves: 5,
      investors: 4,
      blockNumber: null,
      takenAt: expect.any(String),
      reserves: { counted: 0, listed: 0 },
      coverage: 0,
      ledgerHead: { transactionId: expect.any(Number), hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });
    const solvency = await call(t, 'GET', '/api/admin/solvency', { token: admin.token });
    expect(micro(solvency.data.liabilities)).toBe(micro(s.total));
    expect(await checkAll(t, users, s)).toBe(micro(s.total));

    const mine = await call(t, 'GET', '/api/user/proof-of-reserves/proof', { token: users[1]!.token });
    expect(mine.data).toMatchObject({ snapshotId: s.id, amount: '1234567891234', total: micro(s.total).toString() });
    expect(mine.headers['cache-control']).toBe('private, no-store');
    // Only sibling hashes and sums: no other user's id or e-mail anywhere in a proof or the public answers.
    const published = JSON.stringify([
      mine.data,
      (await call(t, 'GET', '/api/proof-of-reserves')).data,
      (await call(t, 'GET', `/api/proof-of-reserves/${s.id}/reserves`)).data,
    ]);
    for (const u of users) {
      expect(published).not.toContain(u.user.id);
      expect(published).not.toContain(u.user.email);
    }
  });

  it('a proof whose amount, salt or sibling sum was altered no longer verifies, and says why', async () => {
    const s = (await call(t, 'GET', '/api/proof-of-reserves')).data;
    const proof = (await call(t, 'GET', '/api/user/proof-of-reserves/proof', { token: users[2]!.token }))
      .data as InclusionProof;
    const published = { root: s.root, total: micro(s.total).toString() };
    expect(verifyInclusion({ ...proof, amount: '29500001' }, published)).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^the path from this amount \(29\.500001 USDC\) leads to 0x[0-9a-f]{64}, not to the published root/,
      ),
    });
    const path = proof.path.map((p, i) => (i === 0 ? { ...p, sum: String(BigInt(p.sum) + 1n) } : p));
    expect(verifyInclusion({ ...proof, path }, published)).toMatchObject({
      ok: false,
      reason: /not to the published root/,
    });
    expect(verifyInclusion({ ...proof, salt: `0x${'ab'.repeat(32)}` }, published)).toMatchObject({ ok: false });
    expect(verifyInclusion({ ...proof, amount: '-1' }, published)).toEqual({
      ok: false,
      reason: 'the amount is not a decimal count of micro-USDC',
    });
    expect(verifyInclusion({ ...proof, amount: String(2n ** 64n) }, published)).toMatchObject({
      ok: false,
      reason: /does not fit in 64 bits/,
    });
    expect(verifyInclusion(proof, { ...published, total: String(BigInt(published.total) + 1n) })).toMatchObject({
      ok: false,
      reason: /not to the published total/,
    });
  });

  it('a snapshot never changes: later money is in the next one, and each proof is asked for by id', async () => {
    const first = (await call(t, 'GET', '/api/proof-of-reserves')).data;
    await fund(t, users[3]!.user.id, 10_000_000n);
    const taken = await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: admin.token });
    expect(taken.data).toMatchObject({ leaves: 5 });
    const second = taken.data;
    expect(second.total).toBe(first.total + 10);
    expect(second.root).not.toBe(first.root);
    expect((await call(t, 'GET', `/api/proof-of-reserves/${first.id}`)).data).toEqual(first);
    expect((await call(t, 'GET', '/api/proof-of-reserves')).data).toEqual(second);
    const older = await call(t, 'GET', `/api/user/proof-of-reserves/proof?id=${first.id}`, { token: users[3]!.token });
    expect(older.data.amount).toBe('0');
    const newer = await call(t, 'GET', '/api/user/proof-of-reserves/proof', { token: users[3]!.token });
    expect(newer.data.amount).toBe('10000000');
    // Different salts in each snapshot: a leaf cannot be followed from one snapshot to the next.
    expect(newer.data.salt).not.toBe(older.data.salt);
    const history = (await call(t, 'GET', '/api/proof-of-reserves/history')).data.snapshots;
    expect(history.map((h: { id: string }) => h.id)).toEqual([first.id, second.id]);
  });

  it('the back office lists every snapshot newest first, uncached; any staff role reads it, only a money role acts', async () => {
    const auditor = await makeUser(t, { role: 'auditor' });
    const support = await makeUser(t, { role: 'support' });
    const finance = await makeUser(t, { role: 'finance' });
    const list = await call(t, 'GET', '/api/admin/proof-of-reserves/snapshots', { token: auditor.token });
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('private, no-store');
    const history = (await call(t, 'GET', '/api/proof-of-reserves/history')).data.snapshots;
    expect(list.data.snapshots).toEqual([...history].reverse());
    const [newest] = list.data.snapshots;
    const reserves = await call(t, 'GET', `/api/admin/proof-of-reserves/${newest.id}/reserves`, {
      token: auditor.token,
    });
    expect(reserves.statusCode).toBe(200);
    expect(reserves.data).toMatchObject({ snapshotId: newest.id, reserves: [] });

    for (const who of [auditor, support]) {
      const take = await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: who.token });
      expect(take.statusCode).toBe(403);
      expect(take.data.code).toBe('forbidden_role');
      const sign = await call(t, 'POST', `/api/admin/proof-of-reserves/${newest.id}/signatures`, {
        token: who.token,
        body: { signatures: [] },
      });
      expect(sign.statusCode).toBe(403);
    }
    const investor = await call(t, 'GET', '/api/admin/proof-of-reserves/snapshots', { token: users[1]!.token });
    expect(investor.statusCode).toBe(403);
    const taken = await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: finance.token });
    expect(taken.statusCode).toBe(200);
    // Staff are not investors, and staff who are owed nothing are leaves of 0 like anyone else.
    expect(taken.data).toMatchObject({ leaves: newest.leaves + 3, investors: newest.investors });
  });

  it('the proof is the signed-in user’s own: none without a session, none of a snapshot taken before they joined', async () => {
    expect((await call(t, 'GET', '/api/user/proof-of-reserves/proof')).statusCode).toBe(401);
    const late = await makeUser(t);
    const r = await call(t, 'GET', '/api/user/proof-of-reserves/proof', { token: late.token });
    expect(r.statusCode).toBe(404);
    expect(r.data.error).toBe('You are not in this proof of reserves: your account was opened after it was taken.');
    const unknown = await call(t, 'GET', '/api/proof-of-reserves/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect((await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: late.token })).statusCode).toBe(
      403,
    );
  });

  it(
    'thousands of users: proofs at the edges of the stored subtrees verify, and the total is the ledger’s',
    { timeout: 180_000 },
    async () => {
      const n = 2_100;
      await t.ctx.db.execute(
        sql`INSERT INTO users (id, email, first_name, last_name, phone_country_code, phone_number, password_hash, withdrawal_password_hash, invitation_code, created_at)
          SELECT gen_random_uuid(), 'bulk' || i || '@bulk.test', 'Bulk', 'User', '+1', '5550000000', 'x', 'y', 'B' || lpad(i::text, 9, '0'), now()
          FROM generate_series(1, ${n}) AS i`,
      );
      await t.ctx.db.execute(
        sql`INSERT INTO ledger_accounts (user_id, kind) SELECT u.id, k FROM users u
          CROSS JOIN unnest(ARRAY['balance','rewards','earnings','invested','pending_withdrawal']) AS k WHERE u.email LIKE '%@bulk.test'`,
      );
      const amount = sql`(1 + abs(hashtext(t.id::text)) % 100000000000)::bigint`;
      await inTransaction(t.ctx.db, (tx) =>
        postMany(tx, {
          kind: 'test_funding',
          from: sql`users t`,
          where: sql`t.email LIKE '%@bulk.test'`,
          refId: sql`t.id`,
          legs: [
            { account: { userId: sql`t.id`, kind: 'balance' }, amount },
            { account: { platform: 'platform_deposits' }, amount: sql`-${amount}` },
          ],
        }),
      );
      const s = (await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: admin.token })).data;
      expect(s.leaves).toBe(n + users.length + 4);
      const solvency = await call(t, 'GET', '/api/admin/solvency', { token: admin.token });
      expect(micro(s.total)).toBe(micro(solvency.data.liabilities));
      const idx = [0, 1023, 1024, 2047, 2048, s.leaves - 1];
      const owners = await rawRows<{ user_id: string }>(
        t.ctx.db,
        sql`SELECT user_id::text FROM por_leaves WHERE snapshot_id = ${s.id}::uuid AND idx IN (${sql.join(idx, sql`, `)}) ORDER BY idx`,
      );
      const ids = owners.map((r) => r.user_id);
      expect(ids).toHaveLength(idx.length);
      for (const id of ids) {
        const token = await sessionToken(t, id, 0);
        const proof = (await call(t, 'GET', '/api/user/proof-of-reserves/proof', { token })).data as InclusionProof;
        expect(proof.path).toHaveLength(12);
        expect(verifyInclusion(proof, { root: s.root, total: micro(s.total).toString() })).toMatchObject({ ok: true });
      }
    },
  );
});

describe('proof of reserves: one investor beside staff', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is not published, though the tree would have 2 leaves: it would be that investor’s balance', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const investor = await makeUser(t);
    await fund(t, admin.user.id, 700_001n, 'rewards');
    await fund(t, investor.user.id, 1_234_567_000_000n);
    const r = await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: admin.token });
    expect(r.statusCode).toBe(409);
    expect(r.data.error).toBe('A proof of reserves needs at least 2 investors: nothing was published.');
    expect((await call(t, 'GET', '/api/proof-of-reserves')).statusCode).toBe(404);
    await fund(t, (await makeUser(t)).user.id, 5_000_000n);
    const ok = await call(t, 'POST', '/api/admin/proof-of-reserves/snapshots', { token: admin.token });
    expect(ok.data).toMatchObject({ leaves: 3, investors: 2, total: 1_234_567 + 5 + 0.700001 });
    expect((await call(t, 'GET', '/api/proof-of-reserves')).data).toMatchObject({ leaves: 3, investors: 2 });
  });
});
