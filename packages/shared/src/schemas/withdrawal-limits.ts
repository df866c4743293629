import * as z from 'zod/mini';
import { TEXT } from '../texts.ts';
import { isoDate, saidFields, usdc, usdcAmount } from './common.ts';
import { SECURITY_EVENT_TYPES } from './security.ts';

/*
 * Withdrawal limits and holds: the platform's policy (administrators) and an investor's view of it (Profile).
 * Amounts are USDC; null is no limit.
 */

const limit = z.nullable(
  usdcAmount(TEXT.withdrawalLimitInvalid).check(z.refine((m) => m > 0n, TEXT.withdrawalLimitInvalid)),
);

/** `PUT /api/admin/withdrawal-policy`: every limit is sent (null turns it off). */
export const withdrawalPolicyBody = z.strictObject({
  perInvestorDay: limit,
  perInvestorMonth: limit,
  platformDay: limit,
});
export type WithdrawalPolicyInput = z.input<typeof withdrawalPolicyBody>;

export const withdrawalPolicySchema = z.object({
  perInvestorDay: z.nullable(usdc),
  perInvestorMonth: z.nullable(usdc),
  platformDay: z.nullable(usdc),
  /** Withdrawals of the whole platform counted in the last 24 hours. */
  platformUsedDay: usdc,
  /** Hours a security change holds an investor's withdrawals (SECURITY_HOLD_HOURS). */
  holdHours: z.number(),
  updatedAt: z.nullable(isoDate),
});
export type WithdrawalPolicy = z.infer<typeof withdrawalPolicySchema>;
export const withdrawalPolicyResponse = z.object({ policy: withdrawalPolicySchema });
export const withdrawalPolicySaved = z.object({ message: z.string(), ...saidFields, policy: withdrawalPolicySchema });

/** One of the investor's limits and what the withdrawals in its window already use of it. */
const limitUse = z.nullable(z.object({ limit: usdc, used: usdc }));

/** `GET /api/user/withdrawal-limits`: the investor's limits per 24 hours and per 30 days, and any hold. */
export const myWithdrawalLimitsResponse = z.object({
  day: limitUse,
  month: limitUse,
  hold: z.nullable(z.object({ until: isoDate, reason: z.enum(SECURITY_EVENT_TYPES) })),
  holdHours: z.number(),
});
export type MyWithdrawalLimits = z.infer<typeof myWithdrawalLimitsResponse>;
