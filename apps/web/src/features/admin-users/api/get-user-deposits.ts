import { useQuery } from '@tanstack/react-query';
import { adminUserDepositsResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';

export const getUserDeposits = (userId: string, page: number) =>
  api(`/admin/users/${encodeURIComponent(userId)}/deposits?page=${page}&pageSize=20`, adminUserDepositsResponse);

/** A user's deposits, fetched only when the View Deposits toggle is open. */
export function useUserDeposits(userId: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'users', userId, 'deposits', page],
    queryFn: () => getUserDeposits(userId, page),
    enabled,
  });
}
