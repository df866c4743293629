import { MSG } from '@harvest/shared/messages';
import { microToText, microToUsdc, scaledToRate } from '@harvest/shared/money';
import { type AdminTier } from '@harvest/shared/schemas/admin';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import * as q from './tiers-admin.queries.ts';

/**
 * Tier management. Investments copy the tier's name, amount and rate when they are bought,
 * so editing or deactivating a tier changes only what can be bought from now on.
 */

export function tierDto(t: q.TierRow): AdminTier {
  return {
    _id: t.id,
    name: t.name,
    amount: microToUsdc(t.amount),
    dailyRate: scaledToRate(t.dailyRateScaled),
    active: t.active,
    sortOrder: t.sortOrder,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** The audit snapshot of a tier: JSON-safe, amounts as exact decimal text. */
function snapshot(t: q.TierRow) {
  return {
    name: t.name,
    amount: microToText(t.amount),
    dailyRate: scaledToRate(t.dailyRateScaled),
    active: t.active,
    sortOrder: t.sortOrder,
  };
}

/** Investors buy a tier by its amount: an active tier's amount belongs to it alone. */
async function refuseTakenAmount(tx: Tx, amount: bigint, exceptId?: string): Promise<void> {
  const other = await q.activeTierWithAmount(tx, amount, exceptId);
  if (other) throw conflict(MSG.tierAmountTaken(other.name));
}

export async function listTiers(ctx: AppContext): Promise<AdminTier[]> {
  return (await q.allTiers(ctx.db)).map(tierDto);
}

export interface TierCreate {
  name: string;
  amount: bigint;
  dailyRate: number;
  active?: boolean;
  sortOrder?: number;
}

export async function createTier(ctx: AppContext, admin: AuthUser, input: TierCreate, ip: string): Promise<AdminTier> {
  return inTransaction(ctx.db, (tx) => applyTierCreate(ctx, tx, admin, input, ip));
}

/** A new tier, in the caller's transaction (the immediate call's, or a four-eyes approval's). */
export async function applyTierCreate(
  ctx: AppContext,
  tx: Tx,
  admin: AuthUser,
  input: TierCreate,
  ip: string,
): Promise<AdminTier> {
  if (input.active ?? true) await refuseTakenAmount(tx, input.amount);
  const tier = await q.insertTier(tx, {
    name: input.name,
    amount: input.amount,
    dailyRateScaled: input.dailyRate,
    active: input.active ?? true,
    sortOrder: input.sortOrder ?? 0,
    createdAt: ctx.clock.now(),
    updatedAt: ctx.clock.now(),
  });
  await writeAudit(tx, {
    adminId: admin.id,
    action: 'tier_create',
    targetType: 'tier',
    targetId: tier.id,
    before: null,
    after: snapshot(tier),
    at: ctx.clock.now(),
    ip,
  });
  return tierDto(tier);
}

export async function updateTier(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  input: Partial<TierCreate>,
  ip: string,
): Promise<AdminTier> {
  if (Object.values(input).every((v) => v === undefined)) throw badRequest(MSG.tierNothingToChange);
  // With four-eyes a one-person edit changes no amount or rate: one that differs from the tier under its lock (an
  // approved proposal changed it since the request was found to need one person) is refused, not written back.
  const money = ctx.config.fourEyes ? { amount: input.amount, dailyRate: input.dailyRate } : {};
  return inTransaction(ctx.db, (tx) => applyTierUpdate(ctx, tx, admin, id, input, ip, money));
}

/** A tier's editable fields, as a request names them. */
export const tierFields = (t: q.TierRow): Required<TierCreate> => ({
  name: t.name,
  amount: t.amount,
  dailyRate: t.dailyRateScaled,
  active: t.active,
  sortOrder: t.sortOrder,
});

/**
 * A tier's edit in the caller's transaction. `premise`: what each named field must still be under the tier's lock
 * (a four-eyes proposal's values as its proposer saw them); a tier that changed since is refused.
 */
export async function applyTierUpdate(
  ctx: AppContext,
  tx: Tx,
  admin: AuthUser,
  id: string,
  input: Partial<TierCreate>,
  ip: string,
  premise: Partial<TierCreate> = {},
): Promise<AdminTier> {
  const values = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.amount !== undefined ? { amount: input.amount } : {}),
    ...(input.dailyRate !== undefined ? { dailyRateScaled: input.dailyRate } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
    ...(input.sortOrder !== undefined ? { sortOrder: input.sortOrder } : {}),
  };
  const before = await q.lockTier(tx, id);
  if (!before) throw notFound();
  const now = tierFields(before);
  for (const [k, v] of Object.entries(premise) as [keyof TierCreate, unknown][])
    if (v !== undefined && now[k] !== v) throw conflict(MSG.proposalChanged, 'proposal_closed');
  if (input.active ?? before.active) await refuseTakenAmount(tx, input.amount ?? before.amount, id);
  const after = await q.updateTier(tx, id, { ...values, updatedAt: ctx.clock.now() });
  if (!after) throw notFound();
  await writeAudit(tx, {
    adminId: admin.id,
    action: 'tier_update',
    targetType: 'tier',
    targetId: id,
    before: snapshot(before),
    after: snapshot(after),
    at: ctx.clock.now(),
    ip,
  });
  return tierDto(after);
}
