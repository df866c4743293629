import { useQuery } from '@tanstack/react-query';
import { dashboardResponse } from '@harvest/shared/schemas/dashboard';
import { api } from '../../../lib/api-client.ts';

export const getDashboard = () => api('/user/dashboard', dashboardResponse);

export const dashboardQueryKey = ['dashboard'] as const;

/** The investor's account summary and investments; `refetchInterval` per screen (2 s / 30 s in the spec). */
export function useDashboard(refetchInterval?: number) {
  return useQuery({ queryKey: dashboardQueryKey, queryFn: getDashboard, refetchInterval });
}
