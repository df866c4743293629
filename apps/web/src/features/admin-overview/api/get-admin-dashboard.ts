import { useQuery } from '@tanstack/react-query';
import { adminDashboardResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';

export const getAdminDashboard = () => api('/admin/dashboard', adminDashboardResponse);

export const adminDashboardQueryKey = ['admin', 'dashboard'] as const;

export function useAdminDashboard() {
  return useQuery({ queryKey: adminDashboardQueryKey, queryFn: getAdminDashboard, refetchInterval: 30_000 });
}
