import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminDepositsResponse, type AdminDepositFilter } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';

export const adminDepositsKey = (status: AdminDepositFilter, page: number) => ['admin-deposits', status, page] as const;

export const getAdminDeposits = (status: AdminDepositFilter, page: number, pageSize: number) =>
  api(`/admin/deposits?status=${status}&page=${page}&pageSize=${pageSize}`, adminDepositsResponse);

/** Every deposit with its depositor, filtered by status, with counts per status; paged. */
export function useAdminDeposits(status: AdminDepositFilter, page: number, pageSize: number) {
  return useQuery({
    queryKey: adminDepositsKey(status, page),
    queryFn: () => getAdminDeposits(status, page, pageSize),
    placeholderData: keepPreviousData,
  });
}
