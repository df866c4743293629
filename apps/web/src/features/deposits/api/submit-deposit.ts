import { useQueryClient } from '@tanstack/react-query';
import { depositResultResponse, type ProcessDepositInput } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const submitDeposit = (body: ProcessDepositInput, idempotencyKey: string) =>
  api('/user/process-deposit', depositResultResponse, { method: 'POST', body, idempotencyKey });

export function useSubmitDeposit() {
  const qc = useQueryClient();
  return useIdempotentMutation(submitDeposit, (body) => `submitDeposit:${JSON.stringify(body)}`, {
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.deposits.all }),
        qc.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]);
    },
  });
}
