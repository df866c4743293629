import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import type { UpdateUserBalanceInput } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const updateUserBalance = (body: UpdateUserBalanceInput) =>
  api('/admin/update-user-balance', messageResponse, { method: 'POST', body });

/**
 * Sets a balance: the user's figures, their deposits (an admin credit appears in View Deposits), the
 * deposit lists and the overview all change, so the whole back office refetches.
 */
export function useUpdateUserBalance() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateUserBalance,
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
