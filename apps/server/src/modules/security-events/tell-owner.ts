import { NOT_ME_LINK_TTL_MS } from '@harvest/shared/constants';
import type { SecurityEventType } from '@harvest/shared/schemas/security';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { queueMail } from '../../mail/outbox.ts';
import type { MailEvent } from '../../mail/templates.ts';
import type { Client } from '../../plugins/auth.ts';
import { createLink } from '../account-links/account-links.service.ts';
import { recordSecurityEvent } from './security-events.queries.ts';

/**
 * A security change the account's owner must hear of, in the change's transaction: its security event, and the
 * e-mail with a "this wasn't me" link (it freezes withdrawals and signs every session out). One function, so every
 * such change tells the owner the same way.
 */
export async function tellOwner(
  tx: Tx,
  ctx: AppContext,
  userId: string,
  client: Client,
  change: { type: SecurityEventType; at: Date; detail?: string; mail: (notMeUrl: string) => MailEvent },
): Promise<void> {
  await recordSecurityEvent(tx, {
    userId,
    type: change.type,
    at: change.at,
    ip: client.ip,
    device: client.device,
    ...(change.detail ? { detail: change.detail } : {}),
  });
  const notMeUrl = await createLink(tx, ctx, {
    userId,
    kind: 'not_me',
    targetId: client.sessionId,
    ttlMs: NOT_ME_LINK_TTL_MS,
  });
  await queueMail(tx, ctx, userId, change.mail(notMeUrl));
}
