import { useMutation, useQueryClient } from '@tanstack/react-query';
import { withdrawalActionResponse, type RejectInput } from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const rejectWithdrawal = (body: RejectInput) =>
  api('/withdrawal/admin/reject', withdrawalActionResponse, { method: 'POST', body });

export function useRejectWithdrawal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: rejectWithdrawal,
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
