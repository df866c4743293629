import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { EMAIL_CODE_MAX_TRIES, EMAIL_CODE_RESEND_MS, EMAIL_CODE_TTL_MS } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import * as users from '../users/users.queries.ts';
import { insertUserWithAccounts } from '../users/users.service.ts';
import { verifySecondFactor } from '../two-factor/two-factor.service.ts';
import * as q from './auth.queries.ts';

function hashCode(ctx: AppContext, email: string, code: string): string {
  return createHmac('sha256', ctx.secret).update(`${email}:${code}`).digest('hex');
}

export async function sendCode(ctx: AppContext, email: string): Promise<string> {
  const now = ctx.clock.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const stored = await q.upsertEmailCode(
    ctx.db,
    email,
    hashCode(ctx, email, code),
    now,
    new Date(now.getTime() + EMAIL_CODE_TTL_MS),
    new Date(now.getTime() - EMAIL_CODE_RESEND_MS),
  );
  if (!stored) {
    const row = await q.findEmailCode(ctx.db, email);
    const wait = row ? (row.sentAt.getTime() + EMAIL_CODE_RESEND_MS - now.getTime()) / 1000 : 60;
    throw new AppError('rate_limited', MSG.codeResendWait, { 'retry-after': String(Math.max(1, Math.ceil(wait))) });
  }
  await ctx.mailer.send(
    {
      to: email,
      subject: 'Your Harvest Farm verification code',
      text: `Your Harvest Farm verification code is ${code}.\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this e-mail.`,
    },
    `verification code for ${email}: ${code}`,
  );
  return MSG.codeSent;
}

/** Checks a signup code; wrong tries are counted exactly, also under parallel guesses. */
async function verifyEmailCode(ctx: AppContext, email: string, code: string): Promise<string> {
  const row = await q.findEmailCode(ctx.db, email);
  if (!row || row.expiresAt.getTime() <= ctx.clock.now().getTime()) throw badRequest(MSG.invalidCode, 'invalid_code');
  if (row.attempts >= EMAIL_CODE_MAX_TRIES) throw badRequest(MSG.codeTooManyTries, 'invalid_code');
  const given = Buffer.from(hashCode(ctx, email, code.trim()), 'hex');
  if (given.length === 32 && timingSafeEqual(given, Buffer.from(row.codeHash, 'hex'))) return row.codeHash;
  const used = await q.countWrongTry(ctx.db, email, EMAIL_CODE_MAX_TRIES);
  if (used === null || used >= EMAIL_CODE_MAX_TRIES) throw badRequest(MSG.codeTooManyTries, 'invalid_code');
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
}

export async function register(ctx: AppContext, input: RegisterInput): Promise<{ token: string; user: AuthUser }> {
  const referrer = await users.findUserByInvitationCode(ctx.db, input.invitationCode.trim().toUpperCase());
  if (!referrer || referrer.isBlocked) throw badRequest(MSG.invalidInvitation);
  const codeHash = await verifyEmailCode(ctx, input.email, input.verificationCode);
  const user = await inTransaction(ctx.db, async (tx) => {
    if (!(await q.consumeEmailCode(tx, input.email, codeHash, EMAIL_CODE_MAX_TRIES)))
      throw badRequest(MSG.invalidCode, 'invalid_code');
    return insertUserWithAccounts(tx, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      phoneCountryCode: input.phoneCountryCode,
      phoneNumber: input.phoneNumber,
      password: input.password,
      withdrawalPassword: input.withdrawalPassword,
      referrerId: referrer.id,
      createdAt: ctx.clock.now(),
    });
  });
  return { user, token: await ctx.tokens.sign({ sub: user.id, tv: user.tokenVersion }) };
}

export async function login(
  ctx: AppContext,
  email: string,
  password: string,
  totpCode?: string,
): Promise<{ token: string; user: AuthUser }> {
  const user = await users.findUserByEmail(ctx.db, email);
  if (!(await verifyPassword(user?.passwordHash, password)) || !user)
    throw unauthorized(MSG.invalidCredentials, 'invalid_credentials');
  if (user.isBlocked) throw forbidden(MSG.blocked, 'blocked');
  if (user.totpEnabled) await verifySecondFactor(ctx, user, totpCode);
  return { user, token: await ctx.tokens.sign({ sub: user.id, tv: user.tokenVersion, mfa: user.totpEnabled }) };
}
