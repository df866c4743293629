import { useMutation, useQueryClient } from '@tanstack/react-query';
import { depositResultResponse, type UpdateFailedDepositInput } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { depositHistoryKey } from './get-deposit-history.ts';
import { failedDepositsKey } from './get-failed-deposits.ts';

export const updateFailedDeposit = (body: UpdateFailedDepositInput) =>
  api('/withdrawal/update-failed-deposit', depositResultResponse, { method: 'POST', body });

export function useUpdateFailedDeposit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateFailedDeposit,
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: depositHistoryKey }),
        qc.invalidateQueries({ queryKey: failedDepositsKey }),
        qc.invalidateQueries({ queryKey: ['dashboard'] }),
      ]);
    },
  });
}
