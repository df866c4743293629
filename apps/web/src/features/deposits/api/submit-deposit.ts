import { useMutation, useQueryClient } from '@tanstack/react-query';
import { depositResultResponse, type ProcessDepositInput } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const submitDeposit = (body: ProcessDepositInput) =>
  api('/user/process-deposit', depositResultResponse, { method: 'POST', body });

export function useSubmitDeposit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: submitDeposit,
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.deposits.all }),
        qc.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]);
    },
  });
}
