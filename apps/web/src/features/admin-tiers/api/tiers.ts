import { queryOptions } from '@tanstack/react-query';
import { adminTiersResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const adminTiersQuery = () =>
  queryOptions({ queryKey: queryKeys.admin.tiers, queryFn: () => api('/admin/tiers', adminTiersResponse) });
