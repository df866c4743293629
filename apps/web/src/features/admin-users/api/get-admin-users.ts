import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminUsersResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';

export const adminUsersQueryKey = ['admin', 'users'] as const;

export function getAdminUsers(page: number, pageSize: number, search: string) {
  const qs = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (search) qs.set('search', search);
  return api(`/admin/users?${qs.toString()}`, adminUsersResponse);
}

export function useAdminUsers(page: number, pageSize: number, search: string) {
  return useQuery({
    queryKey: [...adminUsersQueryKey, page, pageSize, search],
    queryFn: () => getAdminUsers(page, pageSize, search),
    placeholderData: keepPreviousData,
  });
}
