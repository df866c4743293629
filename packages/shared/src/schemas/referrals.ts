import * as z from 'zod/mini';
import { isoDate, usdc } from './common.ts';
import { userRefSchema } from './user.ts';

/** A member of the caller's network and when they joined. */
export const referralEntrySchema = z.extend(userRefSchema, { createdAt: isoDate });

export const referralTreeSchema = z.object({
  totalReferrals: z.number(),
  level1: z.array(referralEntrySchema),
  level2: z.array(referralEntrySchema),
  level3: z.array(referralEntrySchema),
  /** Exact member count per level; the lists hold at most the newest 1000 members each. */
  level1Count: z.optional(z.number()),
  level2Count: z.optional(z.number()),
  level3Count: z.optional(z.number()),
});
export type ReferralTree = z.infer<typeof referralTreeSchema>;

/** GET /user/referrals: the rewards the caller's network produced. */
export const referralRewardSchema = z.object({
  _id: z.string(),
  level: z.number(),
  amount: usdc,
  fromUser: z.omit(userRefSchema, { _id: true }),
  investmentAmount: usdc,
  createdAt: isoDate,
});
export const referralsResponse = z.object({ referrals: z.array(referralRewardSchema), totalRewards: usdc });
export type ReferralsResponse = z.infer<typeof referralsResponse>;
