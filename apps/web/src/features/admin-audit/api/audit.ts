import { queryOptions } from '@tanstack/react-query';
import { auditResponse } from '@harvest/shared/schemas/admin';
import { api } from '../../../lib/api-client.ts';
import { pageQuery, type PageAt } from '../../../lib/paging.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const AUDIT_PAGE_SIZE = 25;

export const auditQuery = (at: PageAt, action: string, targetId: string) =>
  queryOptions({
    queryKey: queryKeys.admin.audit(at, AUDIT_PAGE_SIZE, action, targetId),
    queryFn: () =>
      api(
        `/admin/audit?${pageQuery(at, AUDIT_PAGE_SIZE, { ...(action && { action }), ...(targetId && { targetId }) })}`,
        auditResponse,
      ),
  });
