import { getAddress } from 'viem';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { deviceName } from '../../lib/device.ts';
import { queueMail } from '../../mail/outbox.ts';
import { recordSecurityEvent } from '../security-events/security-events.queries.ts';
import { findSession, forgetDevice } from '../sessions/sessions.queries.ts';
import { revokeAllSessions } from '../sessions/sessions.service.ts';
import { updateUser } from '../users/users.queries.ts';
import * as addresses from '../withdrawal-addresses/withdrawal-addresses.queries.ts';
import { consumeLink } from './account-links.service.ts';

/**
 * "This wasn't me" from an alert e-mail (no session needed: the owner may be signed out, or on another device).
 * In one transaction: withdrawals are frozen (only an administrator lifts it), a lock on its way off stays on,
 * the reported address is removed or the reported device forgotten, every session ends, and the owner is told.
 */
export async function reportNotMe(ctx: AppContext, token: string, client: { ip: string; userAgent?: string }) {
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (tx) => {
    const link = await consumeLink(tx, ctx, 'not_me', token);
    const { userId, targetId } = link;
    // The users row first: a Withdraw All in flight holds it until it commits, or sees the freeze.
    const gate = await addresses.lockWithdrawalGate(tx, userId);
    const turningOff = Boolean(gate?.withdrawalLock && gate.withdrawalLockEndsAt);
    await updateUser(tx, userId, { withdrawalsFrozen: true, ...(turningOff ? { withdrawalLockEndsAt: null } : {}) });
    await addresses.voidLockOffLinks(tx, userId, now);
    let reported: string | null = null;
    if (targetId) {
      const removed = await addresses.removeAddress(tx, userId, targetId, now);
      if (removed) reported = `Address ${removed.label}: ${getAddress(removed.address)} removed`;
      const session = removed ? undefined : await findSession(tx, userId, targetId);
      if (session) {
        await forgetDevice(tx, userId, session.deviceKey);
        reported = `Sign-in from ${session.device}${session.ip ? ` (${session.ip})` : ''}`;
      }
    }
    const { ended } = await revokeAllSessions(tx, ctx, userId);
    await recordSecurityEvent(tx, {
      userId,
      type: 'not_me',
      at: now,
      ip: client.ip,
      device: deviceName(client.userAgent),
      detail: [reported, `${ended} session${ended === 1 ? '' : 's'} signed out, withdrawals frozen`]
        .filter(Boolean)
        .join('; '),
    });
    await queueMail(tx, ctx, userId, { kind: 'account_secured', at: now });
  });
}
