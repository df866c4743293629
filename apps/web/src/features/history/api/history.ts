import { queryOptions } from '@tanstack/react-query';
import { historyResponse, type HistoryStatus } from '@harvest/shared/schemas/history';
import { api } from '../../../lib/api-client.ts';
import { queryString } from '../../../lib/paging.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** One page of the investor's deposits and withdrawals; the filter and search only when set. */
export const historyQuery = (page: number, status: HistoryStatus | '', q: string) =>
  queryOptions({
    queryKey: queryKeys.history(page, status, q),
    queryFn: () =>
      api(`/user/history?${queryString({ page, ...(status && { status }), ...(q && { q }) })}`, historyResponse),
  });
