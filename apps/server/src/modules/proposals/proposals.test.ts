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
  makeUser,
  saidError,
  sessionToken,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { hashOf, seedDeposit, seedTier, seedWithdrawal } from '../../../test/support/money.ts';
import { lastMail, signIn } from '../../../test/account/support.ts';
import { assert, createPasskey, siteOf } from '../../../test/support/authenticator.ts';

/** Four-eyes (FOUR_EYES=on) as staff and investors see it over HTTP. */
let t: TestApp;
let owner: TestUser;
let finance: TestUser;
let finance2: TestUser;
let support: TestUser;
let auditor: TestUser;
beforeAll(async () => {
  t = await createTestApp({ FOUR_EYES: 'on', FOUR_EYES_WITHDRAWAL_USDC: '1000' });
  owner = await makeUser(t, { role: 'owner' });
  finance = await makeUser(t, { role: 'finance' });
  finance2 = await makeUser(t, { role: 'finance' });
  support = await makeUser(t, { role: 'support' });
  auditor = await makeUser(t, { role: 'auditor' });
});
afterAll(() => t.close());

const setBalance = (by: TestUser, userId: string, newBalance: number, expectedBalance?: number) =>
  call(t, 'POST', '/api/admin/update-user-balance', {
    token: by.token,
    body: { userId, newBalance, note: 'Correction', ...(expectedBalance !== undefined ? { expectedBalance } : {}) },
  });
const approve = (by: TestUser | string, id: string) =>
  call(t, 'POST', `/api/admin/proposals/${id}/approve`, { token: typeof by === 'string' ? by : by.token });
const open = async (by: TestUser = auditor) => (await call(t, 'GET', '/api/admin/proposals', { token: by.token })).data;
const balanceOf = async (userId: string) => (await userBalances(t.ctx.db, userId)).balance;

describe('Update Balance with four-eyes', () => {
  it('is proposed (202), shows what it will do, and takes effect only when a second finance member approves', async () => {
    const investor = await makeUser(t, { firstName: 'Ada', lastName: 'Lovelace' });
    await fund(t, investor.user.id, 1_250_000_000_000n);
    const res = await setBalance(finance, investor.user.id, 1_500_000.5, 1_250_000);
    expect(res.statusCode).toBe(202);
    expect(res.data).toEqual({ message: MSG.proposalSent, proposalId: expect.any(String) });
    expect(await balanceOf(investor.user.id)).toBe(1_250_000_000_000n);

    const list = await open();
    const shown = list.proposals.find((p: { id: string }) => p.id === res.data.proposalId);
    expect(shown).toMatchObject({
      kind: 'balance_update',
      user: { _id: investor.user.id, firstName: 'Ada', lastName: 'Lovelace' },
      changes: [{ field: 'balance', before: '1250000', after: '1500000.5' }],
      difference: '250000.5',
      detail: 'Correction',
      proposedBy: { email: finance.user.email },
    });
    expect(new Date(shown.expiresAt).getTime() - new Date(shown.proposedAt).getTime()).toBe(24 * 3600_000);
    expect(list.counts.open).toBeGreaterThanOrEqual(1);
    expect(list.counts.byKind.balance_update).toBeGreaterThanOrEqual(1);

    // The proposer is refused, from this session or a second one of their own.
    expect((await approve(finance, res.data.proposalId)).data).toEqual({
      error: MSG.proposalOwn,
      code: 'own_proposal',
    });
    const second = await sessionToken(t, finance.user.id, finance.user.tokenVersion);
    expect((await approve(second, res.data.proposalId)).statusCode).toBe(403);
    // Roles that move no money cannot approve it.
    expect((await approve(support, res.data.proposalId)).data.code).toBe('forbidden_role');
    expect((await approve(auditor, res.data.proposalId)).data.code).toBe('forbidden_role');
    expect(await balanceOf(investor.user.id)).toBe(1_250_000_000_000n);

    const ok = await approve(finance2, res.data.proposalId);
    expect(ok.statusCode).toBe(200);
    expect(ok.data).toEqual({ message: MSG.proposalApproved });
    expect(await balanceOf(investor.user.id)).toBe(1_500_000_500_000n);
    // Once: a second approval finds it decided.
    expect((await approve(owner, res.data.proposalId)).data).toEqual({
      error: MSG.proposalDecided,
      code: 'proposal_closed',
    });
    expect(await balanceOf(investor.user.id)).toBe(1_500_000_500_000n);

    // Both staff members and both times are in the audit log.
    const [row] = await rawRows<{ before: Record<string, string>; after: Record<string, string> }>(
      t.ctx.db,
      sql`SELECT before, after FROM audit_log WHERE action = 'proposal_approve' AND target_id = ${investor.user.id}`,
    );
    expect(row?.before).toMatchObject({ proposedBy: finance.user.email, proposedAt: expect.any(String) });
    expect(row?.after).toMatchObject({ approvedBy: finance2.user.email, approvedAt: expect.any(String) });
    // The investor's statement says two staff members approved it, and names neither.
    const statement = await call(t, 'GET', '/api/user/statement?format=csv', { token: investor.token });
    expect(statement.body).toContain('Balance adjustment approved by two staff members');
    for (const staff of [finance, finance2]) expect(statement.body).not.toContain(staff.user.email);
    await expectLedgerClean(t);
  });

  it('is refused at approval when the balance is no longer the one it showed, and says why', async () => {
    const investor = await makeUser(t);
    await fund(t, investor.user.id, 10_000_000n);
    const res = await setBalance(finance, investor.user.id, 25);
    expect(res.statusCode).toBe(202);
    await fund(t, investor.user.id, 5_000_000n);
    const refused = await approve(finance2, res.data.proposalId);
    expect(refused.statusCode).toBe(409);
    expect(refused.data).toEqual(saidError(MSG.balanceChanged(15_000_000n), 'balance_changed'));
    expect(await balanceOf(investor.user.id)).toBe(15_000_000n);
  });

  it('a rejected proposal changes nothing and cannot be approved', async () => {
    const investor = await makeUser(t);
    const res = await setBalance(finance, investor.user.id, 9);
    const rejected = await call(t, 'POST', `/api/admin/proposals/${res.data.proposalId}/reject`, {
      token: finance2.token,
      body: { reason: 'Not agreed with the investor' },
    });
    expect(rejected.data).toEqual({ message: MSG.proposalRejected });
    expect((await approve(owner, res.data.proposalId)).data.code).toBe('proposal_closed');
    expect(await balanceOf(investor.user.id)).toBe(0n);
  });
});

describe('the other decisions four-eyes holds', () => {
  it('approving a pending deposit: proposed, credited once on approval', async () => {
    const investor = await makeUser(t);
    const depositId = await seedDeposit(t, investor.user.id, { amount: 2_500_000n, status: 'pending' });
    const res = await call(t, 'POST', '/api/admin/process-deposit', { token: finance.token, body: { depositId } });
    expect(res.statusCode).toBe(202);
    expect(await balanceOf(investor.user.id)).toBe(0n);
    expect((await approve(owner, res.data.proposalId)).statusCode).toBe(200);
    expect(await balanceOf(investor.user.id)).toBe(2_500_000n);
    await expectLedgerClean(t);
  });

  it('the staff member money goes to is not the second pair of eyes', async () => {
    // finance2's own demo deposit, proposed by finance: finance2 may not approve it; another member may.
    const depositId = await seedDeposit(t, finance2.user.id, { amount: 900_000_000n, status: 'pending' });
    const res = await call(t, 'POST', '/api/admin/process-deposit', { token: finance.token, body: { depositId } });
    expect(res.statusCode).toBe(202);
    const own = await approve(finance2, res.data.proposalId);
    expect(own.statusCode).toBe(403);
    expect(own.data).toEqual({ error: MSG.proposalAboutYou, code: 'own_proposal' });
    expect(await balanceOf(finance2.user.id)).toBe(0n);
    // Nor an Update Balance of their own account.
    const set = await setBalance(finance, finance2.user.id, 5);
    expect((await approve(finance2, set.data.proposalId)).data.code).toBe('own_proposal');
    expect(await balanceOf(finance2.user.id)).toBe(0n);
    expect((await approve(owner, res.data.proposalId)).statusCode).toBe(200);
    expect(await balanceOf(finance2.user.id)).toBe(900_000_000n);
    await expectLedgerClean(t);
  });

  it('a withdrawal above the threshold is proposed; one at or below it is approved at once', async () => {
    const investor = await makeUser(t);
    await fund(t, investor.user.id, 3_000_000_000n);
    const big = await seedWithdrawal(t, investor.user.id, { amount: 1_000_000_001n });
    const small = await seedWithdrawal(t, investor.user.id, { amount: 1_000_000_000n });
    const approveBy = (by: TestUser, withdrawalId: string, n: number) =>
      call(t, 'POST', '/api/withdrawal/admin/approve', { token: by.token, body: { withdrawalId, txHash: hashOf(n) } });
    expect((await approveBy(finance, small, 9001)).data.message).toBe(MSG.withdrawalApproved);
    const res = await approveBy(finance, big, 9002);
    expect(res.statusCode).toBe(202);
    const pending = await call(t, 'GET', '/api/withdrawal/admin/pending', { token: auditor.token });
    expect(pending.data.withdrawals.map((w: { _id: string }) => w._id)).toContain(big);
    // Nor can one person complete it another way, such as a payout batch.
    const batch = await call(t, 'POST', '/api/withdrawal/admin/batches', {
      token: finance.token,
      body: { withdrawalIds: [big], grouped: false },
    });
    expect(batch.data).toEqual(saidError(MSG.fourEyesByHashOnly(1_000_000_000n), 'conflict'));
    expect((await approve(finance2, res.data.proposalId)).statusCode).toBe(200);
    const all = await call(t, 'GET', '/api/withdrawal/admin/all', { token: auditor.token });
    expect(all.data.withdrawals.find((w: { _id: string }) => w._id === big)).toMatchObject({ status: 'approved' });
    await expectLedgerClean(t);
  });

  it("a tier's new rate is proposed; a new name alone is not", async () => {
    const { id: tierId } = await seedTier(t, { name: 'Gold', amount: 5_000_000_000n, rateScaled: 15_000 });
    const renamed = await call(t, 'PUT', `/api/admin/tiers/${tierId}`, {
      token: finance.token,
      body: { name: 'Gold+' },
    });
    expect(renamed.statusCode).toBe(200);
    const res = await call(t, 'PUT', `/api/admin/tiers/${tierId}`, { token: finance.token, body: { dailyRate: 9 } });
    expect(res.statusCode).toBe(202);
    const shown = (await open()).proposals.find((p: { id: string }) => p.id === res.data.proposalId);
    expect(shown).toMatchObject({
      kind: 'tier_update',
      detail: 'Gold+',
      changes: [{ field: 'dailyRate', after: '9' }],
    });
    expect((await approve(finance2, res.data.proposalId)).statusCode).toBe(200);
    const tiers = await call(t, 'GET', '/api/admin/tiers', { token: auditor.token });
    expect(tiers.data.tiers.find((x: { _id: string }) => x._id === tierId)).toMatchObject({ dailyRate: 9 });
  });

  it('a tier proposal shows every change it will make, makes only those, and goes stale when one is edited meanwhile', async () => {
    const { id: tierId } = await seedTier(t, {
      name: 'Silver',
      amount: 7_000_000_000n,
      rateScaled: 10_000,
      active: false,
    });
    const edit = (body: Record<string, unknown>) =>
      call(t, 'PUT', `/api/admin/tiers/${tierId}`, { token: finance.token, body });
    // The web's form sends every field: a rename with the amount and rate unchanged is one person's decision.
    const form = { name: 'Silver', amount: 7000, dailyRate: 1, active: false, sortOrder: 0 };
    expect((await edit({ ...form, name: 'Silver II' })).statusCode).toBe(200);
    // A new rate, a new name and going live at once: the approver is shown all three (not the unchanged amount).
    const res = await edit({ ...form, name: 'Silver III', dailyRate: 1.5, active: true });
    expect(res.statusCode).toBe(202);
    const shown = (await open()).proposals.find((p: { id: string }) => p.id === res.data.proposalId);
    expect(shown.changes).toEqual([
      { field: 'name', before: 'Silver II', after: 'Silver III' },
      { field: 'dailyRate', before: '1', after: '1.5' },
      { field: 'active', before: 'false', after: 'true' },
    ]);
    // Renamed meanwhile: the approval would overwrite what it did not show, so it is refused and changes nothing.
    expect((await edit({ name: 'Silver X' })).statusCode).toBe(200);
    expect((await approve(finance2, res.data.proposalId)).data).toEqual({
      error: MSG.proposalChanged,
      code: 'proposal_closed',
    });
    const tier = async () =>
      (await call(t, 'GET', '/api/admin/tiers', { token: auditor.token })).data.tiers.find(
        (x: { _id: string }) => x._id === tierId,
      );
    expect(await tier()).toMatchObject({ name: 'Silver X', dailyRate: 1, active: false });
    // Withdrawn by its proposer, proposed again, approved: exactly what it showed.
    const withdrawn = await call(t, 'POST', `/api/admin/proposals/${res.data.proposalId}/reject`, {
      token: finance.token,
      body: {},
    });
    expect(withdrawn.statusCode).toBe(200);
    const again = await edit({ ...form, name: 'Silver X', dailyRate: 1.5, active: true });
    expect((await approve(finance2, again.data.proposalId)).statusCode).toBe(200);
    expect(await tier()).toMatchObject({ name: 'Silver X', amount: 7000, dailyRate: 1.5, active: true, sortOrder: 0 });
  });

  it('a new tier is proposed with its amount and rate, and offered to investors only once approved', async () => {
    const res = await call(t, 'POST', '/api/admin/tiers', {
      token: finance.token,
      body: { name: 'Diamond', amount: 250_000, dailyRate: 4.5 },
    });
    expect(res.statusCode).toBe(202);
    const names = async () =>
      (await call(t, 'GET', '/api/admin/tiers', { token: auditor.token })).data.tiers.map(
        (x: { name: string }) => x.name,
      );
    expect(await names()).not.toContain('Diamond');
    const shown = (await open()).proposals.find((p: { id: string }) => p.id === res.data.proposalId);
    expect(shown).toMatchObject({
      kind: 'tier_create',
      detail: 'Diamond',
      changes: [
        { field: 'amount', before: null, after: '250000' },
        { field: 'dailyRate', before: null, after: '4.5' },
      ],
    });
    expect((await approve(finance, res.data.proposalId)).data.code).toBe('own_proposal');
    expect((await approve(finance2, res.data.proposalId)).statusCode).toBe(200);
    expect(await names()).toContain('Diamond');
  });

  it('freezing is immediate; lifting a freeze is proposed and approved by a second member', async () => {
    const investor = await makeUser(t);
    const url = `/api/admin/users/${investor.user.id}/withdrawals-frozen`;
    const frozen = await call(t, 'PUT', url, { token: support.token, body: { frozen: true } });
    expect(frozen.data.message).toBe(MSG.adminWithdrawalsFrozen);
    const res = await call(t, 'PUT', url, { token: support.token, body: { frozen: false } });
    expect(res.statusCode).toBe(202);
    const me = async () => (await call(t, 'GET', '/api/user/me', { token: investor.token })).data.user;
    expect((await me()).withdrawalsFrozen).toBe(true);
    expect((await approve(owner, res.data.proposalId)).statusCode).toBe(200);
    expect((await me()).withdrawalsFrozen).toBe(false);
  });

  it('withdrawal limits are proposed by one finance member and set when another approves, one change at a time', async () => {
    const policy = async () =>
      (await call(t, 'GET', '/api/admin/withdrawal-policy', { token: auditor.token })).data.policy;
    const put = (by: TestUser, perInvestorDay: number | null) =>
      call(t, 'PUT', '/api/admin/withdrawal-policy', {
        token: by.token,
        body: { perInvestorDay, perInvestorMonth: null, platformDay: 250_000 },
      });
    expect((await put(support, 5_000)).data.code).toBe('forbidden_role');
    const res = await put(finance, 5_000);
    expect(res.statusCode).toBe(202);
    expect(await policy()).toMatchObject({ perInvestorDay: null, platformDay: null });
    const shown = (await open()).proposals.find((p: { id: string }) => p.id === res.data.proposalId);
    expect(shown).toMatchObject({
      kind: 'withdrawal_policy',
      changes: [
        { field: 'perInvestorDay', before: null, after: '5000' },
        { field: 'platformDay', before: null, after: '250000' },
      ],
    });
    expect((await approve(finance, res.data.proposalId)).data.code).toBe('own_proposal');
    expect((await approve(finance2, res.data.proposalId)).statusCode).toBe(200);
    expect(await policy()).toMatchObject({ perInvestorDay: 5_000, platformDay: 250_000 });

    // One change of the limits waits at a time: a second proposal is told where the first one is.
    const a = await put(finance, 7_500);
    expect(a.statusCode).toBe(202);
    const b = await put(finance2, 10_000);
    expect(b.statusCode).toBe(409);
    expect(b.data.error).toBe(MSG.proposalAlreadyOpen);
    expect((await approve(finance2, a.data.proposalId)).statusCode).toBe(200);
    expect(await policy()).toMatchObject({ perInvestorDay: 7_500 });
  });

  it('a role change is proposed by one owner and approved by another; nobody changes their own role', async () => {
    const owner2 = await makeUser(t, { role: 'owner' });
    const member = await makeUser(t, { role: 'finance' });
    expect(
      (
        await call(t, 'PUT', `/api/admin/staff/${owner.user.id}/role`, {
          token: owner.token,
          body: { role: 'auditor' },
        })
      ).data,
    ).toEqual({ error: MSG.ownRole, code: 'forbidden' });
    const res = await call(t, 'PUT', `/api/admin/staff/${member.user.id}/role`, {
      token: owner.token,
      body: { role: 'auditor' },
    });
    expect(res.statusCode).toBe(202);
    expect((await approve(member, res.data.proposalId)).data).toEqual({
      error: MSG.proposalAboutYou,
      code: 'own_proposal',
    });
    expect((await approve(owner2, res.data.proposalId)).statusCode).toBe(200);
    const staff = await call(t, 'GET', '/api/admin/staff', { token: auditor.token });
    expect(staff.data.staff.find((s: { id: string }) => s.id === member.user.id)).toMatchObject({ role: 'auditor' });
  });

  it('Profile is told that changes to money need two staff members', async () => {
    const investor = await makeUser(t);
    expect((await call(t, 'GET', '/api/user/me', { token: investor.token })).data.user.fourEyes).toBe(true);
  });
});

describe('an approver with a passkey', () => {
  it('confirms exactly this proposal with it: none, or one made for another proposal, is refused', async () => {
    const site = siteOf(t.ctx.config.publicUrl);
    const approver = await makeUser(t, { role: 'finance' });
    const opts = await call(t, 'POST', '/api/user/passkeys/registration-options', {
      token: approver.token,
      body: { password: approver.password },
    });
    const made = createPasskey(site, opts.data.options);
    const added = await call(t, 'POST', '/api/user/passkeys', {
      token: approver.token,
      body: { name: 'Office key', response: made.response },
    });
    expect(added.statusCode).toBe(201);
    const stepUp = async (proposalId: string) => {
      const res = await call(t, 'POST', '/api/user/step-up', {
        token: approver.token,
        body: { purpose: 'approve_proposal', proposalId },
      });
      expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
      return assert(site, made.passkey, res.data.options.challenge);
    };
    const [ada, bo] = [await makeUser(t), await makeUser(t)];
    const first = (await setBalance(finance, ada.user.id, 10)).data.proposalId;
    const second = (await setBalance(finance, bo.user.id, 20)).data.proposalId;
    const approveWith = (id: string, passkey?: unknown) =>
      call(t, 'POST', `/api/admin/proposals/${id}/approve`, {
        token: approver.token,
        body: passkey ? { passkey } : {},
      });

    expect((await approveWith(first)).data.code).toBe('passkey_required');
    expect((await approveWith(first, await stepUp(second))).data.code).toBe('passkey_invalid');
    const forFirst = await stepUp(first);
    expect((await approveWith(first, forFirst)).statusCode).toBe(200);
    expect(await balanceOf(ada.user.id)).toBe(10_000_000n);
    // Used once: the same assertion cannot approve again, nor anything else.
    expect((await approveWith(second, forFirst)).data.code).toBe('passkey_invalid');
    expect(await balanceOf(bo.user.id)).toBe(0n);
    // An investor cannot even ask for such a challenge.
    const investorAsks = await call(t, 'POST', '/api/user/step-up', {
      token: ada.token,
      body: { purpose: 'approve_proposal', proposalId: second },
    });
    expect(investorAsks.data.code).toBe('forbidden_role');
  });
});

describe('staff invitations', () => {
  it('with four-eyes an invitation waits for a second owner; the e-mailed link sets the password', async () => {
    const owner2 = await makeUser(t, { role: 'owner' });
    const email = 'grace.hopper@example.com';
    const res = await call(t, 'POST', '/api/admin/staff/invite', {
      token: owner.token,
      body: { email, firstName: 'Grace', lastName: 'Hopper', role: 'support' },
    });
    expect(res.statusCode).toBe(202);
    expect((await approve(owner2, res.data.proposalId)).statusCode).toBe(200);
    const mail = await lastMail(t, email, 'You are invited to the Harvest Farm staff');
    const token = /\/staff-invite#token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    const joined = await call(t, 'POST', '/api/security/staff-invite', {
      body: { token, password: 'a-long-new-pass', confirmPassword: 'a-long-new-pass' },
    });
    expect(joined.data).toEqual({ message: MSG.staffJoined });
    const login = await signIn(t, { user: { email }, password: 'a-long-new-pass' });
    expect(login.statusCode).toBe(200);
    expect(login.data.user).toMatchObject({ isAdmin: true, role: 'support' });
    // The link works once.
    const again = await call(t, 'POST', '/api/security/staff-invite', {
      body: { token, password: 'another-pass-1', confirmPassword: 'another-pass-1' },
    });
    expect(again.data).toEqual({ error: MSG.linkInvalid, code: 'invalid_link' });
  });
});

// Last: it moves the clock a day on.
describe('a proposal nobody approves', () => {
  it('expires after 24 hours', async () => {
    const investor = await makeUser(t);
    const res = await setBalance(finance, investor.user.id, 7);
    t.clock.set(new Date(t.clock.now().getTime() + 24 * 3600_000));
    // Sessions last 12 hours: everyone signs in again.
    for (const u of [owner, finance, finance2, auditor])
      u.token = await sessionToken(t, u.user.id, u.user.tokenVersion);
    expect((await approve(finance2, res.data.proposalId)).data).toEqual({
      error: MSG.proposalExpired,
      code: 'proposal_closed',
    });
    expect(await balanceOf(investor.user.id)).toBe(0n);
    expect((await open()).proposals.some((p: { id: string }) => p.id === res.data.proposalId)).toBe(false);
    // The expired one makes way for a new proposal of the same change.
    expect((await setBalance(finance, investor.user.id, 7)).statusCode).toBe(202);
    expect((await setBalance(owner, investor.user.id, 8)).data).toEqual({
      error: MSG.proposalAlreadyOpen,
      code: 'proposal_closed',
    });
  });
});
