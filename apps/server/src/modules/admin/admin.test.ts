import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  call,
  createTestApp,
  csvLines,
  expectLedgerClean,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { rawRows } from '../../db/raw.ts';
import { csvCell, csvStream } from '../../lib/csv.ts';
import { depositBatch } from './exports.queries.ts';
import {
  seedCycleEarning,
  seedDeposit,
  seedInvestment,
  seedTier,
  seedWithdrawal,
  setCreatedAt,
} from '../../../test/support/money.ts';
import { MSG } from '@harvest/shared/messages';

const M = (usdc: number) => BigInt(Math.round(usdc * 1_000_000));

let t: TestApp;
let admin: TestUser;
let ada: TestUser; // referrer of bob
let bob: TestUser; // referrer of cy
let cy: TestUser; // referrer of dee
let dee: TestUser;
let evil: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t, { isAdmin: true });
  ada = await makeUser(t, { firstName: 'Ada', lastName: 'Lovelace' });
  bob = await makeUser(t, { firstName: 'Bob', lastName: 'Builder', referrerId: ada.user.id });
  cy = await makeUser(t, { firstName: 'Cy', lastName: 'Young', referrerId: bob.user.id });
  dee = await makeUser(t, { firstName: 'Dee', lastName: '100%_Done', referrerId: cy.user.id });
  evil = await makeUser(t, { firstName: '=HYPERLINK("http://x")', lastName: 'Smith, "Jr"' });
  // Distinct, ordered creation times (newest first in lists).
  const base = Date.parse('2026-10-01T00:00:00Z');
  for (const [i, u] of [admin, ada, bob, cy, dee, evil].entries())
    await setCreatedAt(t, u.user.id, new Date(base + i * 3_600_000));

  // Dee: deposits 500 (confirmed) + 3 pending + 4 failed; invests 100 (rewards 10/3/1 to cy/bob/ada); earns 1.5.
  await seedDeposit(t, dee.user.id, { amount: M(500), at: '2026-10-02T00:00:00Z' });
  await seedDeposit(t, dee.user.id, { amount: M(3), status: 'pending', at: '2026-10-03T00:00:00Z' });
  await seedDeposit(t, dee.user.id, { amount: M(4), status: 'failed', at: '2026-10-04T00:00:00Z' });
  const tier = await seedTier(t, { amount: M(100), rateScaled: 15000 });
  const inv = await seedInvestment(t, dee.user.id, tier, { referrers: [cy.user.id, bob.user.id, ada.user.id] });
  await seedCycleEarning(t, dee.user.id, inv, M(1.5), 1);
  // Bob: deposits 20, withdraws 5 (pending).
  await seedDeposit(t, bob.user.id, { amount: M(20), at: '2026-10-05T00:00:00Z' });
  await seedWithdrawal(t, bob.user.id, { amount: M(5), at: '2026-10-06T00:00:00Z' });
  // Evil: a deposit whose note would be a spreadsheet formula.
  await seedDeposit(t, evil.user.id, { amount: M(1), at: '2026-10-07T00:00:00Z', note: '=1+2' });
});
afterAll(() => t.close());

const asAdmin = (url: string) => call(t, 'GET', url, { token: admin.token });

describe('GET /api/admin/dashboard', () => {
  it('totals match the seeded rows and the ledger; recent activity is newest first with users populated', async () => {
    const res = await asAdmin('/api/admin/dashboard');
    expect(res.statusCode).toBe(200);
    expect(res.data.metrics).toEqual({
      totalUsers: 6,
      totalDeposits: 521,
      totalAdjustments: 0,
      totalInvestments: 100,
      pendingDeposits: 1,
      pendingWithdrawals: 1,
    });
    const deps = res.data.recentActivity.deposits;
    expect(deps.map((d: { amount: number }) => d.amount)).toEqual([1, 20, 4, 3, 500]);
    expect(deps[1].userId).toEqual({ _id: bob.user.id, firstName: 'Bob', lastName: 'Builder', email: bob.user.email });
    expect(res.data.recentActivity.withdrawals).toHaveLength(1);
    expect(res.data.recentActivity.withdrawals[0]).toMatchObject({
      amount: 5,
      status: 'pending',
      source: 'balance',
      userId: { _id: bob.user.id },
    });
  });
});

describe('one shape per thing across the back office', () => {
  it("shows a deposit and a withdrawal identically on the overview, in a user's deposits and in their own tabs", async () => {
    const overview = (await asAdmin('/api/admin/dashboard')).data.recentActivity;
    const tab = (await asAdmin('/api/admin/deposits?pageSize=100')).data.deposits;
    const evilDeposits = (await asAdmin(`/api/admin/users/${evil.user.id}/deposits`)).data.deposits;
    const noted = overview.deposits.find((d: { note: string | null }) => d.note === '=1+2');
    expect(noted).toMatchObject({ userId: { _id: evil.user.id }, requiredConfirmations: 0, note: '=1+2' });
    expect(tab.find((d: { _id: string }) => d._id === noted._id)).toEqual(noted);
    expect(evilDeposits).toEqual([noted]);
    for (const d of overview.deposits) expect(tab.find((x: { _id: string }) => x._id === d._id)).toEqual(d);

    const all = (await asAdmin('/api/withdrawal/admin/all')).data.withdrawals;
    expect(overview.withdrawals).toHaveLength(1);
    expect(all).toContainEqual(overview.withdrawals[0]);
    expect(overview.withdrawals[0]).toMatchObject({ requestId: expect.any(String), investmentId: null });
  });
});

describe('GET /api/admin/users', () => {
  it('pages newest first with account figures read from the ledger', async () => {
    const res = await asAdmin('/api/admin/users?page=1&pageSize=2');
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ page: 1, pageSize: 2, total: 6 });
    expect(res.data.users.map((u: { _id: string }) => u._id)).toEqual([evil.user.id, dee.user.id]);
    expect(res.data.users[1]).toMatchObject({
      firstName: 'Dee',
      isAdmin: false,
      isBlocked: false,
      phone: '+1 5551234567',
      balance: 400,
      totalInvestment: 100,
      totalEarnings: 1.5,
      referralRewards: 0,
      totalDeposits: 500,
    });
    const page3 = await asAdmin('/api/admin/users?page=3&pageSize=2');
    expect(page3.data.users.map((u: { _id: string }) => u._id)).toEqual([ada.user.id, admin.user.id]);
    expect(page3.data.users[1].isAdmin).toBe(true);
    const all = await asAdmin('/api/admin/users?pageSize=100');
    const byId = new Map(all.data.users.map((u: { _id: string }) => [u._id, u]));
    expect(byId.get(cy.user.id)).toMatchObject({ referralRewards: 10, balance: 0 });
    expect(byId.get(bob.user.id)).toMatchObject({ referralRewards: 3, balance: 15, totalDeposits: 20 });
    expect(byId.get(ada.user.id)).toMatchObject({ referralRewards: 1 });
  });

  it('searches e-mail, first, last and full name, case-insensitively, with % and _ taken literally', async () => {
    const ids = async (s: string) =>
      (await asAdmin(`/api/admin/users?search=${encodeURIComponent(s)}`)).data.users.map((u: { _id: string }) => u._id);
    expect(await ids('LOVEL')).toEqual([ada.user.id]);
    expect(await ids('ada lovelace')).toEqual([ada.user.id]);
    expect(await ids(bob.user.email.slice(0, 8).toUpperCase())).toEqual([bob.user.id]);
    expect(await ids('100%_')).toEqual([dee.user.id]);
    expect(await ids('%')).toEqual([dee.user.id]);
    expect(await ids('_')).toEqual([dee.user.id]);
    expect(await ids('nobody-here')).toEqual([]);
    const res = await asAdmin('/api/admin/users?search=young');
    expect(res.data.total).toBe(1);
    const beyond = await asAdmin('/api/admin/users?search=young&page=5');
    expect(beyond.data).toMatchObject({ users: [], total: 1, page: 5 });
    const two = await asAdmin('/api/admin/users?search=example.com&pageSize=4&page=2');
    expect(two.data.total).toBe(6);
    expect(two.data.users).toHaveLength(2);
  });

  it('refuses bad paging', async () => {
    expect((await asAdmin('/api/admin/users?pageSize=1000')).statusCode).toBe(400);
    expect((await asAdmin('/api/admin/users?page=0')).statusCode).toBe(400);
    expect((await asAdmin('/api/admin/users?foo=1')).statusCode).toBe(400);
  });

  it('shows the server state after block / unblock (the badge follows the server)', async () => {
    const block = await call(t, 'POST', `/api/user/admin/toggle-block/${cy.user.id}`, { token: admin.token });
    expect(block.statusCode).toBe(200);
    const res = await asAdmin('/api/admin/users?search=young');
    expect(res.data.users[0].isBlocked).toBe(true);
    await call(t, 'POST', `/api/user/admin/toggle-block/${cy.user.id}`, { token: admin.token });
    expect((await asAdmin('/api/admin/users?search=young')).data.users[0].isBlocked).toBe(false);
  });
});

describe('GET /api/admin/users/:id/deposits', () => {
  it("lists one user's deposits newest first, paged", async () => {
    const res = await asAdmin(`/api/admin/users/${dee.user.id}/deposits?pageSize=2`);
    expect(res.statusCode).toBe(200);
    expect(res.data.total).toBe(3);
    expect(res.data.deposits.map((d: { amount: number; status: string }) => [d.amount, d.status])).toEqual([
      [4, 'failed'],
      [3, 'pending'],
    ]);
    expect(res.data.deposits[0].userId._id).toBe(dee.user.id);
  });
  it('is 404 for an unknown user or a malformed id', async () => {
    expect((await asAdmin('/api/admin/users/7d3c1f7e-3f57-4a43-9d0c-0b8b2a6a4e11/deposits')).statusCode).toBe(404);
    expect((await asAdmin('/api/admin/users/not-a-uuid/deposits')).statusCode).toBe(404);
  });
});

describe('GET /api/admin/users/:id/referral-tree', () => {
  it("shows any user's three levels and the rewards the network produced", async () => {
    const res = await asAdmin(`/api/admin/users/${ada.user.id}/referral-tree`);
    expect(res.statusCode).toBe(200);
    expect(res.data.user).toEqual({ _id: ada.user.id, firstName: 'Ada', lastName: 'Lovelace', email: ada.user.email });
    expect(res.data.tree.totalReferrals).toBe(3);
    expect(res.data.tree.level1.map((e: { _id: string }) => e._id)).toEqual([bob.user.id]);
    expect(res.data.tree.level2.map((e: { _id: string }) => e._id)).toEqual([cy.user.id]);
    expect(res.data.tree.level3.map((e: { _id: string }) => e._id)).toEqual([dee.user.id]);
    expect(res.data.counts).toEqual({ level1: 1, level2: 1, level3: 1 });
    expect(res.data.rewards.total).toBe(1);
    expect(res.data.rewards.byLevel).toEqual([
      { level: 1, count: 0, amount: 0 },
      { level: 2, count: 0, amount: 0 },
      { level: 3, count: 1, amount: 1 },
    ]);
    expect(res.data.rewards.recent[0]).toMatchObject({
      level: 3,
      amount: 1,
      investmentAmount: 100,
      fromUser: { firstName: 'Dee' },
    });
    const cyTree = await asAdmin(`/api/admin/users/${cy.user.id}/referral-tree`);
    expect(cyTree.data.tree.totalReferrals).toBe(1);
    expect(cyTree.data.rewards.byLevel[0]).toEqual({ level: 1, count: 1, amount: 10 });
  });
  it('is 404 for an unknown user', async () => {
    expect((await asAdmin('/api/admin/users/7d3c1f7e-3f57-4a43-9d0c-0b8b2a6a4e11/referral-tree')).statusCode).toBe(404);
  });
});

describe('CSV export', () => {
  it('deposits: header row first, amounts as decimal text, status filter respected', async () => {
    const res = await asAdmin('/api/admin/export/deposits.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toMatch(
      /^attachment; filename="deposits-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = csvLines(res.body);
    expect(lines[0]).toBe(
      'id,created_at,status,type,amount_usdc,tx_hash,from_address,confirmations,processed_at,failure_reason,note,user_id,user_email,user_first_name,user_last_name',
    );
    expect(lines).toHaveLength(1 + 5);
    // Oldest first; 500 USDC as exact text.
    expect(lines[1]?.split(',')[4]).toBe('500');
    const pending = csvLines((await asAdmin('/api/admin/export/deposits.csv?status=pending')).body);
    expect(pending).toHaveLength(2);
    expect(pending[1]).toContain(',pending,demo,3,');
    expect((await asAdmin('/api/admin/export/deposits.csv?status=bogus')).data).toEqual({
      error: MSG.invalidStatusFilter,
      code: 'validation',
    });
  });

  it('escapes commas and quotes and neutralises formulas', async () => {
    const lines = csvLines((await asAdmin('/api/admin/export/deposits.csv?status=confirmed')).body);
    const evilLine = lines.find((l) => l.includes(evil.user.email));
    expect(evilLine).toBeDefined();
    expect(evilLine).toContain(`,'=1+2,`);
    expect(evilLine?.endsWith(`,"'=HYPERLINK(""http://x"")","Smith, ""Jr"""`)).toBe(true);
    const users = csvLines((await asAdmin(`/api/admin/export/users.csv?search=${encodeURIComponent('smith')}`)).body);
    expect(users[0]).toBe(
      'id,created_at,email,first_name,last_name,phone,is_admin,is_blocked,balance_usdc,total_investment_usdc,total_earnings_usdc,referral_rewards_usdc,total_deposits_usdc,total_adjustments_usdc,withdrawal_wallet',
    );
    expect(users).toHaveLength(2);
    expect(users[1]).toContain(`,"'=HYPERLINK(""http://x"")","Smith, ""Jr""",+1 5551234567,false,false,1,0,0,0,1,`);
  });

  it('users export respects the search filter; withdrawals export its status', async () => {
    const all = csvLines((await asAdmin('/api/admin/export/users.csv')).body);
    expect(all).toHaveLength(7);
    const dee1 = csvLines((await asAdmin('/api/admin/export/users.csv?search=done')).body);
    expect(dee1).toHaveLength(2);
    expect(dee1[1]).toContain(',400,100,1.5,0,500,');
    const w = csvLines((await asAdmin('/api/admin/export/withdrawals.csv?status=pending')).body);
    expect(w[0]).toBe(
      'id,requested_at,status,source,amount_usdc,fee_usdc,net_usdc,cycle_number,wallet_address,processed_at,tx_hash,notes,request_id,user_id,user_email,user_first_name,user_last_name',
    );
    expect(w).toHaveLength(2);
    expect(w[1]).toContain(',pending,balance,5,0,5,,');
    // The wallet as people read it, with its EIP-55 capitals (stored in lower case).
    const wallet = w[1]?.split(',')[8] ?? '';
    expect(wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(wallet).toBe(getAddress(wallet));
    expect(csvLines((await asAdmin('/api/admin/export/withdrawals.csv?status=approved')).body)).toHaveLength(1);
  });

  it('walks the table in keyset batches: every row exactly once, in order, whatever the batch size', async () => {
    const read = async (batchSize: number) => {
      const stream = csvStream({
        columns: [['id', (d) => d.id]],
        batchSize,
        fetch: (after, limit) => depositBatch(t.ctx.db, null, after, limit),
      });
      let text = '';
      for await (const chunk of stream) text += String(chunk);
      return csvLines(text);
    };
    const one = await read(1);
    const two = await read(2);
    const big = await read(1000);
    expect(one).toHaveLength(1 + 5);
    expect(new Set(one).size).toBe(1 + 5);
    expect(two).toEqual(big);
    expect(one).toEqual(big);
  });

  it('csvCell quotes and guards every risky start', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    for (const s of ['=SUM(A1)', '+1+1', '-2-A1', '@cmd']) expect(csvCell(s)).toBe(`'${s}`);
    for (const s of ['+1', '-2', '-2.5']) expect(csvCell(s)).toBe(s);
    // A tab is a separator in some locales: guarded and quoted.
    expect(csvCell('\tx')).toBe(`"'\tx"`);
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12.5)).toBe('12.5');
  });
});

describe('audit log', () => {
  it('block/unblock and e-mail change write rows; the view pages, filters and populates the admin', async () => {
    const other = await makeUser(t);
    await call(t, 'POST', `/api/user/admin/toggle-block/${other.user.id}`, { token: admin.token });
    await call(t, 'POST', `/api/user/admin/toggle-block/${other.user.id}`, { token: admin.token });
    const email = `boss.${Date.now()}@example.com`;
    expect(
      (
        await call(t, 'PUT', '/api/user/admin/update-email', {
          token: admin.token,
          body: { newEmail: email, password: 'password-1' },
        })
      ).statusCode,
    ).toBe(200);

    const res = await asAdmin(`/api/admin/audit?targetId=${other.user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.data.total).toBe(2);
    expect(res.data.entries.map((e: { action: string }) => e.action)).toEqual(['user_unblock', 'user_block']);
    expect(res.data.entries[1]).toMatchObject({
      targetType: 'user',
      before: { isBlocked: false },
      after: { isBlocked: true },
      admin: { _id: admin.user.id, firstName: 'Platform', lastName: 'Admin' },
    });
    expect(res.data.entries[1].ip).toBeTruthy();
    const byAction = await asAdmin('/api/admin/audit?action=email_change');
    expect(byAction.data.entries[0]).toMatchObject({ action: 'email_change', after: { email } });
    expect(byAction.data.actions).toEqual(expect.arrayContaining(['email_change', 'user_block', 'user_unblock']));
    const byAdmin = await asAdmin(`/api/admin/audit?adminId=${admin.user.id}&pageSize=1&page=2`);
    expect(byAdmin.data).toMatchObject({ page: 2, pageSize: 1 });
    expect(byAdmin.data.total).toBeGreaterThanOrEqual(5);
    expect(byAdmin.data.entries).toHaveLength(1);
    expect((await asAdmin('/api/admin/audit?adminId=nope')).statusCode).toBe(400);
  });

  it('names whom each entry concerns: the user, the owner of a deposit or withdrawal, the tier', async () => {
    const grace = await makeUser(t, { firstName: 'Grace', lastName: 'Hopper' });
    await seedDeposit(t, grace.user.id, { amount: M(5) });
    const deposit = await seedDeposit(t, grace.user.id, { amount: M(7), status: 'pending' });
    const withdrawal = await seedWithdrawal(t, grace.user.id, { amount: M(2) });
    const tier = await seedTier(t, { name: 'Harvest Moon', amount: M(70), rateScaled: 10000 });
    const ok = (r: { statusCode: number; body: string }) => expect(r.statusCode, r.body).toBe(200);
    ok(await call(t, 'POST', '/api/admin/process-deposit', { token: admin.token, body: { depositId: deposit } }));
    ok(
      await call(t, 'POST', '/api/withdrawal/admin/reject', { token: admin.token, body: { withdrawalId: withdrawal } }),
    );
    ok(await call(t, 'PUT', `/api/admin/tiers/${tier.id}`, { token: admin.token, body: { active: false } }));
    ok(await call(t, 'POST', `/api/user/admin/toggle-block/${grace.user.id}`, { token: admin.token }));

    const ref = { _id: grace.user.id, firstName: 'Grace', lastName: 'Hopper', email: grace.user.email };
    const entries: { action: string; targetId: string; subject: unknown; tierName: string | null }[] = (
      await asAdmin('/api/admin/audit?pageSize=10')
    ).data.entries;
    const of = (action: string, targetId: string) =>
      entries.find((e) => e.action === action && e.targetId === targetId);
    expect(of('deposit_approve', deposit)).toMatchObject({ subject: ref, tierName: null });
    expect(of('withdrawal_reject', withdrawal)).toMatchObject({ subject: ref, tierName: null });
    expect(of('tier_update', tier.id)).toMatchObject({ subject: null, tierName: 'Harvest Moon' });
    expect(of('user_block', grace.user.id)).toMatchObject({ subject: ref, tierName: null });
  });

  it('rows cannot be changed or removed, not even by SQL', async () => {
    await expect(t.ctx.db.execute(sql`UPDATE audit_log SET note = 'x'`)).rejects.toThrow();
    await expect(t.ctx.db.execute(sql`DELETE FROM audit_log`)).rejects.toThrow();
    const [n] = await rawRows<{ n: number }>(t.ctx.db, sql`SELECT count(*)::int AS n FROM audit_log WHERE note = 'x'`);
    expect(n?.n).toBe(0);
  });

  it('no API route writes to an audit row by id', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      const res = await call(t, method, '/api/admin/audit/1', { token: admin.token, body: {} });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await call(t, 'DELETE', '/api/admin/audit', { token: admin.token })).statusCode).toBe(404);
  });
});

it('keeps the books balanced', async () => {
  await expectLedgerClean(t);
});
