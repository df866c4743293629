import { getAddress } from 'viem';
import { msg } from '@harvest/shared/i18n';
import { MSG } from '@harvest/shared/messages';
import { can, isRole } from '@harvest/shared/staff';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { recordSecurityEvent } from '../security-events/security-events.queries.ts';
import { allSessionsPage } from '../sessions/sessions.queries.ts';
import { revokeAllSessions } from '../sessions/sessions.service.ts';
import { findUserById, lockUser, updateUser } from '../users/users.queries.ts';
import { allAddressesPage } from '../withdrawal-addresses/withdrawal-addresses.queries.ts';
import { addressStatus } from '../withdrawal-addresses/withdrawal-addresses.service.ts';
import { withdrawalLockOf } from '../withdrawal-addresses/withdrawal-lock.ts';

type Page = { page: number; pageSize: number };

async function existing(ctx: AppContext, userId: string) {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound();
  return user;
}

/** Every session the user had, newest first, with its state (the user detail). */
export async function userSessions(ctx: AppContext, userId: string, page: Page) {
  await existing(ctx, userId);
  const now = ctx.clock.now();
  const { rows, total } = await allSessionsPage(ctx.db, userId, page);
  return {
    sessions: rows.map((r) => ({
      _id: r.id,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      ip: r.ip,
      device: r.device,
      status: r.revokedAt
        ? ('signed_out' as const)
        : r.expiresAt.getTime() <= now.getTime()
          ? ('expired' as const)
          : ('active' as const),
    })),
    pagination: { ...page, total },
  };
}

/** Every address the user saved, removed ones included, with its state, and the user's lock. */
export async function userAddresses(ctx: AppContext, userId: string, page: Page) {
  const user = await existing(ctx, userId);
  const now = ctx.clock.now();
  const { rows, total } = await allAddressesPage(ctx.db, userId, page);
  return {
    addresses: rows.map((r) => ({
      _id: r.id,
      label: r.label,
      address: getAddress(r.address),
      status: r.removedAt ? ('removed' as const) : addressStatus(r, now),
      proven: r.provenAt !== null,
      usableAt: r.usableAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      removedAt: r.removedAt ? r.removedAt.toISOString() : null,
    })),
    pagination: { ...page, total },
    withdrawalLock: withdrawalLockOf(user, now, ctx.config.addressLockRequired),
  };
}

/** An administrator signs every session of a user out (audited; the user's activity shows it). */
export async function revokeUserSessions(ctx: AppContext, admin: AuthUser, userId: string, ip: string) {
  return inTransaction(ctx.db, async (tx) => {
    const target = await lockUser(tx, userId);
    if (!target) throw notFound();
    // A staff member's sessions are an owner's to end: support signing out every owner in a loop would lock the
    // people who can stop it out of the back office.
    if (isRole(target.role) && !can(admin.role, 'staff')) throw forbidden(MSG.forbiddenRole, 'forbidden_role');
    const { ended } = await revokeAllSessions(tx, ctx, userId);
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'sessions_revoke',
      targetType: 'user',
      targetId: userId,
      after: { sessionsEnded: ended },
      at: ctx.clock.now(),
      ip,
    });
    await recordSecurityEvent(tx, {
      userId,
      type: 'sessions_revoked',
      at: ctx.clock.now(),
      detail: msg('All sessions, by an administrator'),
    });
    return ended;
  });
}

/**
 * Freezes or unfreezes a user's withdrawals: short of a block (the user signs in and sees everything, Withdraw
 * All is refused). Audited with the note; the user's activity shows it.
 */
export async function setWithdrawalsFrozen(
  ctx: AppContext,
  admin: AuthUser,
  userId: string,
  input: { frozen: boolean; note?: string | undefined },
  ip: string,
): Promise<void> {
  await inTransaction(ctx.db, (tx) => applyWithdrawalsFrozen(ctx, tx, admin, userId, input, ip));
}

/** A freeze or its lifting in the caller's transaction (the immediate call's, or a four-eyes approval's). */
export async function applyWithdrawalsFrozen(
  ctx: AppContext,
  tx: Tx,
  admin: AuthUser,
  userId: string,
  input: { frozen: boolean; note?: string | undefined },
  ip: string,
): Promise<void> {
  const target = await lockUser(tx, userId);
  if (!target) throw notFound();
  if (target.withdrawalsFrozen === input.frozen) return;
  await updateUser(tx, userId, { withdrawalsFrozen: input.frozen });
  await writeAudit(tx, {
    adminId: admin.id,
    action: input.frozen ? 'withdrawals_freeze' : 'withdrawals_unfreeze',
    targetType: 'user',
    targetId: userId,
    before: { withdrawalsFrozen: target.withdrawalsFrozen },
    after: { withdrawalsFrozen: input.frozen },
    note: input.note || null,
    at: ctx.clock.now(),
    ip,
  });
  await recordSecurityEvent(tx, {
    userId,
    type: input.frozen ? 'withdrawals_frozen' : 'withdrawals_unfrozen',
    at: ctx.clock.now(),
    detail: msg('By an administrator'),
  });
}
