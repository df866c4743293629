import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import type { UpdateUserBalanceInput } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';

export const updateUserBalance = (body: UpdateUserBalanceInput) =>
  api('/admin/update-user-balance', messageResponse, { method: 'POST', body });

export function useUpdateUserBalance() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateUserBalance,
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['admin-users'] }),
        qc.invalidateQueries({ queryKey: ['admin-deposits'] }),
      ]);
    },
  });
}
