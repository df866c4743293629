import type { Readable } from 'node:stream';
import { microToText, microToUsdc } from '@harvest/shared/money';
import type {
  AdminDashboard,
  AdminReferralLookup,
  AdminUser,
  AdminUserDeposits,
  Analytics,
  AuditPage,
} from '@harvest/shared/schemas/admin';
import type { AppContext } from '../../context.ts';
import type { PageRequest } from '../../db/keyset.ts';
import { notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { platformDay } from '../../lib/time.ts';
import { adminDepositPage, recentDeposits } from '../deposits/deposits.service.ts';
import * as referrals from '../referrals/referrals.service.ts';
import { toUserRef } from '../users/users.dto.ts';
import { recentForAdmin } from '../withdrawals/withdrawals.service.ts';
import { analyticsAnswer } from './analytics-answer.ts';
import { addDays, dayFigures, dayRange } from './analytics-cache.ts';
import { csvStream } from './csv.ts';
import * as q from './admin.queries.ts';

/** Recent activity lists on the overview. */
export const RECENT_ACTIVITY = 10;
/** Members listed per level in an admin referral lookup (counts are always exact). */
export const NETWORK_LIST_LIMIT = 200;
export const RECENT_REWARDS = 50;
export const EXPORT_BATCH = 1000;

const phone = (u: { phoneCountryCode: string | null; phoneNumber: string | null }) =>
  u.phoneCountryCode && u.phoneNumber ? `${u.phoneCountryCode} ${u.phoneNumber}` : null;

function adminUserDto(u: q.AdminUserRow): AdminUser {
  return {
    _id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    phone: phone(u),
    isAdmin: u.isAdmin,
    isBlocked: u.isBlocked,
    createdAt: u.createdAt,
    withdrawalWallet: u.withdrawalWallet,
    balance: microToUsdc(u.balance),
    totalInvestment: microToUsdc(u.invested),
    totalEarnings: microToUsdc(u.totalEarnings),
    referralRewards: microToUsdc(u.referralRewards),
    totalDeposits: microToUsdc(u.totalDeposits),
    totalAdjustments: microToUsdc(u.totalAdjustments),
  };
}

export async function dashboard(ctx: AppContext): Promise<AdminDashboard> {
  const [totals, deposits, withdrawals] = await Promise.all([
    q.platformTotals(ctx.db),
    recentDeposits(ctx, RECENT_ACTIVITY),
    recentForAdmin(ctx.db, RECENT_ACTIVITY),
  ]);
  return {
    metrics: {
      totalUsers: totals.totalUsers,
      totalDeposits: microToUsdc(totals.totalDeposits),
      totalAdjustments: microToUsdc(totals.totalAdjustments),
      totalInvestments: microToUsdc(totals.totalInvestments),
      pendingDeposits: totals.pendingDeposits,
      pendingWithdrawals: totals.pendingWithdrawals,
    },
    recentActivity: { deposits, withdrawals },
  };
}

/**
 * Daily figures over the last `period` platform days, today included (PLATFORM_TIMEZONE).
 * The summary holds the all-time totals (as the overview); the series hold the period. Closed days
 * come from this instance's cache while the rollup version holds (analytics-cache.ts), their JSON made once
 * (analytics-answer.ts).
 */
export async function analytics(ctx: AppContext, period: number): Promise<Analytics> {
  const tz = ctx.config.PLATFORM_TIMEZONE;
  const endDay = platformDay(ctx.clock.now(), tz);
  const startDay = addDays(endDay, -(period - 1));
  const { figures, totals } = await dayFigures(ctx, startDay, endDay);
  const summary = {
    totalUsers: totals.totalUsers,
    totalInvestments: microToUsdc(totals.totalInvestments),
    totalDeposits: microToUsdc(totals.totalDeposits),
    totalAdjustments: microToUsdc(totals.totalAdjustments),
  };
  return analyticsAnswer({ period, timeZone: tz, summary }, dayRange(startDay, period), figures);
}

export async function users(ctx: AppContext, opts: PageRequest & { search?: string }) {
  const search = opts.search?.trim() || undefined;
  const { rows, total, nextCursor, prevCursor } = await q.usersPage(ctx.db, { search, page: opts });
  return { users: rows.map(adminUserDto), page: opts.page, pageSize: opts.pageSize, total, nextCursor, prevCursor };
}

export async function userDeposits(ctx: AppContext, userId: string, opts: PageRequest): Promise<AdminUserDeposits> {
  if (!(await q.userRef(ctx.db, userId))) throw notFound();
  return adminDepositPage(ctx, { status: 'all', userId }, opts);
}

export async function referralLookup(ctx: AppContext, userId: string): Promise<AdminReferralLookup> {
  const user = await q.userRef(ctx.db, userId);
  if (!user) throw notFound();
  const [tree, byLevel, rewards] = await Promise.all([
    referrals.network(ctx, userId, NETWORK_LIST_LIMIT),
    q.rewardsByLevel(ctx.db, userId),
    referrals.rewards(ctx, userId, RECENT_REWARDS),
  ]);
  return {
    user: toUserRef(user),
    tree,
    counts: { level1: tree.level1Count ?? 0, level2: tree.level2Count ?? 0, level3: tree.level3Count ?? 0 },
    listLimit: NETWORK_LIST_LIMIT,
    rewards: {
      total: rewards.totalRewards,
      byLevel: [1, 2, 3].map((lv) => {
        const l = byLevel.find((x) => x.level === lv);
        return { level: lv, count: l?.count ?? 0, amount: microToUsdc(l?.total ?? 0n) };
      }),
      recent: rewards.referrals,
    },
  };
}

export async function audit(
  ctx: AppContext,
  opts: PageRequest & { action?: string; adminId?: string; targetId?: string },
): Promise<AuditPage> {
  const filter = {
    action: opts.action || undefined,
    adminId: opts.adminId || undefined,
    targetId: opts.targetId || undefined,
  };
  const [{ rows, total, nextCursor, prevCursor }, actions] = await Promise.all([
    q.auditPage(ctx.db, filter, opts),
    q.auditActions(ctx.db),
  ]);
  return {
    entries: rows.map((r) => ({
      _id: r.id,
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      before: r.before,
      after: r.after,
      note: r.note,
      ip: r.ip,
      createdAt: r.createdAt,
      admin: toUserRef(r.admin),
      subject: r.subject ? toUserRef(r.subject) : null,
      tierName: r.tierName,
    })),
    actions,
    page: opts.page,
    pageSize: opts.pageSize,
    total,
    nextCursor,
    prevCursor,
  };
}

// ---------------------------------------------------------------- CSV exports

const statusOf = (s: string | undefined) => (s && s !== 'all' ? s : null);

/**
 * Every export of personal data leaves a trace: who, what, the filter and the rows it holds,
 * written before the first byte is sent (if the audit row cannot be written, nothing is exported).
 */
async function auditExport(
  ctx: AppContext,
  admin: AuthUser,
  ip: string,
  what: 'deposits' | 'withdrawals' | 'users',
  filter: { status?: string | null; search?: string | undefined },
): Promise<void> {
  const rows = await q.exportRowCount(ctx.db, what, filter);
  await writeAudit(ctx.db, {
    adminId: admin.id,
    action: 'csv_export',
    targetType: 'export',
    targetId: what,
    after: { filter: Object.fromEntries(Object.entries(filter).filter(([, v]) => v)), rows },
    ip,
  });
}

export async function depositsCsv(
  ctx: AppContext,
  admin: AuthUser,
  status: string | undefined,
  ip: string,
): Promise<Readable> {
  const st = statusOf(status);
  await auditExport(ctx, admin, ip, 'deposits', { status: st });
  return csvStream({
    header: [
      'id',
      'created_at',
      'status',
      'type',
      'amount_usdc',
      'tx_hash',
      'from_address',
      'confirmations',
      'processed_at',
      'failure_reason',
      'note',
      'user_id',
      'user_email',
      'user_first_name',
      'user_last_name',
    ],
    batchSize: EXPORT_BATCH,
    fetch: (after, limit) => q.depositBatch(ctx.db, st, after, limit),
    row: (d) => [
      d.id,
      d.createdAt,
      d.status,
      d.type,
      microToText(d.amount),
      d.txHash,
      d.fromAddress,
      d.confirmations,
      d.processedAt,
      d.failureReason,
      d.note,
      d.user.id,
      d.user.email,
      d.user.firstName,
      d.user.lastName,
    ],
  });
}

export async function withdrawalsCsv(
  ctx: AppContext,
  admin: AuthUser,
  status: string | undefined,
  ip: string,
): Promise<Readable> {
  const st = statusOf(status);
  await auditExport(ctx, admin, ip, 'withdrawals', { status: st });
  return csvStream({
    header: [
      'id',
      'requested_at',
      'status',
      'source',
      'amount_usdc',
      'fee_usdc',
      'net_usdc',
      'cycle_number',
      'wallet_address',
      'processed_at',
      'tx_hash',
      'notes',
      'request_id',
      'user_id',
      'user_email',
      'user_first_name',
      'user_last_name',
    ],
    batchSize: EXPORT_BATCH,
    fetch: (after, limit) => q.withdrawalBatch(ctx.db, st, after, limit),
    row: (w) => [
      w.id,
      w.requestedAt,
      w.status,
      w.source,
      microToText(w.amount),
      microToText(w.feeAmount),
      microToText(w.netAmount),
      w.cycleNumber,
      w.walletAddress,
      w.processedAt,
      w.txHash,
      w.notes,
      w.requestId,
      w.user.id,
      w.user.email,
      w.user.firstName,
      w.user.lastName,
    ],
  });
}

export async function usersCsv(
  ctx: AppContext,
  admin: AuthUser,
  search: string | undefined,
  ip: string,
): Promise<Readable> {
  const s = search?.trim() || undefined;
  await auditExport(ctx, admin, ip, 'users', { search: s });
  return csvStream({
    header: [
      'id',
      'created_at',
      'email',
      'first_name',
      'last_name',
      'phone',
      'is_admin',
      'is_blocked',
      'balance_usdc',
      'total_investment_usdc',
      'total_earnings_usdc',
      'referral_rewards_usdc',
      'total_deposits_usdc',
      'total_adjustments_usdc',
      'withdrawal_wallet',
    ],
    batchSize: EXPORT_BATCH,
    fetch: (after, limit) => q.userBatch(ctx.db, s, after, limit),
    row: (u) => [
      u.id,
      u.createdAt,
      u.email,
      u.firstName,
      u.lastName,
      phone(u),
      u.isAdmin,
      u.isBlocked,
      microToText(u.balance),
      microToText(u.invested),
      microToText(u.totalEarnings),
      microToText(u.referralRewards),
      microToText(u.totalDeposits),
      microToText(u.totalAdjustments),
      u.withdrawalWallet,
    ],
  });
}
