import { useQuery } from '@tanstack/react-query';
import { referralsResponse } from '@harvest/shared/schemas/referrals';
import { api } from '../../../lib/api-client.ts';

export const getReferrals = () => api(`/user/referrals?t=${Date.now()}`, referralsResponse);

export const referralsQueryKey = ['referrals'] as const;

export function useReferrals() {
  return useQuery({ queryKey: referralsQueryKey, queryFn: getReferrals });
}
