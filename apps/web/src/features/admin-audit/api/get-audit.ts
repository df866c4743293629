import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';

export interface AuditFilter {
  action: string;
  targetId: string;
}

export function useAuditLog(page: number, pageSize: number, filter: AuditFilter) {
  return useQuery({
    queryKey: ['admin', 'audit', page, pageSize, filter],
    queryFn: () => {
      const qs = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
      if (filter.action) qs.set('action', filter.action);
      if (filter.targetId) qs.set('targetId', filter.targetId);
      return api(`/admin/audit?${qs.toString()}`, auditResponse);
    },
    placeholderData: keepPreviousData,
  });
}
