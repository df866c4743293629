import { useMutation, useQueryClient } from '@tanstack/react-query';
import { depositResultResponse, type ProcessDepositInput } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { depositHistoryKey } from './get-deposit-history.ts';
import { failedDepositsKey } from './get-failed-deposits.ts';

export const submitDeposit = (body: ProcessDepositInput) =>
  api('/user/process-deposit', depositResultResponse, { method: 'POST', body });

export function useSubmitDeposit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: submitDeposit,
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: depositHistoryKey }),
        qc.invalidateQueries({ queryKey: failedDepositsKey }),
        qc.invalidateQueries({ queryKey: ['dashboard'] }),
      ]);
    },
  });
}
