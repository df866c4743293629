import { queryOptions } from '@tanstack/react-query';
import {
  porHistoryResponse,
  porProofSchema,
  porReservesResponse,
  porSnapshotSchema,
} from '@harvest/shared/schemas/proof-of-reserves';
import { api } from '../../../lib/api-client.ts';

const key = ['proof-of-reserves'] as const;

/** The latest published snapshot (public, no sign-in). */
export const latestSnapshotQuery = () =>
  queryOptions({ queryKey: [...key, 'latest'], queryFn: () => api('/proof-of-reserves', porSnapshotSchema) });

/** One published snapshot by id (public; it never changes). */
export const snapshotQuery = (id: string) =>
  queryOptions({
    queryKey: [...key, 'snapshot', id],
    queryFn: () => api(`/proof-of-reserves/${id}`, porSnapshotSchema),
    staleTime: Infinity,
  });

/** Every snapshot, oldest first, for the chart (public). */
export const historyQuery = () =>
  queryOptions({
    queryKey: [...key, 'history'],
    queryFn: () => api('/proof-of-reserves/history', porHistoryResponse),
  });

/** A snapshot's reserve addresses, balances and signatures (public). */
export const reservesQuery = (id: string) =>
  queryOptions({
    queryKey: [...key, 'reserves', id],
    queryFn: () => api(`/proof-of-reserves/${id}/reserves`, porReservesResponse),
  });

/** The signed-in investor's inclusion proof in the latest snapshot. */
export const myProofQuery = () =>
  queryOptions({
    queryKey: [...key, 'my-proof'],
    queryFn: () => api('/user/proof-of-reserves/proof', porProofSchema),
  });
