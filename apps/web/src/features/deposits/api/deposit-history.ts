import { queryOptions } from '@tanstack/react-query';
import { depositsResponse } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { retryDelayFor } from '../../../lib/query-client.ts';

/** The investor's deposits, newest first. */
export const depositHistoryQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: queryKeys.deposits.history,
    queryFn: () => api('/user/deposit-history', depositsResponse),
    refetchInterval,
    // Shed for overload: asked again later and later from this interval (decision 0096).
    retryDelay: retryDelayFor(refetchInterval),
  });

export const failedDepositsQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: queryKeys.deposits.failed,
    queryFn: () => api('/withdrawal/failed-deposits', depositsResponse),
    refetchInterval,
    // Shed for overload: asked again later and later from this interval (decision 0096).
    retryDelay: retryDelayFor(refetchInterval),
  });
