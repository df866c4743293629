import { useQuery } from '@tanstack/react-query';
import { myWithdrawalsResponse } from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';

export const myWithdrawalsQueryKey = ['withdrawals', 'mine'] as const;

/** The investor's withdrawals, newest first; the time parameter defeats caches (spec section 7). */
export const getMyWithdrawals = () => api(`/withdrawal/my-withdrawals?t=${Date.now()}`, myWithdrawalsResponse);

export function useMyWithdrawals(refetchInterval?: number) {
  return useQuery({ queryKey: myWithdrawalsQueryKey, queryFn: getMyWithdrawals, refetchInterval });
}
