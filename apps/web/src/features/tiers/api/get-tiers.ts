import { useQuery } from '@tanstack/react-query';
import { tiersResponse } from '@harvest/shared/schemas/investments';
import { api } from '../../../lib/api-client.ts';

export const getTiers = () => api('/user/investment-tiers', tiersResponse);

export const tiersQueryKey = ['investment-tiers'] as const;

export function useTiers() {
  return useQuery({ queryKey: tiersQueryKey, queryFn: getTiers });
}
