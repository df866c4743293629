import { queryOptions } from '@tanstack/react-query';
import { tiersResponse } from '@harvest/shared/schemas/investments';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const tiersQuery = () =>
  queryOptions({ queryKey: queryKeys.tiers, queryFn: () => api('/user/investment-tiers', tiersResponse) });
