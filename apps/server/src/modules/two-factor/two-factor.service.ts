import { createHash, randomBytes } from 'node:crypto';
import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { badRequest, unauthorized } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';
import { newTotpSecret, otpauthUrl, verifyTotp } from '../../lib/totp.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import * as q from '../users/users.queries.ts';
import * as twoFactorQueries from './two-factor.queries.ts';

const hashRecovery = (code: string) =>
  createHash('sha256')
    .update(code.replace(/[^A-Z0-9]/gi, '').toUpperCase())
    .digest('hex');

/** Starts enrolment: a new secret, kept sealed and inactive until a code from it is confirmed. */
export async function setup(ctx: AppContext, user: AuthUser) {
  if (user.totpEnabled) throw badRequest(MSG.twoFactorAlreadyOn);
  const secret = newTotpSecret();
  await q.updateUser(ctx.db, user.id, { totpSecret: sealSecret(ctx.secret, secret), totpLastStep: null });
  return { secret, otpauthUrl: otpauthUrl(secret, user.email) };
}

/**
 * Checks an authenticator code, accepting each time step once (the last step is stored with a
 * conditional update, so two parallel uses of one code cannot both pass).
 */
async function acceptTotp(ctx: AppContext, user: AuthUser, code: string): Promise<boolean> {
  if (!user.totpSecret) return false;
  const step = verifyTotp(openSecret(ctx.secret, user.totpSecret), code, ctx.clock.now(), user.totpLastStep);
  if (step === null) return false;
  return twoFactorQueries.markTotpStepUsed(ctx.db, user.id, step);
}

async function useRecoveryCode(ctx: AppContext, user: AuthUser, code: string): Promise<boolean> {
  return twoFactorQueries.useRecoveryCode(ctx.db, user.id, hashRecovery(code), ctx.clock.now());
}

/** The second factor at sign-in: an authenticator code, or a recovery code (each works once). */
export async function verifySecondFactor(ctx: AppContext, user: AuthUser, code: string | undefined): Promise<void> {
  if (!code) throw unauthorized(MSG.totpRequired, 'two_factor_required');
  const ok = /^\d{6}$/.test(code) ? await acceptTotp(ctx, user, code) : await useRecoveryCode(ctx, user, code);
  if (!ok) throw unauthorized(MSG.totpInvalid, 'two_factor_invalid');
}

export async function enable(ctx: AppContext, user: AuthUser, code: string) {
  if (user.totpEnabled) throw badRequest(MSG.twoFactorAlreadyOn);
  if (!user.totpSecret) throw badRequest(MSG.twoFactorSetupFirst);
  if (!(await acceptTotp(ctx, user, code))) throw badRequest(MSG.totpInvalid);
  const codes = Array.from({ length: 10 }, () => {
    const raw = randomBytes(8).toString('hex').toUpperCase().slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  const updated = await inTransaction(ctx.db, async (tx) => {
    await twoFactorQueries.replaceRecoveryCodes(tx, user.id, codes.map(hashRecovery));
    // Older sessions were signed in without the second factor: end them.
    await q.updateUser(tx, user.id, { totpEnabled: true });
    return q.bumpTokenVersion(tx, user.id);
  });
  if (!updated) throw unauthorized(MSG.unauthorized);
  const token = await ctx.tokens.sign({ sub: user.id, tv: updated.tokenVersion, mfa: true });
  return { message: MSG.twoFactorOn, token, recoveryCodes: codes };
}

export async function disable(ctx: AppContext, user: AuthUser, password: string, code: string) {
  if (!user.totpEnabled) throw badRequest(MSG.twoFactorNotOn);
  if (!(await verifyPassword(user.passwordHash, password))) throw badRequest(MSG.currentPasswordWrong);
  await verifySecondFactor(ctx, user, code);
  const updated = await inTransaction(ctx.db, async (tx) => {
    await twoFactorQueries.replaceRecoveryCodes(tx, user.id, []);
    await q.updateUser(tx, user.id, { totpEnabled: false, totpSecret: null, totpLastStep: null });
    return q.bumpTokenVersion(tx, user.id);
  });
  if (!updated) throw unauthorized(MSG.unauthorized);
  return {
    message: MSG.twoFactorOff,
    token: await ctx.tokens.sign({ sub: user.id, tv: updated.tokenVersion }),
  };
}
