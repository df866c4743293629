import * as z from 'zod/mini';
import { isoDate, usdc } from './common.ts';

export const cycleEarningSchema = z.object({
  _id: z.string(),
  cycleNumber: z.number(),
  grossAmount: usdc,
  withdrawalRequested: z.boolean(),
  createdAt: isoDate,
});

/** The spec's Investment (active) entity. */
export const investmentSchema = z.object({
  _id: z.string(),
  tier: z.string(),
  amount: usdc,
  dailyRate: z.number(),
  totalEarned: usdc,
  earningStarted: z.boolean(),
  earningCompleted: z.boolean(),
  cycleEndTime: z.nullable(isoDate),
  withdrawalApprovedAt: z.nullable(isoDate),
  nextCycleAvailableAt: z.nullable(isoDate),
  /** Platform calendar day (YYYY-MM-DD) of the last cycle start; a new cycle may start on a later day. */
  lastCycleDay: z.nullable(z.string()),
  createdAt: isoDate,
  cycleEarnings: z.array(cycleEarningSchema),
});
export type Investment = z.infer<typeof investmentSchema>;

/**
 * Account summary, every figure read from the ledger (docs/decisions):
 * balance = `balance` account; totalInvestment = `invested`; referralRewards = lifetime rewards
 * earned; totalEarnings = lifetime cycle earnings (gross); availableToWithdraw = unrequested
 * earnings + rewards + balance; pendingApproval = `pending_withdrawal` (held, gross);
 * successfullyWithdrawn = net amount of approved withdrawals.
 */
export const accountSummarySchema = z.object({
  balance: usdc,
  totalInvestment: usdc,
  referralRewards: usdc,
  withdrawalWallet: z.nullable(z.string()),
  totalEarnings: usdc,
  availableToWithdraw: usdc,
  pendingApproval: usdc,
  successfullyWithdrawn: usdc,
});
export type AccountSummary = z.infer<typeof accountSummarySchema>;

export const dashboardResponse = z.object({
  accountSummary: accountSummarySchema,
  activeInvestments: z.array(investmentSchema),
  /** Server time, so countdowns on screens follow the platform clock. */
  serverTime: isoDate,
  /** Platform calendar day (YYYY-MM-DD, PLATFORM_TIMEZONE) at serverTime: compare with an investment's lastCycleDay. */
  platformDay: z.optional(z.string()),
  /** Whether serverTime is Monday to Friday in the platform time zone (cycles start and complete only then). */
  platformWeekday: z.optional(z.boolean()),
  /**
   * A cycle started at serverTime: when it would end, and when it could first be completed (Monday to Friday rule):
   * later than its end when it would end at the weekend. The start button warns before the investor starts it.
   */
  cycleStartedNow: z.optional(z.object({ endTime: isoDate, completableFrom: isoDate })),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;
