import { queryOptions } from '@tanstack/react-query';
import { adminReferralLookupResponse, adminUsersResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';
import { queryString } from '../../../lib/paging.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Candidate users for the referral look-up (name or e-mail search, first page). */
export const userCandidatesQuery = (search: string) =>
  queryOptions({
    queryKey: queryKeys.admin.referrals.candidates(search),
    queryFn: () => api(`/admin/users?${queryString({ pageSize: 10, search })}`, adminUsersResponse),
    enabled: search.length > 0,
  });

/** Any user's three-level network and the rewards it produced. */
export const userNetworkQuery = (userId: string | null) =>
  queryOptions({
    queryKey: queryKeys.admin.referrals.network(userId),
    queryFn: () => api(`/admin/users/${encodeURIComponent(userId ?? '')}/referral-tree`, adminReferralLookupResponse),
    enabled: userId !== null,
  });
