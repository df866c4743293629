import * as z from 'zod/mini';
import { proposalSentResponse } from '@harvest/shared/schemas/proposals';
import { useQueryClient } from '@tanstack/react-query';
import { adminProcessDepositResponse } from '@harvest/shared/schemas/deposits';
import { api } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const approveDeposit = (depositId: string, idempotencyKey: string) =>
  api('/admin/process-deposit', z.union([adminProcessDepositResponse, proposalSentResponse]), {
    method: 'POST',
    body: { depositId },
    idempotencyKey,
  });

/** Approving credits a balance: every back-office figure (overview, lists, users, analytics, audit) refetches. */
export function useApproveDeposit() {
  const qc = useQueryClient();
  return useIdempotentMutation(approveDeposit, (id) => `approve-deposit:${id}`, {
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
