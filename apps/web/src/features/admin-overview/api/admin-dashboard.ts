import { queryOptions } from '@tanstack/react-query';
import { adminDashboardResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const adminDashboardQuery = () =>
  queryOptions({
    queryKey: queryKeys.admin.dashboard,
    queryFn: () => api('/admin/dashboard', adminDashboardResponse),
    refetchInterval: 30_000,
  });
