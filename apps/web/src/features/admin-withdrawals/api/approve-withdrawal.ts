import { useMutation, useQueryClient } from '@tanstack/react-query';
import { withdrawalActionResponse, type ApproveInput } from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const approveWithdrawal = (body: ApproveInput) =>
  api('/withdrawal/admin/approve', withdrawalActionResponse, { method: 'POST', body });

export function useApproveWithdrawal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: approveWithdrawal,
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
