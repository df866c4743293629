import { useQueryClient } from '@tanstack/react-query';
import { depositResultResponse, type UpdateFailedDepositInput } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const updateFailedDeposit = (body: UpdateFailedDepositInput, idempotencyKey: string) =>
  api('/withdrawal/update-failed-deposit', depositResultResponse, { method: 'POST', body, idempotencyKey });

export function useUpdateFailedDeposit() {
  const qc = useQueryClient();
  return useIdempotentMutation(updateFailedDeposit, (body) => `updateFailedDeposit:${JSON.stringify(body)}`, {
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.deposits.all }),
        qc.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]);
    },
  });
}
