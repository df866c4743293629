import { useQuery } from '@tanstack/react-query';
import { adminTiersResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';

export const adminTiersQueryKey = ['admin', 'tiers'] as const;

export function useAdminTiers() {
  return useQuery({ queryKey: adminTiersQueryKey, queryFn: () => api('/admin/tiers', adminTiersResponse) });
}
