import { useQueryClient } from '@tanstack/react-query';
import { investResponse, type InvestInput, type Tier } from '@harvest/shared/schemas/investments';
import { api, hasCode } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The tier exactly as the dialog showed it: its `_id`, amount and daily rate (the server refuses other terms). */
export const investBodyOf = (tier: Tier): InvestInput => ({
  amount: tier.amount,
  tierId: tier._id,
  dailyRate: tier.dailyRate,
});

export const invest = (body: InvestInput, idempotencyKey: string) =>
  api('/user/invest', investResponse, { method: 'POST', body, idempotencyKey });

/**
 * Buys a tier; money moved, so every screen's data (balances, investments, lists) is refetched. A tier that
 * changed since the list was read (`tier_changed`) refetches the list, so the investor sees its terms now.
 */
export function useInvest() {
  const queryClient = useQueryClient();
  return useIdempotentMutation(invest, (body) => `invest:${JSON.stringify(body)}`, {
    onSuccess: () => queryClient.invalidateQueries(),
    onError: (err) => {
      if (hasCode(err, 'tier_changed')) void queryClient.invalidateQueries({ queryKey: queryKeys.tiers });
    },
  });
}
