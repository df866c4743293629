import { queryOptions } from '@tanstack/react-query';
import { depositsResponse } from '@harvest/shared/schemas/deposits';
import { tiersResponse } from '@harvest/shared/schemas/investments';
import { referralTreeSchema, referralsResponse } from '@harvest/shared/schemas/referrals';
import { myWithdrawalsResponse } from '@harvest/shared/schemas/withdrawals';
import { api } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

/** The investor's reads besides the dashboard (query-keys.ts), on the keys of `queryKeys`. */
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
