import { MSG } from '@harvest/shared/messages';
import { microToText, microToUsdc } from '@harvest/shared/money';
import type { SecurityEventType } from '@harvest/shared/schemas/security';
import type { MyWithdrawalLimits, WithdrawalPolicy } from '@harvest/shared/schemas/withdrawal-limits';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { AppError } from '../../lib/errors.ts';
import { timeText } from '../../mail/templates.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import * as q from './withdrawal-limits.queries.ts';

const DAY_MS = 24 * 3600_000;
/** The rolling windows of the limits, by the injected clock. */
const WINDOW_MS = { day: DAY_MS, month: 30 * DAY_MS } as const;
type Window = keyof typeof WINDOW_MS;

const holdMs = (ctx: AppContext) => ctx.config.SECURITY_HOLD_HOURS * 3600_000;
const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);
const usdcOrNull = (m: bigint | null) => (m === null ? null : microToUsdc(m));

// ---------------------------------------------------------------- holds

export interface Hold {
  until: Date;
  reason: SecurityEventType;
}

/** The hold on the investor's withdrawals now: SECURITY_HOLD_HOURS after the newest event of the hold list. */
export async function holdOf(db: Db, ctx: AppContext, userId: string): Promise<Hold | null> {
  const ms = holdMs(ctx);
  const trigger = await q.latestHoldTrigger(db, userId, ago(ctx.clock.now(), ms), ms);
  return trigger ? { until: new Date(trigger.at.getTime() + ms), reason: trigger.type } : null;
}

/** Refuses Withdraw All inside a hold, saying when it becomes possible. */
export async function refuseHeld(db: Db, ctx: AppContext, userId: string): Promise<void> {
  const hold = await holdOf(db, ctx, userId);
  if (!hold) return;
  const shown = timeText(hold.until, ctx.config.PLATFORM_TIMEZONE);
  throw new AppError('withdrawal_hold', MSG.withdrawalHold(ctx.config.SECURITY_HOLD_HOURS, hold.until, shown));
}

// ---------------------------------------------------------------- limits

/**
 * When `amount` more fits under `limit` in a rolling window, the counted requests (oldest first) leaving it one
 * by one: the moment the last one that must leave has left.
 */
export function possibleAgainAt(
  requests: { at: Date; amount: bigint }[],
  amount: bigint,
  limit: bigint,
  windowMs: number,
): Date {
  let used = requests.reduce((n, r) => n + r.amount, 0n);
  let at = new Date(0);
  for (const r of requests) {
    if (used + amount <= limit) break;
    used -= r.amount;
    at = new Date(r.at.getTime() + windowMs);
  }
  return at;
}

/** Throws the refusal when what is counted in the window (this request included) goes over `limit`. */
async function refuseOver(
  tx: Db,
  ctx: AppContext,
  o: { userId: string | null; requestId: string; amount: bigint; limit: bigint | null; window: Window },
): Promise<void> {
  if (o.limit === null) return;
  const now = ctx.clock.now();
  const since = ago(now, WINDOW_MS[o.window]);
  if ((await q.usedSince(tx, since, o.userId)) <= o.limit) return;
  const support = ctx.config.SUPPORT_EMAIL;
  if (o.amount > o.limit)
    throw new AppError(
      'withdrawal_limit',
      o.userId ? MSG.aboveLimit(o.window, o.amount, o.limit, support) : MSG.abovePlatformLimit(o.amount, support),
    );
  const before = (await q.requestsSince(tx, since, o.userId)).filter((r) => r.requestId !== o.requestId);
  const at = possibleAgainAt(before, o.amount, o.limit, WINDOW_MS[o.window]);
  const shown = timeText(at, ctx.config.PLATFORM_TIMEZONE);
  throw new AppError(
    'withdrawal_limit',
    o.userId ? MSG.overLimit(o.window, o.amount, o.limit, at, shown) : MSG.overPlatformLimit(at, shown),
  );
}

/**
 * Withdraw All's limits, in its transaction once its withdrawals are inserted (`amount`, gross), the owner's accounts
 * locked so their requests queue: the investor's per 24 hours and per 30 days, then the platform's per 24 hours under
 * the policy row's lock, held to the commit, so parallel requests of different investors count one after the other.
 * A refusal rolls the request back: nothing moves.
 */
export async function refuseOverLimits(
  tx: Db,
  ctx: AppContext,
  o: { userId: string; requestId: string; amount: bigint },
): Promise<void> {
  const policy = await q.readPolicy(tx);
  await refuseOver(tx, ctx, { ...o, limit: policy.perInvestorDay, window: 'day' });
  await refuseOver(tx, ctx, { ...o, limit: policy.perInvestorMonth, window: 'month' });
  if (policy.platformDay === null) return;
  const locked = await q.lockPolicy(tx);
  await refuseOver(tx, ctx, { ...o, userId: null, limit: locked.platformDay, window: 'day' });
}

// ---------------------------------------------------------------- what people see

async function policyDto(db: Db, ctx: AppContext, p: q.PolicyRow): Promise<WithdrawalPolicy> {
  return {
    perInvestorDay: usdcOrNull(p.perInvestorDay),
    perInvestorMonth: usdcOrNull(p.perInvestorMonth),
    platformDay: usdcOrNull(p.platformDay),
    platformUsedDay: microToUsdc(await q.usedSince(db, ago(ctx.clock.now(), DAY_MS), null)),
    holdHours: ctx.config.SECURITY_HOLD_HOURS,
    updatedAt: p.updatedAt?.toISOString() ?? null,
  };
}

export async function getWithdrawalPolicy(ctx: AppContext): Promise<WithdrawalPolicy> {
  return policyDto(ctx.db, ctx, await q.readPolicy(ctx.db));
}

export interface PolicyInput {
  perInvestorDay: bigint | null;
  perInvestorMonth: bigint | null;
  platformDay: bigint | null;
}

const snapshot = (p: PolicyInput) => ({
  perInvestorDay: p.perInvestorDay === null ? null : microToText(p.perInvestorDay),
  perInvestorMonth: p.perInvestorMonth === null ? null : microToText(p.perInvestorMonth),
  platformDay: p.platformDay === null ? null : microToText(p.platformDay),
});

/**
 * The one way the policy changes (an administrator's decision, audited before and after). Under the policy row's
 * lock, so it waits for the Withdraw All requests counting against the platform limit.
 */
export async function setWithdrawalPolicy(
  ctx: AppContext,
  admin: AuthUser,
  input: PolicyInput,
  ip: string,
): Promise<WithdrawalPolicy> {
  return inTransaction(ctx.db, (tx) => applyWithdrawalPolicy(ctx, tx, admin, input, ip));
}

/** The change itself, in the caller's transaction (the immediate call's, or a four-eyes approval's). */
export async function applyWithdrawalPolicy(
  ctx: AppContext,
  tx: Tx,
  admin: AuthUser,
  input: PolicyInput,
  ip: string,
): Promise<WithdrawalPolicy> {
  const now = ctx.clock.now();
  const before = await q.lockPolicy(tx);
  const after = await q.updatePolicy(tx, { ...input, updatedAt: now, updatedBy: admin.id });
  await writeAudit(tx, {
    adminId: admin.id,
    action: 'withdrawal_policy_change',
    targetType: 'withdrawal_policy',
    targetId: '1',
    before: snapshot(before),
    after: snapshot(after),
    at: now,
    ip,
  });
  return policyDto(tx, ctx, after);
}

/** Profile: the investor's limits, what their withdrawals use of each now, and any hold. */
export async function myWithdrawalLimits(ctx: AppContext, userId: string): Promise<MyWithdrawalLimits> {
  const policy = await q.readPolicy(ctx.db);
  const now = ctx.clock.now();
  const use = async (limit: bigint | null, window: Window) =>
    limit === null
      ? null
      : {
          limit: microToUsdc(limit),
          used: microToUsdc(await q.usedSince(ctx.db, ago(now, WINDOW_MS[window]), userId)),
        };
  const hold = await holdOf(ctx.db, ctx, userId);
  return {
    day: await use(policy.perInvestorDay, 'day'),
    month: await use(policy.perInvestorMonth, 'month'),
    hold: hold && { until: hold.until.toISOString(), reason: hold.reason },
    holdHours: ctx.config.SECURITY_HOLD_HOURS,
  };
}
