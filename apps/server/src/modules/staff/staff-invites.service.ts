import { randomBytes } from 'node:crypto';
import { MSG } from '@harvest/shared/messages';
import type { Role } from '@harvest/shared/staff';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { badRequest } from '../../lib/errors.ts';
import { assertNotCommon, hashPassword } from '../../lib/passwords.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { queueMail } from '../../mail/outbox.ts';
import { consumeLink, createLink } from '../account-links/account-links.service.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { findUserById, updateUser } from '../users/users.queries.ts';
import { insertUserWithAccounts, newInvitationCode } from '../users/users.service.ts';

/** An invitation link works once, for this long. */
export const STAFF_INVITE_HOURS = 72;

export interface StaffInvite {
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
}

export async function invite(ctx: AppContext, admin: AuthUser, input: StaffInvite, ip: string) {
  await inTransaction(ctx.db, (tx) => applyInvite(ctx, tx, admin, input, ip));
  return { message: MSG.staffInvited(input.email).text };
}

/**
 * The invitation in the caller's transaction (the immediate call's, or a four-eyes approval's): the member's account
 * with its role and a random password nobody knows, and an e-mailed single-use link that sets the real one.
 */
export async function applyInvite(ctx: AppContext, tx: Tx, admin: AuthUser, input: StaffInvite, ip: string) {
  const unknown = () => randomBytes(24).toString('base64url');
  const member = await insertUserWithAccounts(tx, {
    ...input,
    password: unknown(),
    // Staff do not withdraw through the app; their withdrawal password is random.
    withdrawalPassword: unknown(),
    isAdmin: true,
    invitationCode: newInvitationCode(),
    createdAt: ctx.clock.now(),
  });
  const url = await createLink(tx, ctx, {
    userId: member.id,
    kind: 'staff_invite',
    ttlMs: STAFF_INVITE_HOURS * 3600_000,
  });
  await queueMail(tx, ctx, member.id, {
    kind: 'staff_invite',
    role: input.role,
    url,
    hours: STAFF_INVITE_HOURS,
    at: ctx.clock.now(),
  });
  await writeAudit(tx, {
    adminId: admin.id,
    action: 'staff_invite',
    targetType: 'user',
    targetId: member.id,
    after: { email: member.email, role: input.role },
    at: ctx.clock.now(),
    ip,
  });
}

/** The invited member sets their first password with the link's secret; every older token of the account ends. */
export async function join(ctx: AppContext, token: string, password: string): Promise<{ message: string }> {
  assertNotCommon(password);
  const passwordHash = await hashPassword(password);
  await inTransaction(ctx.db, async (tx) => {
    const link = await consumeLink(tx, ctx, 'staff_invite', token);
    const member = await findUserById(tx, link.userId);
    // A member removed before using the link does not come back through it.
    if (!member?.isAdmin) throw badRequest(MSG.linkInvalid, 'invalid_link');
    await updateUser(tx, member.id, { passwordHash, tokenVersion: member.tokenVersion + 1 });
  });
  return { message: MSG.staffJoined };
}
