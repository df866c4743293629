import { queryOptions } from '@tanstack/react-query';
import { solvencyResponse } from '@harvest/shared/schemas/solvency';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Liabilities against on-chain USDC (GET /api/admin/solvency), under the back office's key prefix. */
export const solvencyQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.admin.all, 'solvency'] as const,
    queryFn: () => api('/admin/solvency', solvencyResponse),
    refetchInterval: 60_000,
  });
