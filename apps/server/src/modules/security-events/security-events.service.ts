import { SECURITY_EVENTS_SHOWN } from '@harvest/shared/constants';
import { SECURITY_EVENT_TYPES, type SecurityEvent } from '@harvest/shared/schemas/security';
import type { Db } from '../../db/client.ts';
import { securityEventsPage } from './security-events.queries.ts';

type Row = Awaited<ReturnType<typeof securityEventsPage>>['rows'][number];

export function toSecurityEventDto(r: Row): SecurityEvent {
  return {
    // Every type written is one of the contract's (the writers take SecurityEventType).
    type: SECURITY_EVENT_TYPES.find((t) => t === r.type) ?? 'sign_in',
    at: r.createdAt.toISOString(),
    ip: r.ip,
    device: r.device,
    detail: r.detail,
    detailSaid: r.detailSaid,
  };
}

/** Profile's security activity: the newest SECURITY_EVENTS_SHOWN events of the account, one page of them. */
export async function listSecurityEvents(db: Db, userId: string, query: { page: number; pageSize: number }) {
  const { page, pageSize } = query;
  const shown = Math.max(0, Math.min(pageSize, SECURITY_EVENTS_SHOWN - (page - 1) * pageSize));
  const { rows, total } = await securityEventsPage(db, userId, query);
  return {
    events: rows.slice(0, shown).map(toSecurityEventDto),
    pagination: { page, pageSize, total: Math.min(total, SECURITY_EVENTS_SHOWN) },
  };
}
