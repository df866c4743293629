import { useMutation, useQueryClient } from '@tanstack/react-query';
import { depositResultResponse, type UpdateFailedDepositInput } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const updateFailedDeposit = (body: UpdateFailedDepositInput) =>
  api('/withdrawal/update-failed-deposit', depositResultResponse, { method: 'POST', body });

export function useUpdateFailedDeposit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateFailedDeposit,
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.deposits.all }),
        qc.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]);
    },
  });
}
