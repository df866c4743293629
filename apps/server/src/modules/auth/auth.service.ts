import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  EMAIL_CODE_LOCK_MS,
  EMAIL_CODE_MAX_LIVE,
  EMAIL_CODE_MAX_TRIES,
  EMAIL_CODE_RESEND_MS,
  EMAIL_CODE_TTL_MS,
} from '@harvest/shared/constants';
import { msg, type Locale } from '@harvest/shared/i18n';
import { MSG } from '@harvest/shared/messages';
import { serverSecrets, type AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { translator } from '../../lib/i18n.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../../lib/errors.ts';
import { assertNotCommon, verifyPassword } from '../../lib/passwords.ts';
import { deviceName } from '../../lib/device.ts';
import { queueMail } from '../../mail/outbox.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { recordSecurityEvent } from '../security-events/security-events.queries.ts';
import { startSession, type SignInClient } from '../sessions/sessions.service.ts';
import * as users from '../users/users.queries.ts';
import { insertUserWithAccounts } from '../users/users.service.ts';
import { verifySecondFactor } from '../two-factor/two-factor.service.ts';
import * as q from './auth.queries.ts';

/** Failed sign-ins to one account within an hour that send the owner a warning: one warning per window. */
export const FAILED_SIGN_INS_WARNING = { at: 3, windowMs: 60 * 60_000 };

function hashCode(secret: string, email: string, code: string): string {
  return createHmac('sha256', secret).update(`${email}:${code}`).digest('hex');
}

const CODE_TRIES = { windowMs: EMAIL_CODE_LOCK_MS, maxTries: EMAIL_CODE_MAX_TRIES, lockMs: EMAIL_CODE_LOCK_MS };

const retryAfter = (ms: number) => ({ 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) });

/**
 * Mails a new code. Earlier unexpired codes stay valid (up to EMAIL_CODE_MAX_LIVE), so a
 * stranger's resend cannot cancel the code already on its way; at most one per minute, and
 * none while the address is locked after too many wrong codes.
 */
export async function sendCode(ctx: AppContext, email: string, locale?: Locale): Promise<string> {
  const now = ctx.clock.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const sent = await inTransaction(ctx.db, async (tx) => {
    if (!(await q.claimSend(tx, email, now, new Date(now.getTime() - EMAIL_CODE_RESEND_MS)))) return false;
    const codeHash = hashCode(ctx.secret, email, code);
    await q.insertCode(
      tx,
      { email, codeHash, sentAt: now, expiresAt: new Date(now.getTime() + EMAIL_CODE_TTL_MS) },
      EMAIL_CODE_MAX_LIVE,
    );
    return true;
  });
  if (!sent) {
    const row = await q.findVerification(ctx.db, email);
    if (row?.lockedUntil && row.lockedUntil.getTime() > now.getTime())
      throw new AppError('rate_limited', MSG.codeTooManyTries, retryAfter(row.lockedUntil.getTime() - now.getTime()));
    const wait = row?.lastSentAt
      ? row.lastSentAt.getTime() + EMAIL_CODE_RESEND_MS - now.getTime()
      : EMAIL_CODE_RESEND_MS;
    throw new AppError('rate_limited', MSG.codeResendWait, retryAfter(wait));
  }
  // In the language of the signup page that asked for it (no account yet to keep one).
  const t = translator(locale);
  await ctx.mailer.send(
    {
      to: email,
      subject: t('Your Harvest Farm verification code'),
      text: `${t('Your Harvest Farm verification code is {code}.', { code })}\n\n${t('It is valid for 10 minutes. If you did not ask for it, ignore this e-mail.')}`,
    },
    `verification code for ${email}: ${code}`,
  );
  return MSG.codeSent;
}

/**
 * Checks a signup code against the address's live codes. The try is counted first, so
 * parallel guesses cannot outrun the limit: after EMAIL_CODE_MAX_TRIES wrong codes the address
 * accepts none (and gets none) for EMAIL_CODE_LOCK_MS. Returns the matching code's id.
 */
async function verifyEmailCode(ctx: AppContext, email: string, code: string): Promise<number> {
  const now = ctx.clock.now();
  const tries = await q.reserveCodeTry(ctx.db, email, now, CODE_TRIES);
  if (tries === null) {
    const row = await q.findVerification(ctx.db, email);
    if (row?.lockedUntil && row.lockedUntil.getTime() > now.getTime())
      throw badRequest(MSG.codeTooManyTries, 'invalid_code');
    throw badRequest(MSG.invalidCode, 'invalid_code');
  }
  // Under each secret the servers hold: during a JWT_SECRET rotation the code may have been mailed by an instance
  // on the other side of it.
  const given = serverSecrets(ctx).map((secret) => Buffer.from(hashCode(secret, email, code.trim()), 'hex'));
  const match = (await q.liveCodes(ctx.db, email, now)).find((c) => {
    const stored = Buffer.from(c.codeHash, 'hex');
    return stored.length === 32 && given.some((g) => timingSafeEqual(g, stored));
  });
  if (match) return match.id;
  if (tries >= EMAIL_CODE_MAX_TRIES) throw badRequest(MSG.codeTooManyTries, 'invalid_code');
  throw badRequest(MSG.invalidCode, 'invalid_code');
}

export interface RegisterInput {
  invitationCode: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneCountryCode: string;
  phoneNumber: string;
  password: string;
  withdrawalPassword: string;
  verificationCode: string;
  locale?: Locale | undefined;
}

export async function register(
  ctx: AppContext,
  input: RegisterInput,
  client: SignInClient,
): Promise<{ token: string; user: AuthUser }> {
  assertNotCommon(input.password, input.withdrawalPassword);
  const referrer = await users.findUserByInvitationCode(ctx.db, input.invitationCode.trim().toUpperCase());
  if (!referrer || referrer.isBlocked) throw badRequest(MSG.invalidInvitation);
  const codeId = await verifyEmailCode(ctx, input.email, input.verificationCode);
  const user = await inTransaction(ctx.db, async (tx) => {
    if (!(await q.consumeCode(tx, input.email, codeId))) throw badRequest(MSG.invalidCode, 'invalid_code');
    return insertUserWithAccounts(tx, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      phoneCountryCode: input.phoneCountryCode,
      phoneNumber: input.phoneNumber,
      password: input.password,
      withdrawalPassword: input.withdrawalPassword,
      referrerId: referrer.id,
      ...(input.locale ? { locale: input.locale } : {}),
      createdAt: ctx.clock.now(),
    });
  });
  // The signup's browser is the account's first device: no new-device e-mail for it.
  return { user, token: (await startSession(ctx, user, client, false)).token };
}

/**
 * A failed sign-in to an existing account: a security event, and at the FAILED_SIGN_INS_WARNING.at-th failure of a
 * one-hour window (counted atomically in the shared counters, so parallel failures send it once) the warning e-mail.
 */
async function signInFailed(ctx: AppContext, user: AuthUser, client: SignInClient, reason: string): Promise<void> {
  const now = ctx.clock.now();
  const device = deviceName(client.userAgent);
  const w = await ctx.counters.hit(`sign-in-failures:${user.id}`, FAILED_SIGN_INS_WARNING.windowMs);
  await inTransaction(ctx.db, async (tx) => {
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: 'sign_in_failed',
      at: now,
      ip: client.ip,
      device,
      detail: reason,
    });
    if (w.count === FAILED_SIGN_INS_WARNING.at)
      await queueMail(tx, ctx, user.id, {
        kind: 'sign_in_failures',
        count: w.count,
        ip: client.ip,
        device,
        reason,
        at: now,
      });
  });
}

/**
 * Sign-in. The try is counted before the password is checked (per account and client address,
 * and per account across addresses), so parallel guesses cannot outrun the throttle.
 */
export async function login(
  ctx: AppContext,
  input: { email: string; password: string; totpCode?: string | undefined },
  client: SignInClient,
): Promise<{ token: string; user: AuthUser }> {
  const attempt = await ctx.throttles.password.begin(input.email, client.ip);
  const user = await users.findUserByEmail(ctx.db, input.email);
  if (!(await verifyPassword(user?.passwordHash, input.password)) || !user) {
    if (user) await signInFailed(ctx, user, client, msg('Wrong password'));
    throw unauthorized(MSG.invalidCredentials, 'invalid_credentials');
  }
  await attempt.succeeded();
  if (user.isBlocked) throw forbidden(MSG.blocked, 'blocked');
  if (user.totpEnabled) {
    try {
      await verifySecondFactor(ctx, user, input.totpCode, client.ip);
    } catch (err) {
      // A missing code is the form's second step; a wrong one means the password was right.
      if (err instanceof AppError && err.code === 'two_factor_invalid')
        await signInFailed(ctx, user, client, msg('Wrong authenticator code'));
      throw err;
    }
  }
  return { user, token: (await startSession(ctx, user, client, user.totpEnabled)).token };
}
