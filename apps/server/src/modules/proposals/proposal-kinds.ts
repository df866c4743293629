import { z } from 'zod';
import { MSG } from '@harvest/shared/messages';
import { microToText, scaledToRate } from '@harvest/shared/money';
import { PROPOSAL_ABILITY, type ProposalChange, type ProposalKind } from '@harvest/shared/schemas/proposals';
import { ROLES, type Ability } from '@harvest/shared/staff';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { lockUserAccounts } from '../../ledger/ledger.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { applyWithdrawalsFrozen } from '../admin/admin-security.service.ts';
import { applyBalanceUpdate, applyDepositApproval } from '../deposits/deposits.admin.ts';
import { findDeposit, isUuid } from '../deposits/deposits.queries.ts';
import { applyInvite } from '../staff/staff-invites.service.ts';
import { applyRole, currentRole } from '../staff/staff.service.ts';
import { lockTier, tierById } from '../tiers-admin/tiers-admin.queries.ts';
import { applyTierCreate, applyTierUpdate, tierFields } from '../tiers-admin/tiers-admin.service.ts';
import { lockUser } from '../users/users.queries.ts';
import { decidePaid, provePaid } from '../withdrawals/withdrawals.service.ts';
import { lockPolicy } from '../withdrawal-limits/withdrawal-limits.queries.ts';
import { applyWithdrawalPolicy } from '../withdrawal-limits/withdrawal-limits.service.ts';
import { findWithdrawal } from '../withdrawals/withdrawals.queries.ts';

/**
 * The decisions four-eyes holds for a second staff member (FOUR_EYES=on). Each kind says who may propose and
 * approve it, what it shows and re-checks (its premise), and how it is applied: through the same service function
 * as the immediate call, inside the approval's transaction. A new kind is one more entry here.
 */

/** What a proposal shows, and what its approval re-checks (`check`, JSON-safe). */
export interface Shown {
  targetId: string;
  userId: string | null;
  changes: ProposalChange[];
  difference: bigint | null;
  detail: string | null;
  check: Record<string, string | boolean | null>;
}

/** The approval: who approves (`admin`), from where, and who proposed it. */
export interface By {
  admin: AuthUser;
  ip: string;
  proposerId: string;
}

interface KindDef<S extends z.ZodType> {
  ability: Ability;
  /** The stored input (JSON): what the proposing call asked for. */
  input: S;
  /** Whether this call needs a second person at all (default: yes). */
  needsTwo?(ctx: AppContext, input: z.output<S>): Promise<boolean>;
  /** Reads what the proposal shows under the locks of what it changes; refuses what could not be done now. */
  shows(ctx: AppContext, tx: Tx, admin: AuthUser, input: z.output<S>): Promise<Shown>;
  /** Anything read outside the transaction (a chain proof), then the part that runs in the approval's transaction. */
  approval(ctx: AppContext, input: z.output<S>, shown: Shown, by: By): Promise<(tx: Tx) => Promise<void>>;
}

/** A kind with its input parsed from the stored JSON (so the registry needs no casts). */
export interface Kind {
  ability: Ability;
  needsTwo(ctx: AppContext, json: unknown): Promise<boolean>;
  shows(ctx: AppContext, tx: Tx, admin: AuthUser, json: unknown): Promise<Shown>;
  approval(ctx: AppContext, json: unknown, shown: Shown, by: By): Promise<(tx: Tx) => Promise<void>>;
}

function define<S extends z.ZodType>(d: KindDef<S>): Kind & { input: S } {
  const parse = (json: unknown): z.output<S> => d.input.parse(json);
  return {
    ability: d.ability,
    input: d.input,
    needsTwo: async (ctx, json) => (d.needsTwo ? d.needsTwo(ctx, parse(json)) : true),
    shows: (ctx, tx, admin, json) => d.shows(ctx, tx, admin, parse(json)),
    approval: (ctx, json, shown, by) => d.approval(ctx, parse(json), shown, by),
  };
}

const micro = z
  .string()
  .regex(/^-?\d+$/)
  .transform((s) => BigInt(s));
const usdc = (m: bigint) => microToText(m);
const limit = micro.nullable();
const LIMITS = ['perInvestorDay', 'perInvestorMonth', 'platformDay'] as const;
const changed = () => conflict(MSG.proposalChanged, 'proposal_closed');

export const KINDS = {
  balance_update: define({
    ability: PROPOSAL_ABILITY.balance_update,
    input: z.object({ userId: z.string(), newBalance: micro, note: z.string(), expectedBalance: micro.optional() }),
    async shows(_ctx, tx, _admin, input) {
      if (!isUuid(input.userId)) throw notFound(MSG.notFound);
      const current = (await lockUserAccounts(tx, [input.userId])).get(`${input.userId}:balance`);
      if (current === undefined) throw notFound(MSG.notFound);
      if (input.expectedBalance !== undefined && input.expectedBalance !== current)
        throw new AppError('balance_changed', MSG.balanceChanged(current));
      return {
        targetId: input.userId,
        userId: input.userId,
        changes: [{ field: 'balance', before: usdc(current), after: usdc(input.newBalance) }],
        difference: input.newBalance - current,
        detail: input.note,
        check: { balance: current.toString() },
      };
    },
    async approval(ctx, input, shown, by) {
      const expected = micro.parse(shown.check.balance);
      return (tx) =>
        applyBalanceUpdate(
          ctx,
          tx,
          { admin: by.admin, proposerId: by.proposerId },
          { ...input, expectedBalance: expected },
          by.ip,
        );
    },
  }),

  deposit_approve: define({
    ability: PROPOSAL_ABILITY.deposit_approve,
    input: z.object({ depositId: z.string() }),
    async shows(_ctx, tx, _admin, input) {
      const d = isUuid(input.depositId) ? await findDeposit(tx, input.depositId) : undefined;
      if (!d) throw notFound(MSG.notFound);
      if (d.status !== 'pending') throw conflict(MSG.depositNotPending);
      const balance = (await lockUserAccounts(tx, [d.userId])).get(`${d.userId}:balance`) ?? 0n;
      return {
        targetId: d.id,
        userId: d.userId,
        changes: [{ field: 'balance', before: usdc(balance), after: usdc(balance + d.amount) }],
        difference: d.amount,
        detail: d.txHash,
        check: { amount: d.amount.toString(), txHash: d.txHash },
      };
    },
    async approval(ctx, input, shown, by) {
      return async (tx) => {
        // A failed deposit its owner corrected (new hash, new amount) is not the one the proposer saw.
        const d = await findDeposit(tx, input.depositId);
        if (d && (d.amount.toString() !== shown.check.amount || d.txHash !== shown.check.txHash)) throw changed();
        await applyDepositApproval(ctx, tx, by.admin, input.depositId, by.ip);
      };
    },
  }),

  withdrawal_approve: define({
    ability: PROPOSAL_ABILITY.withdrawal_approve,
    input: z.object({ withdrawalId: z.string(), txHash: z.string(), notes: z.string().nullable() }),
    async needsTwo(ctx, input) {
      const w = isUuid(input.withdrawalId) ? await findWithdrawal(ctx.db, input.withdrawalId) : undefined;
      return !!w && w.netAmount > ctx.config.fourEyesWithdrawalMicro;
    },
    async shows(_ctx, tx, _admin, input) {
      const w = await findWithdrawal(tx, input.withdrawalId);
      if (!w) throw notFound();
      if (w.status !== 'pending') throw conflict(MSG.withdrawalNotPending);
      return {
        targetId: w.id,
        userId: w.userId,
        changes: [{ field: 'amount', before: null, after: usdc(w.netAmount) }],
        difference: -w.netAmount,
        detail: input.txHash,
        check: { netAmount: w.netAmount.toString() },
      };
    },
    async approval(ctx, input, _shown, by) {
      const paid = await provePaid(ctx, { withdrawalIds: [input.withdrawalId], txHash: input.txHash });
      return async (tx) => {
        await decidePaid(ctx, tx, by, { ...input, withdrawalIds: [input.withdrawalId], foundOnChain: false }, paid);
      };
    },
  }),

  tier_update: define({
    ability: PROPOSAL_ABILITY.tier_update,
    input: z.object({
      tierId: z.string(),
      name: z.string().optional(),
      amount: micro.optional(),
      dailyRate: z.number().int().optional(),
      active: z.boolean().optional(),
      sortOrder: z.number().int().optional(),
    }),
    // Only a new amount or rate changes what investors are paid; a name or order is not a money decision. A field
    // the request repeats unchanged (the web's form sends them all) changes nothing.
    async needsTwo(ctx, input) {
      const t = isUuid(input.tierId) ? await tierById(ctx.db, input.tierId) : undefined;
      if (!t) return false;
      return (
        (input.amount !== undefined && input.amount !== t.amount) ||
        (input.dailyRate !== undefined && input.dailyRate !== t.dailyRateScaled)
      );
    },
    // The approver sees every field the approval will change, and nothing else is changed: it re-checks each of
    // them (and the amount and rate) as they were, and an edit made meanwhile makes it stale, not overwritten.
    async shows(_ctx, tx, _admin, input) {
      const t = isUuid(input.tierId) ? await lockTier(tx, input.tierId) : undefined;
      if (!t) throw notFound();
      const was = tierFields(t);
      const changes: ProposalChange[] = [];
      const check: Shown['check'] = { amount: t.amount.toString(), dailyRate: String(t.dailyRateScaled) };
      if (input.name !== undefined && input.name !== was.name) {
        changes.push({ field: 'name', before: was.name, after: input.name });
        check.name = was.name;
      }
      if (input.amount !== undefined && input.amount !== was.amount)
        changes.push({ field: 'amount', before: usdc(was.amount), after: usdc(input.amount) });
      if (input.dailyRate !== undefined && input.dailyRate !== was.dailyRate)
        changes.push({
          field: 'dailyRate',
          before: String(scaledToRate(was.dailyRate)),
          after: String(scaledToRate(input.dailyRate)),
        });
      if (input.active !== undefined && input.active !== was.active) {
        changes.push({ field: 'active', before: String(was.active), after: String(input.active) });
        check.active = was.active;
      }
      if (input.sortOrder !== undefined && input.sortOrder !== was.sortOrder) {
        changes.push({ field: 'sortOrder', before: String(was.sortOrder), after: String(input.sortOrder) });
        check.sortOrder = String(was.sortOrder);
      }
      return { targetId: t.id, userId: null, changes, difference: null, detail: t.name, check };
    },
    async approval(ctx, { tierId, ...input }, shown, by) {
      const c = shown.check;
      const premise = {
        amount: micro.parse(c.amount),
        dailyRate: Number(c.dailyRate),
        ...(typeof c.name === 'string' ? { name: c.name } : {}),
        ...(typeof c.active === 'boolean' ? { active: c.active } : {}),
        ...(typeof c.sortOrder === 'string' ? { sortOrder: Number(c.sortOrder) } : {}),
      };
      // Exactly the changes shown: a field the request repeated unchanged is not written.
      const shownFields = new Set<string>(shown.changes.map((ch) => ch.field));
      const only = Object.fromEntries(Object.entries(input).filter(([k]) => shownFields.has(k)));
      return async (tx) => {
        await applyTierUpdate(ctx, tx, by.admin, tierId, only, by.ip, premise);
      };
    },
  }),

  tier_create: define({
    ability: PROPOSAL_ABILITY.tier_create,
    input: z.object({
      name: z.string(),
      amount: micro,
      dailyRate: z.number().int(),
      active: z.boolean().optional(),
      sortOrder: z.number().int().optional(),
    }),
    async shows(_ctx, _tx, _admin, input) {
      return {
        targetId: `new:${input.name}`,
        userId: null,
        changes: [
          { field: 'amount', before: null, after: usdc(input.amount) },
          { field: 'dailyRate', before: null, after: String(scaledToRate(input.dailyRate)) },
        ],
        difference: null,
        detail: input.name,
        check: {},
      };
    },
    async approval(ctx, input, _shown, by) {
      // An active tier of the same amount made meanwhile refuses it here, as it would the immediate call.
      return async (tx) => {
        await applyTierCreate(ctx, tx, by.admin, input, by.ip);
      };
    },
  }),

  withdrawals_unfreeze: define({
    ability: PROPOSAL_ABILITY.withdrawals_unfreeze,
    input: z.object({ userId: z.string(), note: z.string().optional() }),
    async shows(_ctx, tx, _admin, input) {
      const u = isUuid(input.userId) ? await lockUser(tx, input.userId) : undefined;
      if (!u) throw notFound();
      return {
        targetId: u.id,
        userId: u.id,
        changes: [{ field: 'withdrawalsFrozen', before: String(u.withdrawalsFrozen), after: 'false' }],
        difference: null,
        detail: input.note ?? null,
        check: { frozen: u.withdrawalsFrozen },
      };
    },
    async approval(ctx, input, _shown, by) {
      return async (tx) => {
        const u = await lockUser(tx, input.userId);
        if (!u?.withdrawalsFrozen) throw changed();
        await applyWithdrawalsFrozen(ctx, tx, by.admin, input.userId, { frozen: false, note: input.note }, by.ip);
      };
    },
  }),

  staff_role: define({
    ability: PROPOSAL_ABILITY.staff_role,
    input: z.object({ userId: z.string(), role: z.enum(ROLES).nullable() }),
    async shows(_ctx, tx, admin, input) {
      if (!isUuid(input.userId)) throw notFound();
      const before = await currentRole(tx, admin, input.userId);
      return {
        targetId: input.userId,
        userId: input.userId,
        changes: [{ field: 'role', before, after: input.role }],
        difference: null,
        detail: null,
        check: { role: before },
      };
    },
    async approval(ctx, input, shown, by) {
      const premise = z.enum(ROLES).parse(shown.check.role);
      return (tx) => applyRole(ctx, tx, by.admin, input.userId, input.role, by.ip, premise);
    },
  }),

  staff_invite: define({
    ability: PROPOSAL_ABILITY.staff_invite,
    input: z.object({ email: z.string(), firstName: z.string(), lastName: z.string(), role: z.enum(ROLES) }),
    async shows(_ctx, _tx, _admin, input) {
      return {
        targetId: input.email,
        userId: null,
        changes: [{ field: 'role', before: null, after: input.role }],
        difference: null,
        detail: `${input.firstName} ${input.lastName} <${input.email}>`,
        check: {},
      };
    },
    async approval(ctx, input, _shown, by) {
      return (tx) => applyInvite(ctx, tx, by.admin, input, by.ip);
    },
  }),

  withdrawal_policy: define({
    ability: PROPOSAL_ABILITY.withdrawal_policy,
    input: z.object({ perInvestorDay: limit, perInvestorMonth: limit, platformDay: limit }),
    async shows(_ctx, tx, _admin, input) {
      const now = await lockPolicy(tx);
      const text = (v: bigint | null) => (v === null ? null : usdc(v));
      return {
        targetId: 'withdrawal_policy',
        userId: null,
        changes: LIMITS.filter((f) => now[f] !== input[f]).map((f) => ({
          field: f,
          before: text(now[f]),
          after: text(input[f]),
        })),
        difference: null,
        detail: null,
        check: Object.fromEntries(LIMITS.map((f) => [f, now[f]?.toString() ?? null])),
      };
    },
    async approval(ctx, input, shown, by) {
      return async (tx) => {
        // Limits changed meanwhile (by another approval): the proposal showed other figures.
        const now = await lockPolicy(tx);
        if (LIMITS.some((f) => (now[f]?.toString() ?? null) !== shown.check[f])) throw changed();
        await applyWithdrawalPolicy(ctx, tx, by.admin, input, by.ip);
      };
    },
  }),
} satisfies Record<ProposalKind, Kind>;

export type ProposalInput<K extends ProposalKind> = z.input<(typeof KINDS)[K]['input']>;
