import { queryOptions } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import { securityEventsResponse, sessionsResponse } from '@harvest/shared/schemas/security';
import { api } from '../../../lib/api-client.ts';
import type { PageAt } from '../../../lib/paging.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const PAGE_SIZE = 10;

/** These lists are short and go by page number (no cursors). */
export const sessionsQuery = ({ page }: PageAt) =>
  queryOptions({
    queryKey: queryKeys.account.sessions(page),
    queryFn: () => api(`/user/sessions?page=${page}&pageSize=${PAGE_SIZE}`, sessionsResponse),
  });
export const eventsQuery = ({ page }: PageAt) =>
  queryOptions({
    queryKey: queryKeys.account.events(page),
    queryFn: () => api(`/user/security-events?page=${page}&pageSize=${PAGE_SIZE}`, securityEventsResponse),
  });

export const revokeSession = (id: string) => api(`/user/sessions/${id}`, messageResponse, { method: 'DELETE' });
export const revokeOtherSessions = () => api('/user/sessions/revoke-others', messageResponse, { method: 'POST' });
export const reportNotMe = (token: string) =>
  api('/security/not-me', messageResponse, { method: 'POST', body: { token } });
