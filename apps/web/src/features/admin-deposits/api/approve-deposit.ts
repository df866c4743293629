import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminProcessDepositResponse } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const approveDeposit = (depositId: string) =>
  api('/admin/process-deposit', adminProcessDepositResponse, { method: 'POST', body: { depositId } });

/** Approving credits a balance: every back-office figure (overview, lists, users, analytics, audit) refetches. */
export function useApproveDeposit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: approveDeposit,
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
