import { queryOptions } from '@tanstack/react-query';
import { messageResponse } from '@harvest/shared/schemas/common';
import {
  linkPreviewResponse,
  securityEventsResponse,
  sessionsResponse,
  type LinkPage,
} from '@harvest/shared/schemas/security';
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

/** What an e-mailed link is about, shown before its button; a dead link's 400 is final (no retry). */
export const linkPreviewQuery = (page: LinkPage, token: string) =>
  queryOptions({
    queryKey: queryKeys.linkPreview(page, token),
    queryFn: () => api('/security/link-preview', linkPreviewResponse, { method: 'POST', body: { page, token } }),
    retry: false,
    staleTime: Infinity,
  });
