import * as z from 'zod/mini';
import { proposalSentResponse } from '@harvest/shared/schemas/proposals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminTierResponse, type TierInput, type TierUpdateInput } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const createTier = (body: TierInput) =>
  api('/admin/tiers', z.union([adminTierResponse, proposalSentResponse]), { method: 'POST', body });
export const updateTier = (id: string, body: TierUpdateInput) =>
  api(`/admin/tiers/${encodeURIComponent(id)}`, z.union([adminTierResponse, proposalSentResponse]), {
    method: 'PUT',
    body,
  });

/** Create (no id) or update a tier; the back office and the investors' tier list refetch after. */
export function useSaveTier() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id?: string; body: TierInput | TierUpdateInput }) => {
      if (v.id) return updateTier(v.id, v.body);
      const b = v.body;
      if (b.name === undefined || b.amount === undefined || b.dailyRate === undefined)
        throw new Error('incomplete tier');
      return createTier({ ...b, name: b.name, amount: b.amount, dailyRate: b.dailyRate });
    },
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
        qc.invalidateQueries({ queryKey: queryKeys.tiers }),
      ]),
  });
}
