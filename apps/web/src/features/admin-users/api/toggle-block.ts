import { useQueryClient } from '@tanstack/react-query';
import { toggleBlockResponse } from '@harvest/shared/schemas/user';
import { api } from '../../../lib/api-client.ts';
import { useIdempotentMutation } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const toggleBlock = (userId: string, idempotencyKey: string) =>
  api(`/user/admin/toggle-block/${encodeURIComponent(userId)}`, toggleBlockResponse, {
    method: 'POST',
    idempotencyKey,
  });

/** Block / unblock. Failures are silent (spec); either way the back office refetches, so it shows the server's state. */
export function useToggleBlock() {
  const qc = useQueryClient();
  return useIdempotentMutation(toggleBlock, (id) => `toggle-block:${id}`, {
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
