import { queryOptions } from '@tanstack/react-query';
import { dashboardResponse } from '@harvest/shared/schemas/dashboard';
import { depositsResponse } from '@harvest/shared/schemas/deposits';
import { tiersResponse } from '@harvest/shared/schemas/investments';
import { referralTreeSchema, referralsResponse } from '@harvest/shared/schemas/referrals';
import { myWithdrawalsResponse } from '@harvest/shared/schemas/withdrawals';
import type { AdminDepositFilter } from '@harvest/shared/schemas/deposits';
import { api } from './api-client.ts';

/**
 * Every query key, as one tree: a screen reads with the factories below and an action invalidates
 * with the same keys, so an invalidation can never name a key nothing uses (Update Balance once
 * invalidated ['admin-users'], which matched nothing). Invalidating a prefix refreshes everything
 * under it: `queryKeys.admin.all` is the whole back office.
 */
export const queryKeys = {
  dashboard: ['dashboard'] as const,
  deposits: {
    all: ['deposits'] as const,
    history: ['deposits', 'history'] as const,
    failed: ['deposits', 'failed'] as const,
  },
  withdrawals: { mine: ['withdrawals', 'mine'] as const },
  tiers: ['tiers'] as const,
  referrals: { tree: ['referrals', 'tree'] as const, rewards: ['referrals', 'rewards'] as const },
  admin: {
    all: ['admin'] as const,
    dashboard: ['admin', 'dashboard'] as const,
    analytics: (period: number) => ['admin', 'analytics', period] as const,
    users: {
      all: ['admin', 'users'] as const,
      list: (page: number, pageSize: number, search: string) =>
        ['admin', 'users', 'list', page, pageSize, search] as const,
      deposits: (userId: string, page: number) => ['admin', 'users', userId, 'deposits', page] as const,
    },
    deposits: (status: AdminDepositFilter, page: number) => ['admin', 'deposits', status, page] as const,
    withdrawals: (view: 'pending' | 'history', page: number) => ['admin', 'withdrawals', view, page] as const,
    referrals: {
      candidates: (search: string) => ['admin', 'referrals', 'candidates', search] as const,
      network: (userId: string | null) => ['admin', 'referrals', 'network', userId] as const,
    },
    tiers: ['admin', 'tiers'] as const,
    audit: (page: number, pageSize: number, action: string, targetId: string) =>
      ['admin', 'audit', page, pageSize, action, targetId] as const,
  },
};

/*
 * The investor's reads (the administrator's are in admin-queries.ts, loaded only with the back office).
 * `refetchInterval` is the screen's: 2 s on the investments tab, 30 s on the deposit tab (spec section 7).
 */

/** The account summary and the active investments. */
export const dashboardQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: queryKeys.dashboard,
    queryFn: () => api('/user/dashboard', dashboardResponse),
    refetchInterval,
  });

/** The investor's deposits, newest first. */
export const depositHistoryQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: queryKeys.deposits.history,
    queryFn: () => api('/user/deposit-history', depositsResponse),
    refetchInterval,
  });

export const failedDepositsQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: queryKeys.deposits.failed,
    queryFn: () => api('/withdrawal/failed-deposits', depositsResponse),
    refetchInterval,
  });

/** The investor's withdrawals, newest first; the time parameter defeats caches (spec section 7). */
export const myWithdrawalsQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: queryKeys.withdrawals.mine,
    queryFn: () => api(`/withdrawal/my-withdrawals?t=${Date.now()}`, myWithdrawalsResponse),
    refetchInterval,
  });

export const tiersQuery = () =>
  queryOptions({ queryKey: queryKeys.tiers, queryFn: () => api('/user/investment-tiers', tiersResponse) });

export const referralTreeQuery = () =>
  queryOptions({
    queryKey: queryKeys.referrals.tree,
    queryFn: () => api(`/user/referral-tree?t=${Date.now()}`, referralTreeSchema),
  });

export const referralRewardsQuery = () =>
  queryOptions({
    queryKey: queryKeys.referrals.rewards,
    queryFn: () => api(`/user/referrals?t=${Date.now()}`, referralsResponse),
  });
