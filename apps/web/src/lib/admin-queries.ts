import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { POLL_ADMIN_WITHDRAWALS_MS } from '@harvest/shared/constants';
import {
  adminDashboardResponse,
  adminReferralLookupResponse,
  adminTiersResponse,
  adminUserDepositsResponse,
  adminUsersResponse,
  analyticsResponse,
  auditResponse,
} from '@harvest/shared/schemas/admin';
import { adminDepositsResponse, type AdminDepositFilter } from '@harvest/shared/schemas/deposits';
import { adminWithdrawalsResponse } from '@harvest/shared/schemas/withdrawals';
import { api } from './api-client.ts';
import { pageParams, type PageAt } from './paging.ts';
import { queryKeys } from './query-keys.ts';

/** The back office's reads, keyed under `queryKeys.admin` so one invalidation refreshes them all. */
const k = queryKeys.admin;
const qs = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([a, b]) => [a, String(b)])).toString();

export const adminDashboardQuery = () =>
  queryOptions({
    queryKey: k.dashboard,
    queryFn: () => api('/admin/dashboard', adminDashboardResponse),
    refetchInterval: 30_000,
  });

export const analyticsQuery = (period: number) =>
  queryOptions({
    queryKey: k.analytics(period),
    queryFn: () => api(`/user/admin/analytics?period=${period}`, analyticsResponse),
    placeholderData: keepPreviousData,
  });

/** The paged lists take a PageAt (lib/paging.ts): Previous / Next send the shown page's cursor. */
export const adminUsersQuery = (at: PageAt, pageSize: number, search: string) =>
  queryOptions({
    queryKey: k.users.list(at, pageSize, search),
    queryFn: () =>
      api(
        `/admin/users?${qs(search ? { ...pageParams(at, pageSize), search } : pageParams(at, pageSize))}`,
        adminUsersResponse,
      ),
    placeholderData: keepPreviousData,
  });

/** A user's deposits (View Deposits). */
export const userDepositsQuery = (userId: string, at: PageAt) =>
  queryOptions({
    queryKey: k.users.deposits(userId, at),
    queryFn: () =>
      api(`/admin/users/${encodeURIComponent(userId)}/deposits?${qs(pageParams(at, 20))}`, adminUserDepositsResponse),
  });

/** Every deposit with its depositor, filtered by status, with counts per status; paged. */
export const adminDepositsQuery = (status: AdminDepositFilter, at: PageAt, pageSize: number) =>
  queryOptions({
    queryKey: k.deposits(status, at),
    queryFn: () => api(`/admin/deposits?${qs({ status, ...pageParams(at, pageSize) })}`, adminDepositsResponse),
    placeholderData: keepPreviousData,
  });

/** Pending: the queue to process; History: every withdrawal, paged (newest first). */
export type WithdrawalView = 'pending' | 'history';
export const adminWithdrawalsQuery = (view: WithdrawalView, at: PageAt, pageSize: number) =>
  queryOptions({
    queryKey: k.withdrawals(view, at),
    queryFn: () =>
      api(
        `/withdrawal/admin/${view === 'pending' ? 'pending' : 'all'}?${qs({ ...pageParams(at, pageSize), t: Date.now() })}`,
        adminWithdrawalsResponse,
      ),
    refetchInterval: POLL_ADMIN_WITHDRAWALS_MS,
    placeholderData: keepPreviousData,
  });

/** Candidate users for the referral look-up (name or e-mail search, first page). */
export const userCandidatesQuery = (search: string) =>
  queryOptions({
    queryKey: k.referrals.candidates(search),
    queryFn: () => api(`/admin/users?${qs({ pageSize: 10, search })}`, adminUsersResponse),
    enabled: search.length > 0,
  });

/** Any user's three-level network and the rewards it produced. */
export const userNetworkQuery = (userId: string | null) =>
  queryOptions({
    queryKey: k.referrals.network(userId),
    queryFn: () => api(`/admin/users/${encodeURIComponent(userId ?? '')}/referral-tree`, adminReferralLookupResponse),
    enabled: userId !== null,
  });

export const adminTiersQuery = () =>
  queryOptions({ queryKey: k.tiers, queryFn: () => api('/admin/tiers', adminTiersResponse) });

export const auditQuery = (at: PageAt, pageSize: number, action: string, targetId: string) =>
  queryOptions({
    queryKey: k.audit(at, pageSize, action, targetId),
    queryFn: () => {
      const params = pageParams(at, pageSize);
      if (action) params.action = action;
      if (targetId) params.targetId = targetId;
      return api(`/admin/audit?${qs(params)}`, auditResponse);
    },
    placeholderData: keepPreviousData,
  });
