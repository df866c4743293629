import { microToUsdc } from '@harvest/shared/money';
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
import { platformDay } from '../../lib/time.ts';
import { adminDepositPage, recentDeposits } from '../deposits/deposits.admin.ts';
import * as referrals from '../referrals/referrals.service.ts';
import { toUserRef } from '../users/users.dto.ts';
import { recentForAdmin } from '../withdrawals/withdrawals.service.ts';
import { rewardsByLevel, userRef, usersPage, type AdminUserRow } from './admin-users.queries.ts';
import { analyticsDays } from './analytics.queries.ts';
import { auditActions, auditPage } from './audit-log.queries.ts';
import { phone } from './exports.service.ts';
import { platformTotals } from './totals.queries.ts';

/** Recent activity lists on the overview. */
export const RECENT_ACTIVITY = 10;
/** Members listed per level in an admin referral lookup (counts are always exact). */
export const NETWORK_LIST_LIMIT = 200;
export const RECENT_REWARDS = 50;
function adminUserDto(u: AdminUserRow): AdminUser {
  return {
    _id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    phone: phone(u),
    isAdmin: u.isAdmin,
    isBlocked: u.isBlocked,
    withdrawalsFrozen: u.withdrawalsFrozen,
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
    platformTotals(ctx.db),
    recentDeposits(ctx, RECENT_ACTIVITY),
    recentForAdmin(ctx, RECENT_ACTIVITY),
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

/** YYYY-MM-DD plus n calendar days. */
function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + n)).toISOString().slice(0, 10);
}

/**
 * Daily figures over the last `period` platform days, today included (PLATFORM_TIMEZONE). The summary holds
 * the all-time totals (as the overview); the series hold the period, every day present.
 */
export async function analytics(ctx: AppContext, period: number): Promise<Analytics> {
  const tz = ctx.config.PLATFORM_TIMEZONE;
  const endDay = platformDay(ctx.clock.now(), tz);
  const startDay = addDays(endDay, -(period - 1));
  const [figures, totals] = await Promise.all([analyticsDays(ctx.db, startDay, endDay), platformTotals(ctx.db)]);
  const days = Array.from({ length: period }, (_, i) => {
    const day = addDays(startDay, i);
    const m = figures.get(day);
    return { day, v: (k: string) => m?.get(k) ?? 0n };
  });
  return {
    period,
    timeZone: tz,
    summary: {
      totalUsers: totals.totalUsers,
      totalInvestments: microToUsdc(totals.totalInvestments),
      totalDeposits: microToUsdc(totals.totalDeposits),
      totalAdjustments: microToUsdc(totals.totalAdjustments),
    },
    userGrowth: days.map(({ day, v }) => ({ _id: day, count: Number(v('registrations')) })),
    investmentTrends: days.map(({ day, v }) => ({
      _id: day,
      totalAmount: microToUsdc(v('investment.amount')),
      count: Number(v('investment.count')),
    })),
    depositTrends: days.map(({ day, v }) => ({
      _id: day,
      totalAmount: microToUsdc(v('deposit.amount')),
      count: Number(v('deposit.count')),
    })),
  };
}

export async function users(ctx: AppContext, opts: PageRequest & { search?: string }) {
  const search = opts.search?.trim() || undefined;
  const { rows, total, nextCursor, prevCursor } = await usersPage(ctx.db, { search, page: opts });
  return { users: rows.map(adminUserDto), page: opts.page, pageSize: opts.pageSize, total, nextCursor, prevCursor };
}

export async function userDeposits(ctx: AppContext, userId: string, opts: PageRequest): Promise<AdminUserDeposits> {
  if (!(await userRef(ctx.db, userId))) throw notFound();
  return adminDepositPage(ctx, { status: 'all', userId }, opts);
}

export async function referralLookup(ctx: AppContext, userId: string): Promise<AdminReferralLookup> {
  const user = await userRef(ctx.db, userId);
  if (!user) throw notFound();
  const [tree, byLevel, rewards] = await Promise.all([
    referrals.network(ctx, userId, NETWORK_LIST_LIMIT),
    rewardsByLevel(ctx.db, userId),
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
    auditPage(ctx.db, filter, opts),
    auditActions(ctx.db),
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
      admin: r.admin ? toUserRef(r.admin) : null,
      subject: r.subject ? toUserRef(r.subject) : null,
      tierName: r.tierName,
      batch: r.batch
        ? {
            _id: r.batch.id,
            createdAt: r.batch.createdAt,
            withdrawals: r.batch.withdrawals,
            total: microToUsdc(r.batch.total),
          }
        : null,
    })),
    actions,
    page: opts.page,
    pageSize: opts.pageSize,
    total,
    nextCursor,
    prevCursor,
  };
}
