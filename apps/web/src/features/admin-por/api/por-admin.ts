import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { porHistoryResponse, porReservesResponse, porSnapshotSchema } from '@harvest/shared/schemas/proof-of-reserves';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const key = [...queryKeys.admin.all, 'proof-of-reserves'] as const;

/** The snapshots, newest first (GET /api/admin/proof-of-reserves/snapshots: never cached, unlike the public list). */
export const adminSnapshotsQuery = () =>
  queryOptions({
    queryKey: [...key, 'snapshots'],
    queryFn: () => api('/admin/proof-of-reserves/snapshots', porHistoryResponse),
  });

/** One snapshot's reserve addresses, their signatures and why one does not count. */
export const adminReservesQuery = (id: string) =>
  queryOptions({
    queryKey: [...key, 'reserves', id],
    queryFn: () => api(`/admin/proof-of-reserves/${encodeURIComponent(id)}/reserves`, porReservesResponse),
  });

/** "Take a snapshot now" (POST /api/admin/proof-of-reserves/snapshots). */
export function useTakeSnapshot() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api('/admin/proof-of-reserves/snapshots', porSnapshotSchema, { method: 'POST' }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
}

/** Uploads the signatures file `npm run por:sign` wrote; the answer is the snapshot's reserves, checked. */
export function useUploadSignatures() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; signatures: { address: string; signature: string }[] }) =>
      api(`/admin/proof-of-reserves/${encodeURIComponent(v.id)}/signatures`, porReservesResponse, {
        method: 'POST',
        body: { signatures: v.signatures },
      }),
    onSuccess: (r) => qc.setQueryData([...key, 'reserves', r.snapshotId], r),
    onSettled: () => qc.invalidateQueries({ queryKey: [...key, 'snapshots'] }),
  });
}
