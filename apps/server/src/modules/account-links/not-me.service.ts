import { getAddress } from 'viem';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { lockUserAccounts } from '../../ledger/ledger.ts';
import { deviceName } from '../../lib/device.ts';
import { queueMail } from '../../mail/outbox.ts';
import { deleteAllPasskeys } from '../passkeys/passkeys.queries.ts';
import { recordSecurityEvent } from '../security-events/security-events.queries.ts';
import { findSession, forgetDevice } from '../sessions/sessions.queries.ts';
import { revokeAllSessions } from '../sessions/sessions.service.ts';
import { updateUser } from '../users/users.queries.ts';
import * as addresses from '../withdrawal-addresses/withdrawal-addresses.queries.ts';
import { releaseReported } from '../withdrawals/withdrawals.service.ts';
import { consumeLink } from './account-links.service.ts';

/**
 * "This wasn't me" from an alert e-mail (no session needed: the owner may be signed out, or on another device).
 * In one transaction: withdrawals are frozen (only an administrator lifts it), a lock on its way off stays on,
 * the reported address is removed or the reported device forgotten, the pending withdrawals the reported session
 * asked for (or to the reported address) are rejected, their money back in the account (one in a payout batch stays,
 * frozen), every session ends, and the owner is told.
 */
export async function reportNotMe(ctx: AppContext, token: string, client: { ip: string; userAgent?: string }) {
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (tx) => {
    const link = await consumeLink(tx, ctx, 'not_me', token);
    const { userId, targetId } = link;
    // The accounts, then the users row (Withdraw All's order): one in flight commits first, or sees the freeze.
    await lockUserAccounts(tx, [userId]);
    const gate = await addresses.lockWithdrawalGate(tx, userId);
    const turningOff = Boolean(gate?.withdrawalLock && gate.withdrawalLockEndsAt);
    await updateUser(tx, userId, { withdrawalsFrozen: true, ...(turningOff ? { withdrawalLockEndsAt: null } : {}) });
    await addresses.voidLockOffLinks(tx, userId, now);
    let reported: string | null = null;
    const report: { sessionId?: string; wallet?: string } = {};
    if (targetId) {
      const removed = await addresses.removeAddress(tx, userId, targetId, now);
      if (removed) {
        reported = `Address ${removed.label}: ${getAddress(removed.address)} removed`;
        report.wallet = removed.address;
      }
      const session = removed ? undefined : await findSession(tx, userId, targetId);
      if (session) {
        await forgetDevice(tx, userId, session.deviceKey);
        reported = `Sign-in from ${session.device}${session.ip ? ` (${session.ip})` : ''}`;
        report.sessionId = session.id;
      }
    }
    const cancelled = await releaseReported(tx, ctx, userId, report);
    const { ended } = await revokeAllSessions(tx, ctx, userId);
    // A passkey added by whoever it was would sign them in again as two factors: the owner adds theirs anew.
    const passkeysRemoved = await deleteAllPasskeys(tx, userId);
    await recordSecurityEvent(tx, {
      userId,
      type: 'not_me',
      at: now,
      ip: client.ip,
      device: deviceName(client.userAgent),
      detail: [
        reported,
        `${ended} session${ended === 1 ? '' : 's'} signed out, withdrawals frozen`,
        passkeysRemoved > 0 ? `${passkeysRemoved} passkey${passkeysRemoved === 1 ? '' : 's'} removed` : null,
        cancelled > 0 ? `${cancelled} withdrawal${cancelled === 1 ? '' : 's'} cancelled` : null,
      ]
        .filter(Boolean)
        .join('; '),
    });
    await queueMail(tx, ctx, userId, { kind: 'account_secured', at: now });
  });
}
