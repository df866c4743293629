import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import type { RequestAllInput } from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const requestAll = (body: RequestAllInput) =>
  api('/withdrawal/request-all', messageResponse, { method: 'POST', body });

/** Withdraw All; afterwards the history and the dashboard figures are read again. */
export function useRequestAll() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: requestAll,
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.withdrawals.mine }),
        qc.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]);
    },
  });
}
