import { CYCLE_MS, REFERRAL_RATES_PERCENT } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import { cycleEarning, percentOf, rateToScaled } from '@harvest/shared/money';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { inTransaction, type OnceKey } from '../../db/tx.ts';
import { lockUserAccounts, post } from '../../ledger/ledger.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { isWeekday, platformDay } from '../../lib/time.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { referrerChain } from '../referrals/referrals.queries.ts';
import { findActiveTiersByAmount, lockTierForInvest, type TierRow } from '../tiers/tiers.queries.ts';
import * as q from './investments.queries.ts';

/** What the investor confirmed: the tier (`tierId`, its amount, the daily rate shown), or the spec's amount alone. */
export interface InvestChoice {
  amount: bigint;
  tierId?: string;
  dailyRate?: number;
}

/**
 * The tier the investor confirmed, read (and share-locked) in the buying transaction, so an edit or a
 * deactivation either happens before it (refused: 'This tier changed') or waits for it. An amount alone
 * must fit exactly one active tier: two tiers of one amount are never told apart by guessing.
 */
async function confirmedTier(tx: Tx, choice: InvestChoice): Promise<TierRow> {
  if (choice.tierId === undefined) {
    const matches = await findActiveTiersByAmount(tx, choice.amount);
    if (matches.length > 1) throw badRequest(MSG.tierAmbiguous);
    if (!matches[0]) throw badRequest(MSG.noSuchTier);
    return matches[0];
  }
  const tier = await lockTierForInvest(tx, choice.tierId);
  if (!tier) throw notFound();
  const rate = choice.dailyRate === undefined ? null : rateToScaled(choice.dailyRate);
  if (
    !tier.active ||
    tier.amount !== choice.amount ||
    (choice.dailyRate !== undefined && rate !== BigInt(tier.dailyRateScaled))
  )
    throw new AppError('tier_changed', MSG.tierChanged);
  return tier;
}

/**
 * Buys the tier the investor confirmed, paid from the `balance` account, and pays the 10/3/1%
 * referral rewards to up to three levels of referrers, all in one transaction. The investor's and
 * referrers' accounts are locked first (fixed order), so two parallel purchases cannot spend the
 * same balance.
 */
export async function invest(
  ctx: AppContext,
  user: AuthUser,
  choice: InvestChoice,
  key?: OnceKey | null,
): Promise<{ investment: q.InvestmentRow }> {
  const now = ctx.clock.now();
  if (!isWeekday(now, ctx.config.PLATFORM_TIMEZONE)) throw badRequest(MSG.weekdayInvest, 'weekday_only');

  return inTransaction(
    ctx.db,
    async (tx) => {
      const tier = await confirmedTier(tx, choice);
      const referrers = await referrerChain(tx, user.id);
      const balances = await lockUserAccounts(tx, [user.id, ...referrers.map((r) => r.userId)]);
      if ((balances.get(`${user.id}:balance`) ?? 0n) < tier.amount)
        throw badRequest(MSG.investInsufficientBalance, 'insufficient_funds');

      const investment = await q.insertInvestment(tx, {
        userId: user.id,
        tierId: tier.id,
        tierName: tier.name,
        amount: tier.amount,
        dailyRateScaled: tier.dailyRateScaled,
        createdAt: now,
      });
      await post(tx, {
        kind: 'investment',
        refId: investment.id,
        memo: `Tier ${tier.name}`,
        createdAt: now,
        insufficientMessage: MSG.investInsufficientBalance,
        legs: [
          { account: { userId: user.id, kind: 'balance' }, amount: -tier.amount },
          { account: { userId: user.id, kind: 'invested' }, amount: tier.amount },
        ],
      });

      for (const ref of referrers) {
        const rate = REFERRAL_RATES_PERCENT[ref.level - 1];
        if (rate === undefined) continue;
        const reward = percentOf(tier.amount, rate);
        if (reward <= 0n) continue;
        const row = await q.insertReferralReward(tx, {
          userId: ref.userId,
          fromUserId: user.id,
          investmentId: investment.id,
          level: ref.level,
          amount: reward,
          createdAt: now,
        });
        await post(tx, {
          kind: 'referral_reward',
          refId: row.id,
          memo: `Level ${ref.level} reward`,
          createdAt: now,
          legs: [
            { account: { userId: ref.userId, kind: 'rewards' }, amount: reward },
            { account: { platform: 'platform_reward_expense' }, amount: -reward },
          ],
        });
      }
      return { investment };
    },
    key,
  );
}

/**
 * Starts an 8-hour earning cycle (docs/DOMAIN.md, Earning cycles): Monday to Friday in the platform time zone, not
 * while one runs, not before nextCycleAvailableAt, at most one start per platform day.
 * The row lock plus the conditional update make parallel starts create one cycle.
 */
export async function startEarning(
  ctx: AppContext,
  user: AuthUser,
  investmentId: string,
  key?: OnceKey | null,
): Promise<{ investment: q.InvestmentRow }> {
  const now = ctx.clock.now();
  const tz = ctx.config.PLATFORM_TIMEZONE;
  return inTransaction(
    ctx.db,
    async (tx) => {
      const inv = await q.lockOwnInvestment(tx, user.id, investmentId);
      if (!inv) throw notFound();
      if (inv.earningStarted) throw conflict(MSG.cycleRunning);
      if (!isWeekday(now, tz)) throw badRequest(MSG.weekdayStart, 'weekday_only');
      if (inv.nextCycleAvailableAt && now < inv.nextCycleAvailableAt)
        throw badRequest(MSG.cooldown(inv.nextCycleAvailableAt.getTime() - now.getTime()), 'too_early');
      const day = platformDay(now, tz);
      if (inv.lastCycleDay === day) throw conflict(MSG.alreadyToday);
      const updated = await q.markCycleStarted(tx, inv.id, now, new Date(now.getTime() + CYCLE_MS), day);
      if (!updated) throw conflict(MSG.cycleRunning);
      return { investment: updated };
    },
    key,
  );
}

/**
 * Completes the running cycle once its 8 hours are over, Monday to Friday: records cycle
 * earning n (gross = amount x dailyRate / 100, rounded down) into `earnings` and clears the
 * running state (cycleEndTime back to null). Parallel completes record one earning.
 */
export async function completeCycle(
  ctx: AppContext,
  user: AuthUser,
  investmentId: string,
  key?: OnceKey | null,
): Promise<{ investment: q.InvestmentRow; gross: bigint }> {
  const now = ctx.clock.now();
  return inTransaction(
    ctx.db,
    async (tx) => {
      const inv = await q.lockOwnInvestment(tx, user.id, investmentId);
      if (!inv) throw notFound();
      if (!inv.earningStarted || !inv.cycleEndTime) throw conflict(MSG.notRunning);
      if (now < inv.cycleEndTime)
        throw badRequest(MSG.cycleNotFinished(inv.cycleEndTime.getTime() - now.getTime()), 'too_early');
      if (!isWeekday(now, ctx.config.PLATFORM_TIMEZONE)) throw badRequest(MSG.weekendComplete, 'weekday_only');

      const cycleNumber = inv.cyclesCompleted + 1;
      const gross = cycleEarning(inv.amount, BigInt(inv.dailyRateScaled));
      const updated = await q.markCycleCompleted(tx, inv.id, cycleNumber, gross, now);
      if (!updated) throw conflict(MSG.notRunning);
      const earning = await q.insertCycleEarning(tx, {
        investmentId: inv.id,
        userId: user.id,
        cycleNumber,
        grossAmount: gross,
        createdAt: now,
      });
      if (gross > 0n) {
        await post(tx, {
          kind: 'cycle_earning',
          refId: earning.id,
          memo: `Cycle ${cycleNumber}`,
          createdAt: now,
          legs: [
            { account: { userId: user.id, kind: 'earnings' }, amount: gross },
            { account: { platform: 'platform_earning_expense' }, amount: -gross },
          ],
        });
      }
      return { investment: updated, gross };
    },
    key,
  );
}

export const completedMessage = (gross: bigint) => MSG.cycleCompleted(gross);
