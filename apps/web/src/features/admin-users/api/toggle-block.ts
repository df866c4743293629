import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toggleBlockResponse } from '@harvest/shared/schemas/user';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const toggleBlock = (userId: string) =>
  api(`/user/admin/toggle-block/${encodeURIComponent(userId)}`, toggleBlockResponse, { method: 'POST' });

/** Block / unblock. Failures are silent (spec); either way the list is refetched so it shows the server's state. */
export function useToggleBlock() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: toggleBlock,
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
