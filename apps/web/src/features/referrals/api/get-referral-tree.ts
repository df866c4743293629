import { useQuery } from '@tanstack/react-query';
import { referralTreeSchema } from '@harvest/shared/schemas/referrals';
import { api } from '../../../lib/api-client.ts';

export const getReferralTree = () => api(`/user/referral-tree?t=${Date.now()}`, referralTreeSchema);

export const referralTreeQueryKey = ['referral-tree'] as const;

export function useReferralTree() {
  return useQuery({ queryKey: referralTreeQueryKey, queryFn: getReferralTree });
}
