import { queryOptions } from '@tanstack/react-query';
import { referralTreeSchema, referralsResponse } from '@harvest/shared/schemas/referrals';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

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
