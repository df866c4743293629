import { queryOptions } from '@tanstack/react-query';
import { adminDepositsResponse, type AdminDepositFilter } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { pageQuery, type PageAt } from '../../../lib/paging.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const DEPOSITS_PAGE_SIZE = 50;

/** Every deposit with its depositor, filtered by status, with counts per status; paged. */
export const adminDepositsQuery = (status: AdminDepositFilter, at: PageAt) =>
  queryOptions({
    queryKey: queryKeys.admin.deposits(status, at),
    queryFn: () => api(`/admin/deposits?${pageQuery(at, DEPOSITS_PAGE_SIZE, { status })}`, adminDepositsResponse),
  });
