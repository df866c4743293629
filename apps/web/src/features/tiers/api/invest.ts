import { useMutation, useQueryClient } from '@tanstack/react-query';
import { investResponse } from '@harvest/shared/schemas/investments';
import { api } from '../../../lib/api-client.ts';

export const invest = (amount: number) => api('/user/invest', investResponse, { method: 'POST', body: { amount } });

/** Buys a tier; money moved, so every screen's data (balances, investments, lists) is refetched. */
export function useInvest() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: invest, onSuccess: () => queryClient.invalidateQueries() });
}
