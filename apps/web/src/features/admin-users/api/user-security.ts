import { queryOptions } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import { adminSessionsResponse, adminWithdrawalAddressesResponse } from '@harvest/shared/schemas/security';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const id = (userId: string) => encodeURIComponent(userId);

/** A user's sessions and address book in the back office (the newest 50 of each). */
export const userSessionsQuery = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.admin.users.sessions(userId),
    queryFn: () => api(`/admin/users/${id(userId)}/sessions?pageSize=50`, adminSessionsResponse),
  });
export const userAddressesQuery = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.admin.users.addresses(userId),
    queryFn: () => api(`/admin/users/${id(userId)}/withdrawal-addresses?pageSize=50`, adminWithdrawalAddressesResponse),
  });

export const revokeUserSessions = (userId: string) =>
  api(`/admin/users/${id(userId)}/revoke-sessions`, messageResponse, { method: 'POST' });
export const setWithdrawalsFrozen = (userId: string, frozen: boolean) =>
  api(`/admin/users/${id(userId)}/withdrawals-frozen`, messageResponse, { method: 'PUT', body: { frozen } });
