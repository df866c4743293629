import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminProcessDepositResponse, type AdminRejectDepositInput } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';

export const rejectDeposit = (body: AdminRejectDepositInput) =>
  api('/admin/reject-deposit', adminProcessDepositResponse, { method: 'POST', body });

export function useRejectDeposit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: rejectDeposit,
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin-deposits'] }),
  });
}
