import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import {
  foundPayoutsResponse,
  payoutBatchResponse,
  payoutBatchesResponse,
  type CreateBatchInput,
} from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';
import { fetchFile, save } from '../../../lib/download.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Payout batches (GET /api/withdrawal/admin/batches): open ones first. */
export const batchesQuery = () =>
  queryOptions({
    queryKey: queryKeys.admin.batches,
    queryFn: () => api('/withdrawal/admin/batches', payoutBatchesResponse),
    refetchInterval: 30_000,
  });

/** Payouts read on chain that the watcher could not settle by itself (GET /api/withdrawal/admin/payouts). */
export const foundPayoutsQuery = () =>
  queryOptions({
    queryKey: queryKeys.admin.payouts,
    queryFn: () => api('/withdrawal/admin/payouts', foundPayoutsResponse),
    refetchInterval: 30_000,
  });

/** After a batch or a payout changes, the lists, the batches and the found payouts are read again. */
function useRefreshWithdrawals() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: queryKeys.admin.batches }),
      qc.invalidateQueries({ queryKey: queryKeys.admin.payouts }),
      qc.invalidateQueries({ queryKey: queryKeys.admin.withdrawals.all }),
    ]);
}

export function useCreateBatch() {
  const refresh = useRefreshWithdrawals();
  return useMutation({
    mutationFn: (body: CreateBatchInput) =>
      api('/withdrawal/admin/batches', payoutBatchResponse, { method: 'POST', body }),
    onSettled: refresh,
  });
}

/**
 * Cancels an open batch. Once its file was downloaded the server asks the administrator's confirmation that it was
 * not and will not be executed (`confirmNotExecuted`); without a download nothing is sent but the request.
 */
export function useCancelBatch() {
  const refresh = useRefreshWithdrawals();
  return useMutation({
    mutationFn: (v: { id: string; confirmNotExecuted: boolean }) =>
      api(`/withdrawal/admin/batches/${encodeURIComponent(v.id)}/cancel`, payoutBatchResponse, {
        method: 'POST',
        body: v.confirmNotExecuted ? { confirmNotExecuted: true } : undefined,
      }),
    onSettled: refresh,
  });
}

export function useAssignPayout() {
  const refresh = useRefreshWithdrawals();
  return useMutation({
    mutationFn: (v: { id: string; withdrawalIds: string[] }) =>
      api(`/withdrawal/admin/payouts/${encodeURIComponent(v.id)}/assign`, messageResponse, {
        method: 'POST',
        body: { withdrawalIds: v.withdrawalIds },
      }),
    onSettled: refresh,
  });
}

export function useDismissPayout() {
  const refresh = useRefreshWithdrawals();
  return useMutation({
    mutationFn: (id: string) =>
      api(`/withdrawal/admin/payouts/${encodeURIComponent(id)}/dismiss`, messageResponse, { method: 'POST' }),
    onSettled: refresh,
  });
}

/**
 * Saves one of an open batch's files: the Safe Transaction Builder batch or the CSV (address, amount). The batch is
 * read again afterwards: its first download makes a cancel need the administrator's confirmation.
 */
export function useDownloadBatchFile() {
  const qc = useQueryClient();
  return async (id: string, format: 'safe' | 'csv'): Promise<string> => {
    try {
      const file = await fetchFile(
        `/withdrawal/admin/batches/${encodeURIComponent(id)}/file?format=${format}`,
        format === 'safe' ? 'payout-batch.safe.json' : 'payout-batch.csv',
        format === 'safe' ? 'application/json' : 'text/csv',
      );
      save(file);
      return file.name;
    } finally {
      void qc.invalidateQueries({ queryKey: queryKeys.admin.batches });
    }
  };
}
