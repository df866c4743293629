import { useQueryClient } from '@tanstack/react-query';
import { withdrawalActionResponse, type RejectInput } from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const rejectWithdrawal = (body: RejectInput, idempotencyKey: string) =>
  api('/withdrawal/admin/reject', withdrawalActionResponse, { method: 'POST', body, idempotencyKey });

export function useRejectWithdrawal() {
  const qc = useQueryClient();
  return useIdempotentMutation(rejectWithdrawal, (b) => `reject-withdrawal:${JSON.stringify(b)}`, {
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
