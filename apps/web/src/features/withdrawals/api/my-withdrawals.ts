import { queryOptions } from '@tanstack/react-query';
import { myWithdrawalsResponse } from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { retryDelayFor } from '../../../lib/query-client.ts';

/** The investor's withdrawals, newest first; the time parameter defeats caches (spec section 7). */
export const myWithdrawalsQuery = (refetchInterval?: number) =>
  queryOptions({
    queryKey: queryKeys.withdrawals.mine,
    queryFn: () => api(`/withdrawal/my-withdrawals?t=${Date.now()}`, myWithdrawalsResponse),
    refetchInterval,
    // Shed for overload: asked again later and later from this interval (decision 0096).
    retryDelay: retryDelayFor(refetchInterval),
  });
