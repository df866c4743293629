import { createHash, randomBytes } from 'node:crypto';
import { MSG } from '@harvest/shared/messages';
import { serverSecrets, type AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { badRequest, unauthorized } from '../../lib/errors.ts';
import { confirmPassword } from '../../lib/reauth.ts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';
import { newTotpSecret, otpauthUrl, verifyTotp } from '../../lib/totp.ts';
import { NOT_ME_LINK_TTL_MS } from '@harvest/shared/constants';
import type { AuthUser, Client } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { queueMail } from '../../mail/outbox.ts';
import { createLink } from '../account-links/account-links.service.ts';
import { recordSecurityEvent } from '../security-events/security-events.queries.ts';
import { reissue, revokeAllSessions } from '../sessions/sessions.service.ts';
import * as q from '../users/users.queries.ts';
import * as twoFactorQueries from './two-factor.queries.ts';

const hashRecovery = (code: string) =>
  createHash('sha256')
    .update(code.replace(/[^A-Z0-9]/gi, '').toUpperCase())
    .digest('hex');

/**
 * Starts enrolment: a new secret, kept sealed and inactive until a code from it is confirmed.
 * Setup, enable and disable all ask for the login password: a stolen session alone must not be
 * able to put the thief's authenticator on the account (and lock the owner out).
 */
export async function setup(ctx: AppContext, user: AuthUser, password: string, ip: string) {
  if (user.totpEnabled) throw badRequest(MSG.twoFactorAlreadyOn);
  await confirmPassword(ctx, user, password, ip);
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
  const seed = openSecret(serverSecrets(ctx), user.totpSecret).plain;
  const step = verifyTotp(seed, code, ctx.clock.now(), user.totpLastStep);
  if (step !== null && (await twoFactorQueries.markTotpStepUsed(ctx.db, user.id, step))) return true;
  // A right code that was already accepted once: say so, rather than 'Invalid' (the person typed it right).
  if (verifyTotp(seed, code, ctx.clock.now(), null) !== null) throw unauthorized(MSG.totpUsed, 'two_factor_invalid');
  return false;
}

/**
 * After a JWT_SECRET rotation: authenticator seeds sealed with the previous secret are sealed again
 * with the current one, so they stay readable once JWT_SECRET_PREVIOUS is removed. Seeds sealed with
 * JWT_SECRET_NEXT (by an instance a rolling rotation already moved on) are left as they are. Runs at
 * start; the update is conditional on the sealed value, so instances starting together do not clash.
 */
export async function resealTotpSeeds(ctx: AppContext): Promise<number> {
  if (!ctx.previousSecret) return 0;
  const secrets = serverSecrets(ctx);
  let resealed = 0;
  for (const row of await twoFactorQueries.listSealedTotpSeeds(ctx.db)) {
    const opened = openSecret(secrets, row.totpSecret);
    if (secrets[opened.sealedWith] !== ctx.previousSecret) continue;
    if (
      await twoFactorQueries.replaceSealedTotpSeed(ctx.db, row.id, row.totpSecret, sealSecret(ctx.secret, opened.plain))
    )
      resealed++;
  }
  return resealed;
}

async function useRecoveryCode(ctx: AppContext, user: AuthUser, code: string): Promise<boolean> {
  return twoFactorQueries.useRecoveryCode(ctx.db, user.id, hashRecovery(code), ctx.clock.now());
}

/**
 * The second factor at sign-in: an authenticator code, or a recovery code (each works once).
 * A given code is counted before it is checked (per account and client address); a missing one is not.
 */
export async function verifySecondFactor(
  ctx: AppContext,
  user: AuthUser,
  code: string | undefined,
  ip: string,
): Promise<void> {
  if (!code) throw unauthorized(MSG.totpRequired, 'two_factor_required');
  const attempt = await ctx.throttles.totp.begin(user.id, ip);
  const ok = /^\d{6}$/.test(code) ? await acceptTotp(ctx, user, code) : await useRecoveryCode(ctx, user, code);
  if (!ok) throw unauthorized(MSG.totpInvalid, 'two_factor_invalid');
  await attempt.succeeded();
}

/**
 * The login password, and the authenticator code when it is on: asked again before a change a stolen session must
 * not make alone (the login password, a passkey added or removed).
 */
export async function confirmPasswordAndCode(
  ctx: AppContext,
  user: AuthUser,
  input: { password: string; totpCode?: string | undefined },
  ip: string,
): Promise<void> {
  await confirmPassword(ctx, user, input.password, ip);
  if (user.totpEnabled) await verifySecondFactor(ctx, user, input.totpCode, ip);
}

export async function enable(
  ctx: AppContext,
  user: AuthUser,
  input: { password: string; code: string },
  client: Client,
) {
  const { ip } = client;
  if (user.totpEnabled) throw badRequest(MSG.twoFactorAlreadyOn);
  if (!user.totpSecret) throw badRequest(MSG.twoFactorSetupFirst);
  await confirmPassword(ctx, user, input.password, ip);
  if (!(await acceptTotp(ctx, user, input.code))) throw badRequest(MSG.totpInvalid);
  const codes = Array.from({ length: 10 }, () => {
    const raw = randomBytes(8).toString('hex').toUpperCase().slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  const token = await inTransaction(ctx.db, async (tx) => {
    await twoFactorQueries.replaceRecoveryCodes(tx, user.id, codes.map(hashRecovery));
    await q.updateUser(tx, user.id, { totpEnabled: true });
    await writeAudit(tx, {
      adminId: user.id,
      action: 'two_factor_enable',
      targetType: 'user',
      targetId: user.id,
      ip,
      at: ctx.clock.now(),
    });
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: 'two_factor_enabled',
      at: ctx.clock.now(),
      ip,
      device: client.device,
    });
    await queueMail(tx, ctx, user.id, { kind: 'two_factor_enabled', at: ctx.clock.now() });
    // Older sessions were signed in without the second factor: end them.
    const { tokenVersion } = await revokeAllSessions(tx, ctx, user.id, client.sessionId);
    return reissue(tx, ctx, { userId: user.id, sessionId: client.sessionId, tokenVersion, mfa: true });
  });
  return { message: MSG.twoFactorOn, token, recoveryCodes: codes };
}

export async function disable(
  ctx: AppContext,
  user: AuthUser,
  input: { password: string; code: string },
  client: Client,
) {
  const { ip } = client;
  if (!user.totpEnabled) throw badRequest(MSG.twoFactorNotOn);
  await confirmPassword(ctx, user, input.password, ip);
  await verifySecondFactor(ctx, user, input.code, ip);
  const token = await inTransaction(ctx.db, async (tx) => {
    await twoFactorQueries.replaceRecoveryCodes(tx, user.id, []);
    await q.updateUser(tx, user.id, { totpEnabled: false, totpSecret: null, totpLastStep: null });
    await writeAudit(tx, {
      adminId: user.id,
      action: 'two_factor_disable',
      targetType: 'user',
      targetId: user.id,
      ip,
      at: ctx.clock.now(),
    });
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: 'two_factor_disabled',
      at: ctx.clock.now(),
      ip,
      device: client.device,
    });
    const notMeUrl = await createLink(tx, ctx, {
      userId: user.id,
      kind: 'not_me',
      targetId: client.sessionId,
      ttlMs: NOT_ME_LINK_TTL_MS,
    });
    await queueMail(tx, ctx, user.id, { kind: 'two_factor_disabled', at: ctx.clock.now(), notMeUrl });
    const { tokenVersion } = await revokeAllSessions(tx, ctx, user.id, client.sessionId);
    return reissue(tx, ctx, { userId: user.id, sessionId: client.sessionId, tokenVersion, mfa: false });
  });
  return { message: MSG.twoFactorOff, token };
}
