import { useQuery } from '@tanstack/react-query';
import { adminReferralLookupResponse, adminUsersResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';

/** Candidate users for the look-up (name or e-mail search, first page). */
export function useUserCandidates(search: string) {
  return useQuery({
    queryKey: ['admin', 'referrals', 'candidates', search],
    queryFn: () => api(`/admin/users?pageSize=10&search=${encodeURIComponent(search)}`, adminUsersResponse),
    enabled: search.length > 0,
  });
}

/** Any user's three-level network and the rewards it produced. */
export function useUserNetwork(userId: string | null) {
  return useQuery({
    queryKey: ['admin', 'referrals', 'network', userId],
    queryFn: () => api(`/admin/users/${encodeURIComponent(userId ?? '')}/referral-tree`, adminReferralLookupResponse),
    enabled: userId !== null,
  });
}
