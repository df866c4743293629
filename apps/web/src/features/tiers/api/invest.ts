import { useQueryClient } from '@tanstack/react-query';
import { investResponse } from '@harvest/shared/schemas/investments';
import { api } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';

export const invest = (amount: number, idempotencyKey: string) =>
  api('/user/invest', investResponse, { method: 'POST', body: { amount }, idempotencyKey });

/** Buys a tier; money moved, so every screen's data (balances, investments, lists) is refetched. */
export function useInvest() {
  const queryClient = useQueryClient();
  return useIdempotentMutation(invest, (amount) => `invest:${amount}`, {
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
