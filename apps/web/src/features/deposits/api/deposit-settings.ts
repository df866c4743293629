import { queryOptions } from '@tanstack/react-query';
import { depositSettingsResponse } from '@harvest/shared/schemas/deposit-settings';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** How deposits work on this server: own address (found on chain) or the shared one (claimed); the chain id. */
export const depositSettingsQuery = () =>
  queryOptions({
    queryKey: queryKeys.deposits.settings,
    queryFn: () => api('/user/deposit-settings', depositSettingsResponse),
    staleTime: Infinity,
  });
