import { queryOptions } from '@tanstack/react-query';
import { POLL_ADMIN_WITHDRAWALS_MS } from '@harvest/shared/constants';
import { adminWithdrawalsResponse } from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';
import { pageQuery, type PageAt } from '../../../lib/paging.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const WITHDRAWALS_PAGE_SIZE = 25;

/** Pending: the queue to process; History: every withdrawal, paged (newest first). */
export type WithdrawalView = 'pending' | 'history';
export const adminWithdrawalsQuery = (view: WithdrawalView, at: PageAt) =>
  queryOptions({
    queryKey: queryKeys.admin.withdrawals.list(view, at),
    queryFn: () =>
      api(
        `/withdrawal/admin/${view === 'pending' ? 'pending' : 'all'}?${pageQuery(at, WITHDRAWALS_PAGE_SIZE, { t: Date.now() })}`,
        adminWithdrawalsResponse,
      ),
    refetchInterval: POLL_ADMIN_WITHDRAWALS_MS,
  });
