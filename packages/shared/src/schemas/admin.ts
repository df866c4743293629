import { z } from 'zod';
import { ANALYTICS_PERIODS } from '../constants.ts';
import { MSG } from '../messages.ts';
import { rateToScaled } from '../money.ts';
import { idSchema, isoDate, pageInfo, pageQuery, searchText, usdc, usdcAmount } from './common.ts';
import { adminDepositSchema } from './deposits.ts';
import { referralRewardSchema, referralTreeSchema } from './referrals.ts';
import { userRefSchema, userSchema } from './user.ts';
import { adminWithdrawalSchema } from './withdrawals.ts';

// ------------------------------------------------------------------ overview

export const adminDashboardResponse = z.object({
  metrics: z.object({
    totalUsers: z.number(),
    /** Confirmed demo and on-chain deposits. */
    totalDeposits: usdc,
    /** Admin balance adjustments, net of reductions (not deposits). */
    totalAdjustments: usdc,
    totalInvestments: usdc,
    pendingDeposits: z.number(),
    pendingWithdrawals: z.number(),
  }),
  recentActivity: z.object({ deposits: z.array(adminDepositSchema), withdrawals: z.array(adminWithdrawalSchema) }),
});
export type AdminDashboard = z.infer<typeof adminDashboardResponse>;

// ------------------------------------------------------------------ analytics

const PERIOD_TEXTS = ANALYTICS_PERIODS.map(String);
export const analyticsQuery = z.strictObject({
  period: z
    .string({ error: MSG.invalidPeriod })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return 30;
      if (!PERIOD_TEXTS.includes(v)) {
        ctx.addIssue({ code: 'custom', message: MSG.invalidPeriod });
        return z.NEVER;
      }
      return Number(v);
    }),
  t: z.string().max(30).optional(),
});

export const dayCount = z.object({ _id: z.string(), count: z.number() });
export const dayAmount = z.object({ _id: z.string(), totalAmount: usdc, count: z.number() });
export const analyticsResponse = z.object({
  period: z.number(),
  timeZone: z.string(),
  summary: z.object({ totalUsers: z.number(), totalInvestments: usdc, totalDeposits: usdc, totalAdjustments: usdc }),
  userGrowth: z.array(dayCount),
  investmentTrends: z.array(dayAmount),
  depositTrends: z.array(dayAmount),
});
export type Analytics = z.infer<typeof analyticsResponse>;

// ------------------------------------------------------------------ users

export const adminUsersQuery = pageQuery.extend({ search: searchText });

/** A user in the back-office list: the user's public fields plus the account figures (spec section 3). */
export const adminUserSchema = userSchema
  .pick({
    _id: true,
    firstName: true,
    lastName: true,
    email: true,
    phone: true,
    isAdmin: true,
    isBlocked: true,
    createdAt: true,
    withdrawalWallet: true,
  })
  .extend({
    balance: usdc,
    totalInvestment: usdc,
    totalEarnings: usdc,
    referralRewards: usdc,
    totalDeposits: usdc,
    totalAdjustments: usdc,
  });
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUsersResponse = pageInfo.extend({ users: z.array(adminUserSchema) });
export type AdminUsersPage = z.infer<typeof adminUsersResponse>;

export const adminUserDepositsResponse = pageInfo.extend({ deposits: z.array(adminDepositSchema) });
export type AdminUserDeposits = z.infer<typeof adminUserDepositsResponse>;

// ------------------------------------------------------------------ referrals

export const adminReferralLookupResponse = z.object({
  user: userRefSchema,
  /** Level lists hold at most `listLimit` newest entries each; the counts are exact. */
  tree: referralTreeSchema,
  counts: z.object({ level1: z.number(), level2: z.number(), level3: z.number() }),
  listLimit: z.number(),
  rewards: z.object({
    total: usdc,
    byLevel: z.array(z.object({ level: z.number(), count: z.number(), amount: usdc })),
    recent: z.array(referralRewardSchema),
  }),
});
export type AdminReferralLookup = z.infer<typeof adminReferralLookupResponse>;

// ------------------------------------------------------------------ tiers

export const adminTierSchema = z.object({
  _id: z.string(),
  name: z.string(),
  amount: usdc,
  dailyRate: z.number(),
  active: z.boolean(),
  sortOrder: z.number(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type AdminTier = z.infer<typeof adminTierSchema>;
export const adminTiersResponse = z.object({ tiers: z.array(adminTierSchema) });

const tierName = z
  .string({ error: MSG.tierNameRequired })
  .trim()
  .min(1, MSG.tierNameRequired)
  .max(100, MSG.tierNameTooLong);
const tierAmount = usdcAmount(MSG.tierAmountInvalid).refine((m) => m > 0n, MSG.tierAmountInvalid);
/** Daily rate in percent: 0 < rate <= 100 with at most 4 decimals, stored as percent x 10^4. */
const tierRate = z.number({ error: MSG.tierRateInvalid }).transform((v, ctx) => {
  const scaled = rateToScaled(v);
  if (scaled === null || scaled <= 0n || scaled > 1_000_000n) {
    ctx.addIssue({ code: 'custom', message: MSG.tierRateInvalid });
    return z.NEVER;
  }
  return Number(scaled);
});
const sortOrder = z.number().int().min(-1_000_000).max(1_000_000);

export const createTierBody = z.strictObject({
  name: tierName,
  amount: tierAmount,
  dailyRate: tierRate,
  active: z.boolean().optional(),
  sortOrder: sortOrder.optional(),
});
export const updateTierBody = z.strictObject({
  name: tierName.optional(),
  amount: tierAmount.optional(),
  dailyRate: tierRate.optional(),
  active: z.boolean().optional(),
  sortOrder: sortOrder.optional(),
});
export type TierInput = z.input<typeof createTierBody>;
export type TierUpdateInput = z.input<typeof updateTierBody>;
export const adminTierResponse = z.object({ tier: adminTierSchema });

// ------------------------------------------------------------------ audit log

export const auditQuery = pageQuery.extend({
  action: z.string().trim().max(60).optional(),
  adminId: z.union([idSchema, z.literal('')]).optional(),
  targetId: z.string().trim().max(100).optional(),
});
export const auditEntrySchema = z.object({
  _id: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  note: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: isoDate,
  admin: userRefSchema,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditResponse = pageInfo.extend({ entries: z.array(auditEntrySchema), actions: z.array(z.string()) });
export type AuditPage = z.infer<typeof auditResponse>;

// ------------------------------------------------------------------ CSV export

/** A CSV body: documented as text, sent as a stream. */
export const csvResponse = z.string().describe('text/csv; header row first');

export const depositStatusFilter = z.strictObject({
  status: z.enum(['all', 'pending', 'confirmed', 'failed'], { error: MSG.invalidStatusFilter }).optional(),
});
export const withdrawalStatusFilter = z.strictObject({
  status: z.enum(['all', 'pending', 'approved', 'rejected'], { error: MSG.invalidStatusFilter }).optional(),
});
export const usersExportQuery = z.strictObject({ search: searchText });
