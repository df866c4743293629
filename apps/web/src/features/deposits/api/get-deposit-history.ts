import { useQuery } from '@tanstack/react-query';
import { depositsResponse } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';

export const depositHistoryKey = ['deposit-history'] as const;
export const getDepositHistory = () => api('/user/deposit-history', depositsResponse);

/** The investor's deposits, newest first; the deposit tab refetches every 30 s (spec section 7). */
export function useDepositHistory(refetchInterval?: number) {
  return useQuery({ queryKey: depositHistoryKey, queryFn: getDepositHistory, refetchInterval });
}
