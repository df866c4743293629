import { useQueryClient } from '@tanstack/react-query';
import { completeCycleResponse } from '@harvest/shared/schemas/investments';
import { api } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';

export const completeCycle = (investmentId: string, idempotencyKey: string) =>
  api('/user/complete-cycle', completeCycleResponse, { method: 'POST', body: { investmentId }, idempotencyKey });

export function useCompleteCycle() {
  const queryClient = useQueryClient();
  return useIdempotentMutation(completeCycle, (id) => `complete:${id}`, {
    onSettled: () => queryClient.invalidateQueries(),
  });
}
