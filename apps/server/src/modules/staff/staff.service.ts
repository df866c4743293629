import { MSG } from '@harvest/shared/messages';
import type { StaffMember } from '@harvest/shared/schemas/proposals';
import { can, isRole, type Role } from '@harvest/shared/staff';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { lockUser, lockUsersShared, updateUser } from '../users/users.queries.ts';
import * as q from './staff.queries.ts';

/** Staff management (owners): the list, role changes, removal. Invitations are in staff-invites.service.ts. */

export async function listStaff(ctx: AppContext): Promise<StaffMember[]> {
  return (await q.staffMembers(ctx.db)).flatMap((u) =>
    isRole(u.role)
      ? [
          {
            id: u.id,
            email: u.email,
            firstName: u.firstName,
            lastName: u.lastName,
            role: u.role,
            twoFactorEnabled: u.totpEnabled,
            createdAt: u.createdAt.toISOString(),
          },
        ]
      : [],
  );
}

/** What a role change needs before it is made or proposed: a staff member other than oneself. */
export async function currentRole(db: Tx, admin: AuthUser, userId: string): Promise<Role> {
  // Nobody raises or keeps their own rights: a role change of oneself is another owner's decision.
  if (userId === admin.id) throw forbidden(MSG.ownRole);
  const target = await lockUser(db, userId);
  if (!target || !isRole(target.role)) throw notFound();
  return target.role;
}

export async function changeRole(
  ctx: AppContext,
  admin: AuthUser,
  userId: string,
  role: Role | null,
  ip: string,
): Promise<{ message: string }> {
  await inTransaction(ctx.db, (tx) => applyRole(ctx, tx, admin, userId, role, ip));
  return { message: role ? MSG.roleChanged : MSG.staffRemoved };
}

/**
 * A role change in the caller's transaction (the immediate call's, or a four-eyes approval's). `null` removes the
 * member from the staff: the account is closed (blocked, every session ended), since it was never an investor's.
 * `premise`: the role the proposer saw.
 */
export async function applyRole(
  ctx: AppContext,
  tx: Tx,
  admin: AuthUser,
  userId: string,
  role: Role | null,
  ip: string,
  premise?: Role,
): Promise<void> {
  // The deciding owner's role as committed (held until this commits): two owners demoting each other at once
  // cannot both succeed.
  if (!can((await lockUsersShared(tx, [admin.id])).get(admin.id)?.role, 'staff'))
    throw forbidden(MSG.forbiddenRole, 'forbidden_role');
  const before = await currentRole(tx, admin, userId);
  if (premise && before !== premise) throw conflict(MSG.proposalChanged, 'proposal_closed');
  if (before === 'owner' && role !== 'owner' && (await q.otherOwners(tx, userId)) === 0)
    throw conflict(MSG.lastOwner, 'last_owner');
  const target = await lockUser(tx, userId);
  if (!target) throw notFound();
  await updateUser(
    tx,
    userId,
    role ? { role } : { isAdmin: false, role: null, isBlocked: true, tokenVersion: target.tokenVersion + 1 },
  );
  await writeAudit(tx, {
    adminId: admin.id,
    action: role ? 'staff_role' : 'staff_remove',
    targetType: 'user',
    targetId: userId,
    before: { role: before },
    after: { role },
    at: ctx.clock.now(),
    ip,
  });
}
