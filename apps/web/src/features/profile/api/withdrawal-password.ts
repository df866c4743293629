import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import type { WithdrawalPasswordInput } from '@harvest/shared/schemas/user';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const changeWithdrawalPassword = (body: WithdrawalPasswordInput) =>
  api('/user/withdrawal-password', messageResponse, { method: 'PUT', body });

/** The change starts a withdrawal hold and a security event: Profile's limits and activity are read again. */
export function useChangeWithdrawalPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: changeWithdrawalPassword,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.account.all }),
  });
}
