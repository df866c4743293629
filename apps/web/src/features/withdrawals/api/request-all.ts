import { useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import type { RequestAllInput } from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const requestAll = (body: RequestAllInput, idempotencyKey: string) =>
  api('/withdrawal/request-all', messageResponse, { method: 'POST', body, idempotencyKey });

/** Withdraw All; afterwards the history and the dashboard figures are read again. */
export function useRequestAll() {
  const qc = useQueryClient();
  return useIdempotentMutation(
    requestAll,
    (b) => `withdraw-all:${b.walletAddress}:${b.withdrawalPassword}:${b.passkey?.response.signature ?? ''}`,
    {
      onSettled: async () => {
        await Promise.all([
          qc.invalidateQueries({ queryKey: queryKeys.withdrawals.mine }),
          qc.invalidateQueries({ queryKey: queryKeys.dashboard }),
        ]);
      },
    },
  );
}
