import { useMutation, useQueryClient } from '@tanstack/react-query';
import { depositResultResponse } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const dismissFailedDeposit = (depositId: string) =>
  api('/withdrawal/dismiss-failed-deposit', depositResultResponse, { method: 'POST', body: { depositId } });

export function useDismissFailedDeposit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: dismissFailedDeposit,
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.deposits.all }),
  });
}
