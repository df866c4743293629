import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminWithdrawalsResponse } from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';

export type AdminView = 'pending' | 'history';

export const adminWithdrawalsKey = (view: AdminView, page: number) => ['admin-withdrawals', view, page] as const;

/** Pending: the queue to process; History: every withdrawal, paged (newest first). */
export const getAdminWithdrawals = (view: AdminView, page: number, pageSize: number) =>
  api(
    `/withdrawal/admin/${view === 'pending' ? 'pending' : 'all'}?page=${page}&pageSize=${pageSize}&t=${Date.now()}`,
    adminWithdrawalsResponse,
  );

export function useAdminWithdrawals(view: AdminView, page: number, pageSize: number, refetchInterval: number) {
  return useQuery({
    queryKey: adminWithdrawalsKey(view, page),
    queryFn: () => getAdminWithdrawals(view, page, pageSize),
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}
