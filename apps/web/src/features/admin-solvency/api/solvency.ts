import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import { reconciliationResponse, solvencyResponse } from '@harvest/shared/schemas/solvency';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const solvencyKey = [...queryKeys.admin.all, 'solvency'] as const;

/**
 * Liabilities against on-chain USDC, the watcher, the last reconciliation and open alarms (GET /api/admin/solvency),
 * under the back office's key prefix; read every few seconds while a reconciliation runs.
 */
export const solvencyQuery = () =>
  queryOptions({
    queryKey: solvencyKey,
    queryFn: () => api('/admin/solvency', solvencyResponse),
    refetchInterval: (q) => (q.state.data?.reconciliation?.status === 'running' ? 3_000 : 60_000),
  });

/** "Refresh now": every balance read again (POST /api/admin/solvency/refresh); the answer is the new view. */
export function useRefreshSolvency() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api('/admin/solvency/refresh', solvencyResponse, { method: 'POST' }),
    onSuccess: (s) => qc.setQueryData(solvencyKey, s),
  });
}

/** "Reconcile now" (POST /api/admin/solvency/reconcile): the run starts; the panel follows it. */
export function useReconcile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api('/admin/solvency/reconcile', reconciliationResponse, { method: 'POST' }),
    onSettled: () => qc.invalidateQueries({ queryKey: solvencyKey }),
  });
}

/** An operator has looked at a chain alarm (POST /api/admin/chain-alarms/:id/acknowledge). */
export function useAcknowledgeAlarm() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api(`/admin/chain-alarms/${encodeURIComponent(id)}/acknowledge`, messageResponse, { method: 'POST' }),
    onSettled: () => qc.invalidateQueries({ queryKey: solvencyKey }),
  });
}
