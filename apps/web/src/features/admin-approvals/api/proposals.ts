import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import { proposalsResponse } from '@harvest/shared/schemas/proposals';
import { api } from '../../../lib/api-client.ts';
import { withStepUp } from '../../../lib/passkey.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Open four-eyes proposals, refreshed like the withdrawals list (a colleague may propose at any moment). */
export const proposalsQuery = () =>
  queryOptions({
    queryKey: queryKeys.admin.proposals,
    queryFn: () => api('/admin/proposals', proposalsResponse),
    refetchInterval: 30_000,
  });

const url = (id: string, decision: 'approve' | 'reject') => `/admin/proposals/${encodeURIComponent(id)}/${decision}`;

/** An approver with a passkey confirms exactly this proposal with it; a rejection changes nothing and needs none. */
const decide = (id: string, decision: 'approve' | 'reject') =>
  decision === 'reject'
    ? api(url(id, decision), messageResponse, { method: 'POST' })
    : withStepUp(
        (passkey) => api(url(id, decision), messageResponse, { method: 'POST', body: passkey ? { passkey } : {} }),
        { purpose: 'approve_proposal', proposalId: id },
      );

/** Approve or reject: what it changed may be on any back-office screen, so all of them refetch. */
export function useDecideProposal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; decision: 'approve' | 'reject' }) => decide(v.id, v.decision),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
