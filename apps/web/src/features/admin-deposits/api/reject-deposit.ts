import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminProcessDepositResponse, type AdminRejectDepositInput } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const rejectDeposit = (body: AdminRejectDepositInput) =>
  api('/admin/reject-deposit', adminProcessDepositResponse, { method: 'POST', body });

/** Rejecting changes the pending counts and lists: every back-office figure refetches. */
export function useRejectDeposit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: rejectDeposit,
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
