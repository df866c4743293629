import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { analyticsResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const analyticsQuery = (period: number) =>
  queryOptions({
    queryKey: queryKeys.admin.analytics(period),
    queryFn: () => api(`/user/admin/analytics?period=${period}`, analyticsResponse),
    placeholderData: keepPreviousData,
  });
