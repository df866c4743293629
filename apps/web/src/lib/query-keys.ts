import { queryOptions } from '@tanstack/react-query';
import { dashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { AdminDepositFilter } from '@harvest/shared/schemas/deposits';
import { api } from './api-client.ts';
import type { PageAt } from './paging.ts';
import { retryDelayFor } from './query-client.ts';

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
    settings: ['deposits', 'settings'] as const,
  },
  withdrawals: { mine: ['withdrawals', 'mine'] as const },
  /** The full history: deposits and withdrawals, one page of one filter and search. */
  history: (page: number, status: string, q: string) => ['history', page, status, q] as const,
  /** The account's security: the address book, sessions, activity; an action refreshes all of it. */
  account: {
    all: ['account-security'] as const,
    addresses: (page: number, pageSize: number) => ['account-security', 'addresses', page, pageSize] as const,
    sessions: (page: number) => ['account-security', 'sessions', page] as const,
    events: (page: number) => ['account-security', 'events', page] as const,
    withdrawalLimits: ['account-security', 'withdrawal-limits'] as const,
    passkeys: ['account-security', 'passkeys'] as const,
  },
  /** What an e-mailed link is about (its page, before the button). */
  linkPreview: (page: string, token: string) => ['link-preview', page, token] as const,
  tiers: ['tiers'] as const,
  referrals: { tree: ['referrals', 'tree'] as const, rewards: ['referrals', 'rewards'] as const },
  /** A statement of account: the investor's own (`/user/statement`) or a user's for the administrator. */
  statement: (path: string, from: string, to: string) => ['statement', path, from, to] as const,
  admin: {
    all: ['admin'] as const,
    dashboard: ['admin', 'dashboard'] as const,
    analytics: (period: number) => ['admin', 'analytics', period] as const,
    users: {
      all: ['admin', 'users'] as const,
      list: (at: PageAt, pageSize: number, search: string) => ['admin', 'users', 'list', at, pageSize, search] as const,
      deposits: (userId: string, at: PageAt) => ['admin', 'users', userId, 'deposits', at] as const,
      sessions: (userId: string) => ['admin', 'users', userId, 'sessions'] as const,
      addresses: (userId: string) => ['admin', 'users', userId, 'addresses'] as const,
    },
    deposits: (status: AdminDepositFilter, at: PageAt) => ['admin', 'deposits', status, at] as const,
    withdrawals: {
      all: ['admin', 'withdrawals'] as const,
      list: (view: 'pending' | 'history', at: PageAt) => ['admin', 'withdrawals', view, at] as const,
    },
    batches: ['admin', 'payout-batches'] as const,
    payouts: ['admin', 'found-payouts'] as const,
    referrals: {
      candidates: (search: string) => ['admin', 'referrals', 'candidates', search] as const,
      network: (userId: string | null) => ['admin', 'referrals', 'network', userId] as const,
    },
    tiers: ['admin', 'tiers'] as const,
    withdrawalPolicy: ['admin', 'withdrawal-policy'] as const,
    proposals: ['admin', 'proposals'] as const,
    staff: ['admin', 'staff'] as const,
    audit: (at: PageAt, pageSize: number, action: string, targetId: string) =>
      ['admin', 'audit', at, pageSize, action, targetId] as const,
  },
};

/*
 * Each feature's reads sit in its api/ folder on these keys. The dashboard is here: the app's tabs and the
 * withdrawals feature read it, and a feature never imports another. `refetchInterval` is the screen's: 2 s on
 * the investments tab, 30 s on the deposit tab (spec section 7).
 */

/** The account summary and the active investments. */
export const dashboardQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: queryKeys.dashboard,
    queryFn: () => api('/user/dashboard', dashboardResponse),
    refetchInterval,
    // Shed for overload: asked again later and later from this interval (decision 0096).
    retryDelay: retryDelayFor(refetchInterval),
  });
