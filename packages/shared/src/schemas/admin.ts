import * as z from 'zod/mini';
import { ANALYTICS_PERIODS, MAX_LENGTH } from '../constants.ts';
import { TEXT } from '../texts.ts';
import { rateToScaled } from '../money.ts';
import { convert, idSchema, isoDate, pageInfo, pageQuery, searchText, usdc, usdcAmount } from './common.ts';
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
  period: convert(
    z.optional(z.string({ error: TEXT.invalidPeriod })),
    (v) => (v === undefined || v === '' ? 30 : PERIOD_TEXTS.includes(v) ? Number(v) : null),
    TEXT.invalidPeriod,
  ),
  t: z.optional(z.string().check(z.maxLength(30))),
});

export const dayCount = z.object({ _id: z.string(), count: z.number() });
export const dayAmount = z.object({ _id: z.string(), totalAmount: usdc, count: z.number() });
export const analyticsSummary = z.object({
  totalUsers: z.number(),
  totalInvestments: usdc,
  totalDeposits: usdc,
  totalAdjustments: usdc,
});
export const analyticsResponse = z.object({
  period: z.number(),
  timeZone: z.string(),
  summary: analyticsSummary,
  userGrowth: z.array(dayCount),
  investmentTrends: z.array(dayAmount),
  depositTrends: z.array(dayAmount),
});
export type Analytics = z.infer<typeof analyticsResponse>;

// ------------------------------------------------------------------ users

export const adminUsersQuery = z.extend(pageQuery, { search: searchText });
/** The search box of the users list and the referral lookup (a form: the query without its paging). */
export const userSearchForm = z.pick(adminUsersQuery, { search: true });

/** A user in the back-office list: the user's public fields plus the account figures (spec section 3). */
export const adminUserSchema = z.extend(
  z.pick(userSchema, {
    _id: true,
    firstName: true,
    lastName: true,
    email: true,
    phone: true,
    isAdmin: true,
    isBlocked: true,
    withdrawalsFrozen: true,
    createdAt: true,
    withdrawalWallet: true,
  }),
  {
    balance: usdc,
    totalInvestment: usdc,
    /** Lifetime cycle earnings (gross): the dashboard's Total Earnings. */
    totalEarnings: usdc,
    referralRewards: usdc,
    /** Confirmed demo and on-chain deposits (admin credits are adjustments). */
    totalDeposits: usdc,
    /** Admin balance adjustments, net of reductions. */
    totalAdjustments: usdc,
  },
);
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUsersResponse = z.extend(pageInfo, { users: z.array(adminUserSchema) });
export type AdminUsersPage = z.infer<typeof adminUsersResponse>;

export const adminUserDepositsResponse = z.extend(pageInfo, { deposits: z.array(adminDepositSchema) });
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
  .string({ error: TEXT.tierNameRequired })
  .check(z.trim(), z.minLength(1, TEXT.tierNameRequired), z.maxLength(MAX_LENGTH.tierName, TEXT.tierNameTooLong));
const tierAmount = usdcAmount(TEXT.tierAmountInvalid).check(z.refine((m) => m > 0n, TEXT.tierAmountInvalid));
/** Daily rate in percent: 0 < rate <= 100 with at most 4 decimals, stored as percent x 10^4. */
const tierRate = convert(
  z.number({ error: TEXT.tierRateInvalid }),
  (v) => {
    const scaled = rateToScaled(v);
    return scaled === null || scaled <= 0n || scaled > 1_000_000n ? null : Number(scaled);
  },
  TEXT.tierRateInvalid,
);
const sortOrder = z.number().check(z.int(), z.gte(-1_000_000), z.lte(1_000_000));

export const createTierBody = z.strictObject({
  name: tierName,
  amount: tierAmount,
  dailyRate: tierRate,
  active: z.optional(z.boolean()),
  sortOrder: z.optional(sortOrder),
});
export const updateTierBody = z.strictObject({
  name: z.optional(tierName),
  amount: z.optional(tierAmount),
  dailyRate: z.optional(tierRate),
  active: z.optional(z.boolean()),
  sortOrder: z.optional(sortOrder),
});
export type TierInput = z.input<typeof createTierBody>;
export type TierUpdateInput = z.input<typeof updateTierBody>;
export const adminTierResponse = z.object({ tier: adminTierSchema });

// ------------------------------------------------------------------ audit log

export const auditQuery = z.extend(pageQuery, {
  action: z.optional(z.string().check(z.trim(), z.maxLength(60))),
  adminId: z.optional(z.union([idSchema, z.literal('')])),
  targetId: z.optional(z.string().check(z.trim(), z.maxLength(100))),
});
/** The audit log's filter form: the query without its paging. */
export const auditFilterForm = z.pick(auditQuery, { action: true, targetId: true });
export const auditEntrySchema = z.object({
  _id: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  note: z.nullable(z.string()),
  ip: z.nullable(z.string()),
  createdAt: isoDate,
  /** Null: the platform acted by itself (the chain watcher completed a withdrawal by a payout it found). */
  admin: z.nullable(userRefSchema),
  /** Who the action concerns: the user, or the owner of the deposit or withdrawal (null for tiers and exports). */
  subject: z.nullable(userRefSchema),
  /** The tier's current name, for tier actions. */
  tierName: z.nullable(z.string()),
  /** The payout batch a batch action (or a withdrawal paid in one) concerns, and what it holds now. */
  batch: z.nullable(z.object({ _id: z.string(), createdAt: isoDate, withdrawals: z.number(), total: z.number() })),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditResponse = z.extend(pageInfo, { entries: z.array(auditEntrySchema), actions: z.array(z.string()) });
export type AuditPage = z.infer<typeof auditResponse>;

// ------------------------------------------------------------------ CSV export

/** A CSV body: documented as text, sent as a stream. */
export const csvResponse = z.string().check(z.describe('text/csv; header row first'));

export const depositStatusFilter = z.strictObject({
  status: z.optional(z.enum(['all', 'pending', 'confirmed', 'failed'], { error: TEXT.invalidStatusFilter })),
});
export const withdrawalStatusFilter = z.strictObject({
  status: z.optional(z.enum(['all', 'pending', 'approved', 'rejected'], { error: TEXT.invalidStatusFilter })),
});
export const usersExportQuery = z.strictObject({ search: searchText });
