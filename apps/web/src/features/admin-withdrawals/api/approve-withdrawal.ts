import * as z from 'zod/mini';
import { proposalSentResponse } from '@harvest/shared/schemas/proposals';
import { useQueryClient } from '@tanstack/react-query';
import { withdrawalActionResponse, type ApproveInput } from '@harvest/shared/schemas/withdrawals';
import { api } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const approveWithdrawal = (body: ApproveInput, idempotencyKey: string) =>
  api('/withdrawal/admin/approve', z.union([withdrawalActionResponse, proposalSentResponse]), {
    method: 'POST',
    body,
    idempotencyKey,
  });

export function useApproveWithdrawal() {
  const qc = useQueryClient();
  return useIdempotentMutation(approveWithdrawal, (b) => `approve-withdrawal:${JSON.stringify(b)}`, {
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
