import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { HISTORY_PAGE_SIZE, type HistoryItem } from '@harvest/shared/schemas/history';
import { call, createTestApp, makeUser, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { WALLET, seedCycleEarning, seedFundedInvestment } from '../../../test/support/money.ts';

const hash = () => `0x${randomBytes(32).toString('hex')}`;
// EIP-55 checksummed: stored lower-case, searched in any case.
const FROM = '0xabCDeF0123456789AbcdEf0123456789aBCDEF01';
const START = Date.parse('2026-03-02T09:00:00Z');

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let minute = 0;
/** Each action a minute after the previous one. */
const tick = () => t.clock.set(new Date(START + ++minute * 60_000));

const history = (u: TestUser | null, query: string) =>
  call(t, 'GET', `/api/user/history${query}`, u ? { token: u.token } : {});
async function all(u: TestUser, query = ''): Promise<{ items: HistoryItem[]; total: number }> {
  const res = await history(u, `?${query}`);
  expect(res.statusCode).toBe(200);
  return res.data;
}
const ids = (items: { _id: string }[]) => items.map((i) => i._id);

async function deposit(u: TestUser, txHash: string, amount: number) {
  tick();
  const res = await call(t, 'POST', '/api/user/process-deposit', {
    token: u.token,
    body: { txHash, amount, fromAddress: FROM },
  });
  expect(res.statusCode).toBe(200);
  return res.data.deposit as { _id: string; txHash: string };
}

const aliceHashes: string[] = [];
let approvedPayout: string;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(new Date(START));
  alice = await makeUser(t);
  bob = await makeUser(t);
  admin = await makeUser(t, { isAdmin: true });
  // 23 deposits of Alice: 3 credited (1,250,000.5 USDC each), 1 rejected, the rest pending.
  const made = [];
  for (let i = 0; i < 23; i++) {
    const h = hash();
    aliceHashes.push(h);
    made.push(await deposit(alice, h, i < 3 ? 1_250_000.5 : 10 + i));
  }
  for (const d of made.slice(0, 3)) {
    const res = await call(t, 'POST', '/api/admin/process-deposit', { token: admin.token, body: { depositId: d._id } });
    expect(res.statusCode).toBe(200);
  }
  const rejected = await call(t, 'POST', '/api/admin/reject-deposit', {
    token: admin.token,
    body: { depositId: made[3]?._id, reason: 'Not received' },
  });
  expect(rejected.statusCode).toBe(200);
  // Bob sent from the same wallet once: that deposit is his alone.
  await deposit(bob, hash(), 7);

  // Withdraw All: two earnings (15% fee) and the balance (no fee), at one moment.
  const inv = await seedFundedInvestment(t, alice.user.id, 100_000_000n, 'Gold');
  await seedCycleEarning(t, alice.user.id, inv, 1_234_567n);
  await seedCycleEarning(t, alice.user.id, inv, 2_000_000n);
  tick();
  const w = await call(t, 'POST', '/api/withdrawal/request-all', {
    token: alice.token,
    body: { walletAddress: WALLET, withdrawalPassword: alice.withdrawalPassword },
  });
  expect(w.statusCode).toBe(200);
  const mine = (await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token: alice.token })).data.withdrawals;
  expect(mine).toHaveLength(3);
  approvedPayout = hash();
  tick();
  const approve = { withdrawalId: mine[0]._id, txHash: approvedPayout };
  expect(
    (await call(t, 'POST', '/api/withdrawal/admin/approve', { token: admin.token, body: approve })).statusCode,
  ).toBe(200);
  const reject = { withdrawalId: mine[1]._id };
  expect((await call(t, 'POST', '/api/withdrawal/admin/reject', { token: admin.token, body: reject })).statusCode).toBe(
    200,
  );
});
afterAll(() => t.close());

describe('GET /user/history', () => {
  it('pages every deposit and withdrawal of the investor, newest first, in a stable order', async () => {
    const p1 = await all(alice);
    const p2 = await all(alice, 'page=2');
    expect(p1).toMatchObject({ page: 1, pageSize: HISTORY_PAGE_SIZE, total: 26 });
    expect(p1.items).toHaveLength(20);
    expect(p2).toMatchObject({ page: 2, total: 26 });
    expect(p2.items).toHaveLength(6);
    expect((await all(alice, 'page=3')).items).toEqual([]);

    const list = [...p1.items, ...p2.items];
    expect(new Set(ids(list)).size).toBe(26);
    const sorted = [...list].sort((a, b) => b.at.localeCompare(a.at) || b._id.localeCompare(a._id));
    expect(ids(list)).toEqual(ids(sorted));
    // The Withdraw All came last: its three rows (one moment) lead, then the deposits, newest first.
    expect(list.slice(0, 3).map((i) => i.kind)).toEqual(['withdrawal', 'withdrawal', 'withdrawal']);
    expect(list.slice(3).every((i) => i.kind === 'deposit')).toBe(true);
    expect(list.slice(3).map((i) => i.txHash)).toEqual([...aliceHashes].reverse());
    // Asked again, the same order.
    expect(ids((await all(alice)).items)).toEqual(ids(p1.items));
  });

  it('shows amounts as the deposit and withdrawal lists do, with a withdrawal fee where there is one', async () => {
    const { items } = await all(alice);
    const deposits = (await call(t, 'GET', '/api/user/deposit-history', { token: alice.token })).data.deposits;
    const withdrawals = (await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token: alice.token })).data
      .withdrawals;
    for (const d of deposits.slice(0, 17)) {
      expect(items.find((i) => i._id === d._id)).toEqual({
        _id: d._id,
        kind: 'deposit',
        amount: d.amount,
        fee: null,
        status: d.status,
        txHash: d.txHash,
        address: FROM, // with its EIP-55 capitals, however it was stored
        at: d.createdAt,
        processedAt: d.processedAt,
      });
    }
    for (const w of withdrawals) {
      expect(items.find((i) => i._id === w._id)).toEqual({
        _id: w._id,
        kind: 'withdrawal',
        amount: w.amount,
        fee: w.feeAmount > 0 ? w.feeAmount : null,
        status: w.status,
        txHash: w.txHash,
        address: WALLET,
        at: w.requestedAt,
        processedAt: w.processedAt,
      });
    }
    expect(items.filter((i) => i.kind === 'withdrawal').map((i) => i.fee)).toContain(0.3);
    expect(items.find((i) => i.fee === null && i.kind === 'withdrawal')?.amount).toBe(3_750_001.5);
  });

  it('filters by any status a deposit or a withdrawal has', async () => {
    const counts: Record<string, number> = {};
    for (const status of ['pending', 'confirmed', 'failed', 'approved', 'rejected']) {
      const page = await all(alice, `status=${status}`);
      expect(page.items.every((i) => i.status === status)).toBe(true);
      counts[status] = page.total;
    }
    expect(counts).toEqual({ pending: 20, confirmed: 3, failed: 1, approved: 1, rejected: 1 });
    const pending = await all(alice, 'status=pending&page=2');
    expect(pending.items).toEqual([]);
  });

  it('finds a hash or an address by its beginning or whole, in any case, with % and _ as plain characters', async () => {
    const target = aliceHashes[10] ?? '';
    const upper = `0x${target.slice(2).toUpperCase()}`;
    for (const q of [upper, upper.slice(0, 14), `  ${target}  `]) {
      const page = await all(alice, `q=${encodeURIComponent(q)}`);
      expect(page.total).toBe(1);
      expect(page.items[0]?.txHash).toBe(target);
    }
    expect((await all(alice, `q=${approvedPayout}`)).items.map((i) => [i.kind, i.status])).toEqual([
      ['withdrawal', 'approved'],
    ]);
    expect((await all(alice, `q=${WALLET}`)).total).toBe(3);
    // The sender address: Alice's 23 deposits, never Bob's one from the same wallet.
    expect((await all(alice, `q=${FROM}`)).total).toBe(23);
    expect((await all(alice, `q=${FROM}&status=confirmed`)).total).toBe(3);
    expect((await all(alice, 'q=0x')).total).toBe(26);
    // As LIKE patterns these would match every row.
    for (const q of ['%', '0x%', '_', '_x', '0x_', '%25'])
      expect((await all(alice, `q=${encodeURIComponent(q)}`)).total).toBe(0);
    // A blank search is no search.
    expect((await all(alice, 'q=%20%20')).total).toBe(26);
  });

  it("never shows another investor's rows", async () => {
    const bobs = await all(bob);
    expect(bobs.total).toBe(1);
    expect(bobs.items[0]?.address).toBe(FROM);
    const mine = new Set(ids((await all(alice)).items));
    expect(mine.has(bobs.items[0]?._id ?? '')).toBe(false);
    expect((await all(alice, `q=${bobs.items[0]?.txHash}`)).total).toBe(0);
    const stranger = await makeUser(t);
    expect(await all(stranger)).toEqual({ items: [], page: 1, pageSize: HISTORY_PAGE_SIZE, total: 0 });
  });

  it('answers a bad query with 400, its text and the validation code', async () => {
    const cases: [string, string][] = [
      ['page=0', MSG.historyPageInvalid],
      ['page=-1', MSG.historyPageInvalid],
      ['page=1.5', MSG.historyPageInvalid],
      ['page=two', MSG.historyPageInvalid],
      ['page=1&page=2', MSG.historyPageInvalid],
      ['status=done', MSG.invalidStatusFilter],
      ['status=PENDING', MSG.invalidStatusFilter],
      [`q=${'a'.repeat(101)}`, MSG.historySearchInvalid],
      ['q=a&q=b', MSG.historySearchInvalid],
    ];
    for (const [query, error] of cases) {
      const res = await history(alice, `?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.data, query).toEqual({ error, code: 'validation' });
    }
    const unknown = await history(alice, '?userId=' + bob.user.id);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.data.code).toBe('validation');
    expect((await all(alice, `q=${'a'.repeat(100)}`)).total).toBe(0);
  });

  it('needs a session', async () => {
    const res = await history(null, '');
    expect(res.statusCode).toBe(401);
    expect(res.data).toEqual({ error: MSG.unauthorized, code: 'unauthorized' });
  });
});
