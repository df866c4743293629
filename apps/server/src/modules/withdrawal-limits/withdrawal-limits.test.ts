import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { MSG } from '@harvest/shared/messages';
import { auditLog, users } from '../../db/schema.ts';
import { userBalances } from '../../ledger/ledger.ts';
import { timeText } from '../../mail/templates.ts';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  makeUser,
  saidError,
  sessionToken,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { WALLET, hashOf, withdrawalsOf } from '../../../test/support/money.ts';

let t: TestApp;
let admin: TestUser;
const START = new Date('2027-03-01T09:00:00.000Z');
const HOUR = 3600_000;
const at = (ms: number) => new Date(START.getTime() + ms);
const shown = (d: Date) => timeText(d, t.ctx.config.PLATFORM_TIMEZONE);

beforeAll(async () => {
  t = await createTestApp();
  // Stopped between moves (a SettableClock keeps running): a window ends exactly when the test says.
  let stopped = START;
  t.clock.now = () => new Date(stopped.getTime());
  t.clock.set = (to: Date) => {
    stopped = to;
  };
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

const NO_LIMITS = { perInvestorDay: null, perInvestorMonth: null, platformDay: null };
/** A session signed now (the clock moves past sessions' expiry), at the account's current token version. */
async function fresh(u: TestUser): Promise<string> {
  const [row] = await t.ctx.db.select({ tv: users.tokenVersion }).from(users).where(eq(users.id, u.user.id));
  return sessionToken(t, u.user.id, row!.tv);
}
const setPolicy = async (body: unknown, token?: string) =>
  call(t, 'PUT', '/api/admin/withdrawal-policy', { token: token ?? (await fresh(admin)), body });
const withdrawAll = async (u: TestUser, token?: string) =>
  call(t, 'POST', '/api/withdrawal/request-all', {
    token: token ?? (await fresh(u)),
    body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
  });
const myLimits = async (u: TestUser) =>
  (await call(t, 'GET', '/api/user/withdrawal-limits', { token: await fresh(u) })).data;

async function investorWith(micro: bigint) {
  const u = await makeUser(t);
  await fund(t, u.user.id, micro);
  return u;
}

beforeEach(async () => {
  t.clock.set(START);
  expect((await setPolicy(NO_LIMITS)).statusCode).toBe(200);
});

describe('the withdrawal policy (administrators)', () => {
  it('is for administrators only', async () => {
    const u = await makeUser(t);
    expect((await call(t, 'GET', '/api/admin/withdrawal-policy', { token: u.token })).statusCode).toBe(403);
    expect((await setPolicy(NO_LIMITS, u.token)).statusCode).toBe(403);
    expect((await call(t, 'GET', '/api/admin/withdrawal-policy')).statusCode).toBe(401);
  });

  it('is read and saved in USDC, null for no limit, and the change is audited', async () => {
    const res = await setPolicy({ perInvestorDay: 1000, perInvestorMonth: '20000.5', platformDay: null });
    expect(res.statusCode).toBe(200);
    expect(res.data.message).toBe(MSG.withdrawalPolicySaved);
    const got = await call(t, 'GET', '/api/admin/withdrawal-policy', { token: await fresh(admin) });
    expect(got.data.policy).toMatchObject({
      perInvestorDay: 1000,
      perInvestorMonth: 20000.5,
      platformDay: null,
      holdHours: 24,
      updatedAt: START.toISOString(),
    });
    const [row] = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'withdrawal_policy_change'), eq(auditLog.adminId, admin.user.id)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(row?.after).toEqual({ perInvestorDay: '1000', perInvestorMonth: '20000.5', platformDay: null });
  });

  it('refuses zero, negative, too precise and missing limits, changing nothing', async () => {
    await setPolicy({ ...NO_LIMITS, platformDay: 5 });
    for (const body of [
      { ...NO_LIMITS, perInvestorDay: 0 },
      { ...NO_LIMITS, perInvestorDay: -1 },
      { ...NO_LIMITS, perInvestorDay: 1.0000001 },
      { perInvestorDay: 1, perInvestorMonth: null },
      { ...NO_LIMITS, extra: 1 },
    ]) {
      const res = await setPolicy(body);
      expect(res.statusCode).toBe(400);
    }
    const got = await call(t, 'GET', '/api/admin/withdrawal-policy', { token: await fresh(admin) });
    expect(got.data.policy).toMatchObject({ perInvestorDay: null, platformDay: 5 });
  });
});

describe('an investor limit per 24 hours', () => {
  it('counts pending and paid withdrawals, refuses what goes over until the oldest leaves the window', async () => {
    await setPolicy({ ...NO_LIMITS, perInvestorDay: 20 });
    const u = await investorWith(8_000_000n);
    expect((await withdrawAll(u)).statusCode).toBe(200);
    t.clock.set(at(2 * HOUR));
    await fund(t, u.user.id, 7_000_000n);
    const [paid] = await withdrawalsOf(t, u.user.id);
    const ok = await withdrawAll(u);
    expect(ok.statusCode).toBe(200);
    // The first one paid still counts: 8 + 7 = 15 of 20 used.
    const approved = await call(t, 'POST', '/api/withdrawal/admin/approve', {
      token: await fresh(admin),
      body: { withdrawalId: paid!.id, txHash: hashOf(4101) },
    });
    expect(approved.statusCode).toBe(200);
    expect(await myLimits(u)).toMatchObject({ day: { limit: 20, used: 15 }, month: null, hold: null });

    t.clock.set(at(3 * HOUR));
    await fund(t, u.user.id, 6_000_000n);
    const refused = await withdrawAll(u);
    // 15 + 6 > 20: possible once the first request (8) has left the 24 hours.
    const when = at(24 * HOUR);
    expect(refused.statusCode).toBe(403);
    expect(refused.data).toEqual(
      saidError(MSG.overLimit('day', 6_000_000n, 20_000_000n, when, shown(when)), 'withdrawal_limit'),
    );
    expect(refused.data.error).toContain(': possible again on ');
    expect(await withdrawalsOf(t, u.user.id)).toHaveLength(2);
    expect(await userBalances(t.ctx.db, u.user.id)).toMatchObject({
      balance: 6_000_000n,
      pending_withdrawal: 7_000_000n,
    });

    t.clock.set(new Date(when.getTime() - 1000));
    expect((await withdrawAll(u)).statusCode).toBe(403);
    t.clock.set(when);
    expect((await withdrawAll(u)).statusCode).toBe(200);
    await expectLedgerClean(t);
  });

  it('does not count rejected withdrawals', async () => {
    await setPolicy({ ...NO_LIMITS, perInvestorDay: 10 });
    const u = await investorWith(9_000_000n);
    await withdrawAll(u);
    const [w] = await withdrawalsOf(t, u.user.id);
    await call(t, 'POST', '/api/withdrawal/admin/reject', { token: await fresh(admin), body: { withdrawalId: w!.id } });
    expect((await withdrawAll(u)).statusCode).toBe(200);
  });

  it('says to contact support when one request is more than the limit itself', async () => {
    await setPolicy({ ...NO_LIMITS, perInvestorDay: 5 });
    const u = await investorWith(5_000_001n);
    const res = await withdrawAll(u);
    expect(res.data).toEqual(
      saidError(MSG.aboveLimit('day', 5_000_001n, 5_000_000n, t.ctx.config.SUPPORT_EMAIL), 'withdrawal_limit'),
    );
    expect(await userBalances(t.ctx.db, u.user.id)).toMatchObject({ balance: 5_000_001n, pending_withdrawal: 0n });
  });
});

describe('an investor limit per 30 days', () => {
  it('is rolling: what was asked 29 days ago still counts, 30 days later it does not', async () => {
    await setPolicy({ ...NO_LIMITS, perInvestorMonth: 100 });
    const u = await investorWith(60_000_000n);
    await withdrawAll(u);
    t.clock.set(at(10 * 24 * HOUR));
    await fund(t, u.user.id, 30_000_000n);
    await withdrawAll(u);
    t.clock.set(at(29 * 24 * HOUR));
    await fund(t, u.user.id, 20_000_000n);
    const res = await withdrawAll(u);
    const when = at(30 * 24 * HOUR);
    expect(res.data).toEqual(
      saidError(MSG.overLimit('month', 20_000_000n, 100_000_000n, when, shown(when)), 'withdrawal_limit'),
    );
    expect(await myLimits(u)).toMatchObject({ month: { limit: 100, used: 90 } });
    t.clock.set(when);
    expect((await withdrawAll(u)).statusCode).toBe(200);
    expect(await myLimits(u)).toMatchObject({ month: { limit: 100, used: 50 } });
  });
});

describe('the platform limit per 24 hours', () => {
  it('counts every investor, and says when without telling what others took', async () => {
    // Past every window the tests above used: only this test's withdrawals count.
    const base = 60 * 24 * HOUR;
    t.clock.set(at(base));
    await setPolicy({ ...NO_LIMITS, platformDay: 1_000 });
    const a = await investorWith(600_000_000n);
    const b = await investorWith(300_000_000n);
    const c = await investorWith(200_000_000n);
    expect((await withdrawAll(a)).statusCode).toBe(200);
    t.clock.set(at(base + HOUR));
    expect((await withdrawAll(b)).statusCode).toBe(200);
    t.clock.set(at(base + 2 * HOUR));
    const res = await withdrawAll(c);
    // 900 of 1,000 used: 200 more fit once the first 600 has left the 24 hours.
    const when = at(base + 24 * HOUR);
    expect(res.statusCode).toBe(403);
    expect(res.data).toEqual(saidError(MSG.overPlatformLimit(when, shown(when)), 'withdrawal_limit'));
    expect(await withdrawalsOf(t, c.user.id)).toHaveLength(0);
    const policy = await call(t, 'GET', '/api/admin/withdrawal-policy', { token: await fresh(admin) });
    expect(policy.data.policy).toMatchObject({ platformDay: 1000, platformUsedDay: 900 });
    t.clock.set(when);
    expect((await withdrawAll(c)).statusCode).toBe(200);
  });

  it('says to contact support when one request is more than the platform limit itself', async () => {
    await setPolicy({ ...NO_LIMITS, platformDay: 1 });
    t.clock.set(at(90 * 24 * HOUR));
    const u = await investorWith(2_000_000n);
    expect((await withdrawAll(u)).data).toEqual(
      saidError(MSG.abovePlatformLimit(2_000_000n, t.ctx.config.SUPPORT_EMAIL), 'withdrawal_limit'),
    );
  });
});

describe('a security hold', () => {
  it('follows a login password change for SECURITY_HOLD_HOURS; nothing moves, Profile shows it', async () => {
    const u = await investorWith(3_000_000n);
    const changed = await call(t, 'PUT', '/api/user/profile', {
      token: u.token,
      body: {
        firstName: 'Test',
        lastName: 'User',
        currentPassword: u.password,
        newPassword: 'a-new-pass-9',
        confirmPassword: 'a-new-pass-9',
      },
    });
    expect(changed.statusCode).toBe(200);
    const me = u;
    t.clock.set(at(HOUR));
    const until = at(24 * HOUR);
    const res = await withdrawAll(me);
    expect(res.statusCode).toBe(403);
    expect(res.data).toEqual(saidError(MSG.withdrawalHold(24, until, shown(until)), 'withdrawal_hold'));
    expect(await myLimits(me)).toMatchObject({ hold: { until: until.toISOString(), reason: 'password_changed' } });
    expect(await userBalances(t.ctx.db, u.user.id)).toMatchObject({ balance: 3_000_000n, pending_withdrawal: 0n });
    t.clock.set(until);
    expect(await myLimits(me)).toMatchObject({ hold: null });
    expect((await withdrawAll(me)).statusCode).toBe(200);
  });

  it('follows an address-book change after a sign-in from a new device, not one from a known device', async () => {
    const u = await investorWith(3_000_000n);
    const login = (deviceId: string) =>
      call(t, 'POST', '/api/login', { body: { email: u.user.email, password: u.password, deviceId } });
    const addAddress = (token: string, n: number) =>
      call(t, 'POST', '/api/user/withdrawal-addresses', {
        token,
        body: { label: `Cold wallet ${n}`, address: `0x${String(n).repeat(40).slice(0, 40)}`, password: u.password },
      });
    expect((await login('home-laptop-0000001')).statusCode).toBe(200);
    t.clock.set(at(HOUR));
    // Again from the known device: its address-book change holds nothing.
    const again = (await login('home-laptop-0000001')).data.token;
    expect((await addAddress(again, 1)).statusCode).toBe(201);
    expect(await myLimits(u)).toMatchObject({ hold: null });

    t.clock.set(at(2 * HOUR));
    const thief = (await login('stolen-browser-00002')).data.token;
    t.clock.set(at(3 * HOUR));
    expect((await addAddress(thief, 2)).statusCode).toBe(201);
    const until = at(27 * HOUR);
    const res = await withdrawAll(u, thief);
    expect(res.data).toEqual(saidError(MSG.withdrawalHold(24, until, shown(until)), 'withdrawal_hold'));
    expect(await myLimits(u)).toMatchObject({ hold: { reason: 'address_added' } });
  });

  it("follows an administrator's e-mail change of their account", async () => {
    const a = await makeUser(t, { isAdmin: true });
    await fund(t, a.user.id, 1_000_000n);
    const res = await call(t, 'PUT', '/api/user/admin/update-email', {
      token: a.token,
      body: { newEmail: `moved.${a.user.email}`, password: a.password },
    });
    expect(res.data).toMatchObject({ message: MSG.emailUpdated });
    expect((await withdrawAll(a)).data.code).toBe('withdrawal_hold');
  });
});
