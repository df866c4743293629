import { useQuery } from '@tanstack/react-query';
import { depositsResponse } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';

export const failedDepositsKey = ['failed-deposits'] as const;
export const getFailedDeposits = () => api('/withdrawal/failed-deposits', depositsResponse);

export function useFailedDeposits(refetchInterval?: number) {
  return useQuery({ queryKey: failedDepositsKey, queryFn: getFailedDeposits, refetchInterval });
}
