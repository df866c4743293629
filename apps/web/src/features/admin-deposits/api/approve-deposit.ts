import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminProcessDepositResponse } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';

export const approveDeposit = (depositId: string) =>
  api('/admin/process-deposit', adminProcessDepositResponse, { method: 'POST', body: { depositId } });

export function useApproveDeposit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: approveDeposit,
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin-deposits'] }),
  });
}
