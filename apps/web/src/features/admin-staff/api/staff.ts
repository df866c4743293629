import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import { staffResponse, type StaffInviteInput } from '@harvest/shared/schemas/proposals';
import type { Role } from '@harvest/shared/staff';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const staffQuery = () =>
  queryOptions({ queryKey: queryKeys.admin.staff, queryFn: () => api('/admin/staff', staffResponse) });

const setRole = (id: string, role: Role | null) =>
  api(`/admin/staff/${encodeURIComponent(id)}/role`, messageResponse, { method: 'PUT', body: { role } });
const invite = (body: StaffInviteInput) => api('/admin/staff/invite', messageResponse, { method: 'POST', body });

/** A role change or removal, or an invitation; with four-eyes each answers that it waits in Approvals. */
export function useStaffChange() {
  const qc = useQueryClient();
  const onSettled = () => qc.invalidateQueries({ queryKey: queryKeys.admin.all });
  return {
    setRole: useMutation({ mutationFn: (v: { id: string; role: Role | null }) => setRole(v.id, v.role), onSettled }),
    invite: useMutation({ mutationFn: invite, onSettled }),
  };
}
