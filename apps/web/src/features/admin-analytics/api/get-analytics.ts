import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { analyticsResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';

export const getAnalytics = (period: number) => api(`/user/admin/analytics?period=${period}`, analyticsResponse);

export function useAnalytics(period: number) {
  return useQuery({
    queryKey: ['admin', 'analytics', period],
    queryFn: () => getAnalytics(period),
    placeholderData: keepPreviousData,
  });
}
