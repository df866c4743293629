import { queryOptions } from '@tanstack/react-query';
import { POLL_ADMIN_USERS_MS } from '@harvest/shared/constants';
import { adminUserDepositsResponse, adminUsersResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';
import { pageQuery, type PageAt } from '../../../lib/paging.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const USERS_PAGE_SIZE = 20;
export const USER_DEPOSITS_PAGE_SIZE = 20;

export const adminUsersQuery = (at: PageAt, search: string) =>
  queryOptions({
    queryKey: queryKeys.admin.users.list(at, USERS_PAGE_SIZE, search),
    queryFn: () => api(`/admin/users?${pageQuery(at, USERS_PAGE_SIZE, search ? { search } : {})}`, adminUsersResponse),
    refetchInterval: POLL_ADMIN_USERS_MS,
  });

/** A user's deposits (View Deposits). */
export const userDepositsQuery = (userId: string, at: PageAt) =>
  queryOptions({
    queryKey: queryKeys.admin.users.deposits(userId, at),
    queryFn: () =>
      api(
        `/admin/users/${encodeURIComponent(userId)}/deposits?${pageQuery(at, USER_DEPOSITS_PAGE_SIZE)}`,
        adminUserDepositsResponse,
      ),
  });
