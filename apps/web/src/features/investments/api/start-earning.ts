import { useQueryClient } from '@tanstack/react-query';
import { startEarningResponse } from '@harvest/shared/schemas/investments';
import { api } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';

export const startEarning = (investmentId: string, idempotencyKey: string) =>
  api('/user/start-earning', startEarningResponse, { method: 'POST', body: { investmentId }, idempotencyKey });

export function useStartEarning() {
  const queryClient = useQueryClient();
  return useIdempotentMutation(startEarning, (id) => `start:${id}`, {
    onSettled: () => queryClient.invalidateQueries(),
  });
}
