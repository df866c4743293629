import * as z from 'zod/mini';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  myWithdrawalLimitsResponse,
  withdrawalPolicyResponse,
  withdrawalPolicySaved,
  type WithdrawalPolicyInput,
} from '@harvest/shared/schemas/withdrawal-limits';
import { proposalSentResponse } from '@harvest/shared/schemas/proposals';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The investor's limits, what is used of them, and any hold (Profile). */
export const myWithdrawalLimitsQuery = () =>
  queryOptions({
    queryKey: queryKeys.account.withdrawalLimits,
    queryFn: () => api('/user/withdrawal-limits', myWithdrawalLimitsResponse),
  });

export const withdrawalPolicyQuery = () =>
  queryOptions({
    queryKey: queryKeys.admin.withdrawalPolicy,
    queryFn: () => api('/admin/withdrawal-policy', withdrawalPolicyResponse),
  });

export function useSaveWithdrawalPolicy() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: WithdrawalPolicyInput) =>
      api('/admin/withdrawal-policy', z.union([withdrawalPolicySaved, proposalSentResponse]), { method: 'PUT', body }),
    // With four-eyes the change waits in Approvals (202): the limits shown stay what they are.
    onSuccess: (res) => {
      if ('policy' in res) qc.setQueryData(queryKeys.admin.withdrawalPolicy, { policy: res.policy });
    },
  });
}
