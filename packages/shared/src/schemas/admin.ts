import { z } from 'zod';
import { ANALYTICS_PERIODS, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.ts';
import { rateToScaled } from '../money.ts';
import { idSchema, isoDate, pageInfo, usdc, usdcAmount } from './common.ts';
import { referralRewardSchema, referralTreeSchema } from './referrals.ts';

/** Texts of the back office the spec leaves open. */
export const ADMIN_MSG = {
  invalidPeriod: 'Period must be one of 7, 14, 30 or 90 days',
  tierNameRequired: 'Tier name is required',
  tierAmountInvalid: 'Tier amount must be a USDC amount greater than 0 with at most 6 decimals',
  tierRateInvalid: 'Daily rate must be a percentage greater than 0 and at most 100, with at most 4 decimals',
  tierNothingToChange: 'Nothing to change',
  invalidStatusFilter: 'Unknown status filter',
  invalidUserFilter: 'Admin and target filters must be ids',
  usersFailed: 'Failed to load users',
  dashboardFailed: 'Failed to load admin dashboard',
  referralsFailed: 'Failed to load referral network',
  tierSaveFailed: 'Failed to save tier',
  auditFailed: 'Failed to load audit log',
  exportFailed: 'Failed to download the export',
} as const;

/** A user as admin views populate it (spec: userId populated with firstName, lastName, email). */
export const adminUserRef = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});
export type AdminUserRef = z.infer<typeof adminUserRef>;

export const adminDepositSchema = z.object({
  _id: z.string(),
  amount: usdc,
  status: z.enum(['pending', 'confirmed', 'failed']),
  type: z.enum(['demo', 'real', 'admin_credit']),
  txHash: z.string().nullable(),
  fromAddress: z.string().nullable(),
  confirmations: z.number(),
  failureReason: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: isoDate,
  processedAt: isoDate.nullable(),
  userId: adminUserRef,
});
export type AdminDeposit = z.infer<typeof adminDepositSchema>;

export const adminWithdrawalSchema = z.object({
  _id: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  source: z.enum(['earning', 'rewards', 'balance']),
  amount: usdc,
  feeAmount: usdc,
  netAmount: usdc,
  cycleNumber: z.number().nullable(),
  walletAddress: z.string(),
  requestedAt: isoDate,
  processedAt: isoDate.nullable(),
  txHash: z.string().nullable(),
  notes: z.string().nullable(),
  userId: adminUserRef,
});
export type AdminWithdrawal = z.infer<typeof adminWithdrawalSchema>;

// ------------------------------------------------------------------ overview

export const adminDashboardResponse = z.object({
  metrics: z.object({
    totalUsers: z.number(),
    totalDeposits: usdc,
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
    .string({ error: ADMIN_MSG.invalidPeriod })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return 30;
      if (!PERIOD_TEXTS.includes(v)) {
        ctx.addIssue({ code: 'custom', message: ADMIN_MSG.invalidPeriod });
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
  summary: z.object({ totalUsers: z.number(), totalInvestments: usdc, totalDeposits: usdc }),
  userGrowth: z.array(dayCount),
  investmentTrends: z.array(dayAmount),
  depositTrends: z.array(dayAmount),
});
export type Analytics = z.infer<typeof analyticsResponse>;

// ------------------------------------------------------------------ users

export const adminUsersQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  search: z.string().trim().max(200).optional(),
});

export const adminUserSchema = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  isAdmin: z.boolean(),
  isBlocked: z.boolean(),
  createdAt: isoDate,
  withdrawalWallet: z.string().nullable(),
  balance: usdc,
  totalInvestment: usdc,
  totalEarnings: usdc,
  referralRewards: usdc,
  totalDeposits: usdc,
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUsersResponse = pageInfo.extend({ users: z.array(adminUserSchema) });
export type AdminUsersPage = z.infer<typeof adminUsersResponse>;

export const pageOnlyQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export const adminUserDepositsResponse = pageInfo.extend({ deposits: z.array(adminDepositSchema) });
export type AdminUserDeposits = z.infer<typeof adminUserDepositsResponse>;

// ------------------------------------------------------------------ referrals

export const adminReferralLookupResponse = z.object({
  user: adminUserRef,
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
  .string({ error: ADMIN_MSG.tierNameRequired })
  .trim()
  .min(1, ADMIN_MSG.tierNameRequired)
  .max(100, 'Tier name must be at most 100 characters');
const tierAmount = usdcAmount(ADMIN_MSG.tierAmountInvalid).refine((m) => m > 0n, ADMIN_MSG.tierAmountInvalid);
/** Daily rate in percent: 0 < rate <= 100 with at most 4 decimals, stored as percent x 10^4. */
const tierRate = z.number({ error: ADMIN_MSG.tierRateInvalid }).transform((v, ctx) => {
  const scaled = rateToScaled(v);
  if (scaled === null || scaled <= 0n || scaled > 1_000_000n) {
    ctx.addIssue({ code: 'custom', message: ADMIN_MSG.tierRateInvalid });
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

export const auditQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
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
  admin: adminUserRef,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditResponse = pageInfo.extend({ entries: z.array(auditEntrySchema), actions: z.array(z.string()) });
export type AuditPage = z.infer<typeof auditResponse>;

// ------------------------------------------------------------------ CSV export

export const depositStatusFilter = z.strictObject({
  status: z.enum(['all', 'pending', 'confirmed', 'failed'], { error: ADMIN_MSG.invalidStatusFilter }).optional(),
});
export const withdrawalStatusFilter = z.strictObject({
  status: z.enum(['all', 'pending', 'approved', 'rejected'], { error: ADMIN_MSG.invalidStatusFilter }).optional(),
});
export const usersExportQuery = z.strictObject({ search: z.string().trim().max(200).optional() });
