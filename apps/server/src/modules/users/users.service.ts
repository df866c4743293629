import type { Role } from '@harvest/shared/staff';
import { randomInt } from 'node:crypto';
import type { Locale } from '@harvest/shared/i18n';
import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { constraintName, inTransaction, sqlState } from '../../db/tx.ts';
import { openUserAccounts } from '../../ledger/ledger.ts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors.ts';
import { assertNotCommon, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { confirmPassword } from '../../lib/reauth.ts';
import { countPasswordChange } from '../../lib/throttle.ts';
import type { AuthUser, Client } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { queueMail } from '../../mail/outbox.ts';
import { recordSecurityEvent } from '../security-events/security-events.queries.ts';
import { tellOwner } from '../security-events/tell-owner.ts';
import { revokeSessions } from '../sessions/sessions.queries.ts';
import { reissue, revokeAllSessions } from '../sessions/sessions.service.ts';
import { confirmPasswordAndCode, verifySecondFactor } from '../two-factor/two-factor.service.ts';
import * as q from './users.queries.ts';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 10 characters from a 32-letter alphabet: 2^50 codes, far beyond guessing under the rate limits. */
export function newInvitationCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return s;
}

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  phoneCountryCode?: string | null;
  phoneNumber?: string | null;
  password: string;
  withdrawalPassword: string;
  isAdmin?: boolean;
  /** A staff member's role (with isAdmin). */
  role?: Role;
  referrerId?: string | null;
  invitationCode?: string | null;
  /** The language the signup page showed (English otherwise). */
  locale?: Locale;
  /** When the person signed up, on the injected clock. */
  createdAt: Date;
}

/** Inserts a user with its ledger accounts, in the caller's transaction. */
/**
 * The mailbox an address delivers to: without its `+tag`, and at Gmail (gmail.com, googlemail.com)
 * without dots. One mailbox holds one account (`users_mailbox_key`), so `box+1@` cannot be a second
 * account of `box@` (referral rewards on one's own investments). The migration that added `users.mailbox`
 * computes the same in SQL.
 */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  let local = email.slice(0, at).toLowerCase();
  let domain = email.slice(at + 1).toLowerCase();
  local = local.split('+')[0] ?? local;
  if (domain === 'gmail.com' || domain === 'googlemail.com') {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** A unique-key refusal of the e-mail address in the body's `field`, in the words of the key it hit. */
function addressTaken(err: unknown, field: string): Error | null {
  if (sqlState(err) !== '23505') return null;
  const key = constraintName(err);
  if (key === 'users_email_key') return conflict(MSG.emailExists).about(field);
  return key === 'users_mailbox_key' ? conflict(MSG.mailboxTaken).about(field) : null;
}

export async function insertUserWithAccounts(tx: Tx, u: NewUser): Promise<AuthUser> {
  const [passwordHash, withdrawalPasswordHash] = await Promise.all([
    hashPassword(u.password),
    hashPassword(u.withdrawalPassword),
  ]);
  try {
    const user = await q.insertUser(tx, {
      email: u.email,
      mailbox: mailboxOf(u.email),
      firstName: u.firstName,
      lastName: u.lastName,
      phoneCountryCode: u.phoneCountryCode ?? null,
      phoneNumber: u.phoneNumber ?? null,
      passwordHash,
      withdrawalPasswordHash,
      isAdmin: u.isAdmin ?? false,
      role: u.isAdmin ? (u.role ?? 'owner') : null,
      referrerId: u.referrerId ?? null,
      invitationCode: u.invitationCode ?? null,
      ...(u.locale ? { locale: u.locale } : {}),
      createdAt: u.createdAt,
    });
    await openUserAccounts(tx, user.id);
    return user;
  } catch (err) {
    throw addressTaken(err, 'email') ?? err;
  }
}

export async function updateProfile(
  ctx: AppContext,
  user: AuthUser,
  input: {
    firstName: string;
    lastName: string;
    currentPassword?: string;
    newPassword?: string;
    totpCode?: string | undefined;
  },
  client: Client,
  /** The session was signed in with the second factor: the new token keeps it. */
  sessionMfa = false,
): Promise<{ user: AuthUser; token?: string }> {
  if (!input.newPassword) {
    const updated = await q.updateUser(ctx.db, user.id, { firstName: input.firstName, lastName: input.lastName });
    if (!updated) throw notFound();
    return { user: updated };
  }
  assertNotCommon(input.newPassword);
  // Never less than the sign-in asked for: with the authenticator on, its code too.
  await confirmPasswordAndCode(
    ctx,
    user,
    { password: input.currentPassword ?? '', totpCode: input.totpCode },
    client.ip,
  );
  // Counted before the comparison below: its answer tells whether the new password is the withdrawal
  // password, so it must not be an unlimited oracle for someone holding the session and login password.
  await countPasswordChange(ctx.counters, user.id);
  if (await verifyPassword(user.withdrawalPasswordHash, input.newPassword))
    throw badRequest(MSG.withdrawalPasswordSame);
  const passwordHash = await hashPassword(input.newPassword);
  const now = ctx.clock.now();
  // A new password ends every other session; this one gets a fresh token.
  const done = await inTransaction(ctx.db, async (tx) => {
    await q.updateUser(tx, user.id, { firstName: input.firstName, lastName: input.lastName, passwordHash });
    await writeAudit(tx, {
      adminId: user.id,
      action: 'password_change',
      targetType: 'user',
      targetId: user.id,
      at: ctx.clock.now(),
      ip: client.ip,
    });
    await tellOwner(tx, ctx, user.id, client, {
      type: 'password_changed',
      at: now,
      mail: (notMeUrl) => ({ kind: 'password_changed', at: now, notMeUrl }),
    });
    const { tokenVersion } = await revokeAllSessions(tx, ctx, user.id, client.sessionId);
    const token = await reissue(tx, ctx, {
      userId: user.id,
      sessionId: client.sessionId,
      tokenVersion,
      mfa: sessionMfa || user.totpEnabled,
    });
    return { updated: await q.findUserById(tx, user.id), token };
  });
  if (!done.updated) throw notFound();
  return { user: done.updated, token: done.token };
}

/**
 * The withdrawal password, changed from Profile the way the login password is: the current one (wrong ones count in
 * the withdrawal-password throttle, as at Withdraw All) and the authenticator code when it is on; the new one must not
 * be the login password. The owner is told ("this wasn't me" link) and withdrawals are held (hold-triggers.ts).
 */
export async function changeWithdrawalPassword(
  ctx: AppContext,
  user: AuthUser,
  input: { currentWithdrawalPassword: string; newWithdrawalPassword: string; totpCode?: string | undefined },
  client: Client,
): Promise<void> {
  assertNotCommon(input.newWithdrawalPassword);
  if (user.totpEnabled) await verifySecondFactor(ctx, user, input.totpCode, client.ip);
  const attempt = await ctx.throttles.withdrawalPassword.begin(user.id, client.ip);
  if (!(await verifyPassword(user.withdrawalPasswordHash, input.currentWithdrawalPassword)))
    throw unauthorized(MSG.withdrawalPasswordWrong, 'wrong_password');
  await attempt.succeeded();
  // Counted before the comparison: its answer tells whether a guess is the login password.
  await countPasswordChange(ctx.counters, user.id);
  if (await verifyPassword(user.passwordHash, input.newWithdrawalPassword))
    throw badRequest(MSG.withdrawalPasswordSame).about('newWithdrawalPassword');
  const withdrawalPasswordHash = await hashPassword(input.newWithdrawalPassword);
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (tx) => {
    await q.updateUser(tx, user.id, { withdrawalPasswordHash });
    await writeAudit(tx, {
      adminId: user.id,
      action: 'withdrawal_password_change',
      targetType: 'user',
      targetId: user.id,
      at: now,
      ip: client.ip,
    });
    await tellOwner(tx, ctx, user.id, client, {
      type: 'withdrawal_password_changed',
      at: now,
      mail: (notMeUrl) => ({ kind: 'withdrawal_password_changed', at: now, notMeUrl }),
    });
  });
}

/** The person's language, kept on the account: the app, their e-mails and statements (docs/decisions/0075). */
export async function updatePreferences(
  ctx: AppContext,
  user: AuthUser,
  input: { locale?: Locale | undefined; cycleReminders?: boolean | undefined },
): Promise<AuthUser> {
  const updated = await q.updateUser(ctx.db, user.id, {
    ...(input.locale ? { locale: input.locale } : {}),
    ...(input.cycleReminders !== undefined ? { cycleReminders: input.cycleReminders } : {}),
  });
  if (!updated) throw notFound();
  return updated;
}

export async function updateEmail(
  ctx: AppContext,
  admin: AuthUser,
  input: { newEmail: string; password: string },
  ip: string,
): Promise<AuthUser> {
  if (!admin.isAdmin) throw forbidden(MSG.adminOnlyEmail);
  await confirmPassword(ctx, admin, input.password, ip);
  const { newEmail } = input;
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const updated = await q.updateUser(tx, admin.id, { email: newEmail, mailbox: mailboxOf(newEmail) });
      if (!updated) throw notFound();
      await recordSecurityEvent(tx, {
        userId: admin.id,
        type: 'email_changed',
        at: ctx.clock.now(),
        ip,
        detail: `${admin.email} → ${newEmail}`,
      });
      await writeAudit(tx, {
        adminId: admin.id,
        action: 'email_change',
        targetType: 'user',
        targetId: admin.id,
        before: { email: admin.email },
        after: { email: newEmail },
        at: ctx.clock.now(),
        ip,
      });
      await queueMail(tx, ctx, admin.id, {
        kind: 'email_changed',
        oldEmail: admin.email,
        newEmail,
        at: ctx.clock.now(),
      });
      return updated;
    });
  } catch (err) {
    throw addressTaken(err, 'newEmail') ?? err;
  }
}

/** The caller's stable invitation code, created on first use. */
export async function invitationCode(ctx: AppContext, user: AuthUser): Promise<string> {
  if (user.invitationCode) return user.invitationCode;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const updated = await q.setInvitationCodeIfMissing(ctx.db, user.id, newInvitationCode());
      if (updated?.invitationCode) return updated.invitationCode;
      const current = await q.findUserById(ctx.db, user.id);
      if (current?.invitationCode) return current.invitationCode;
    } catch (err) {
      if (!(sqlState(err) === '23505' && constraintName(err) === 'users_invitation_code_key')) throw err;
    }
  }
  throw new Error('could not allocate an invitation code');
}

export async function toggleBlock(ctx: AppContext, admin: AuthUser, targetId: string, ip: string): Promise<AuthUser> {
  return inTransaction(ctx.db, async (tx) => {
    const target = await q.lockUser(tx, targetId);
    if (!target) throw notFound();
    if (target.isAdmin) throw badRequest(MSG.cannotBlockAdmin);
    const isBlocked = !target.isBlocked;
    // Blocking also ends the user's sessions: after an unblock they sign in again.
    const updated = await q.updateUser(tx, target.id, {
      isBlocked,
      tokenVersion: isBlocked ? target.tokenVersion + 1 : target.tokenVersion,
    });
    if (!updated) throw notFound();
    if (isBlocked) await revokeSessions(tx, target.id, ctx.clock.now());
    await writeAudit(tx, {
      adminId: admin.id,
      action: isBlocked ? 'user_block' : 'user_unblock',
      targetType: 'user',
      targetId: target.id,
      before: { isBlocked: target.isBlocked },
      after: { isBlocked },
      at: ctx.clock.now(),
      ip,
    });
    return updated;
  });
}
