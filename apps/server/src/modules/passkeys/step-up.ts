import { randomBytes } from 'node:crypto';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { MSG } from '@harvest/shared/messages';
import { TRANSPORTS, type Assertion } from '@harvest/shared/schemas/passkeys';
import type { StepUpPurpose } from '@harvest/shared/schemas/step-up';
import type { AppContext } from '../../context.ts';
import { payloadHash } from '../../lib/canonical.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { CHALLENGE_TTL_MS, relyingParty } from '../../lib/webauthn.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { challengeOf, checkAssertion } from './assertion.ts';
import * as q from './passkeys.queries.ts';

/**
 * Step-up with a passkey: a challenge issued for one purpose and the exact payload it confirms (the SHA-256 of its
 * canonical form), kept single-use with an expiry. Any route that must be confirmed by the account's passkey (Withdraw
 * All, adding an address, turning the lock off, a staff approval) calls `stepUpOptions` with what the person is about
 * to confirm, and `verifyStepUp` with what the request it accompanies asks for: an assertion made for another
 * payload, a used one or an expired one is refused.
 */
export async function stepUpOptions(ctx: AppContext, user: AuthUser, purpose: StepUpPurpose, payload: unknown) {
  const keys = await q.listPasskeys(ctx.db, user.id);
  if (keys.length === 0) throw badRequest(MSG.passkeyRequired);
  const challenge = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await q.insertChallenge(ctx.db, {
    challenge,
    userId: user.id,
    purpose,
    payloadHash: payloadHash(payload),
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return generateAuthenticationOptions({
    rpID: relyingParty(ctx).id,
    challenge: Buffer.from(challenge, 'base64url'),
    allowCredentials: keys.map((k) => ({ id: k.credentialId, transports: transportsOf(k.transports) })),
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
  });
}

/**
 * Checks the step-up of a request: 'none' when the account has no passkey (the caller asks today's passwords and
 * code), 'passkey' when `assertion` was made for this user, purpose and payload by one of the account's passkeys
 * (the challenge is used up). Otherwise 401 `passkey_required` (none sent) or `passkey_invalid`.
 */
export async function verifyStepUp(
  ctx: AppContext,
  user: AuthUser,
  purpose: StepUpPurpose,
  payload: unknown,
  assertion: Assertion | undefined,
): Promise<'none' | 'passkey'> {
  if ((await q.countPasskeys(ctx.db, user.id)) === 0) return 'none';
  if (!assertion) throw new AppError('passkey_required', MSG.passkeyRequired);
  const invalid = new AppError('passkey_invalid', MSG.passkeyStepUpInvalid);
  const key = await q.findByCredentialId(ctx.db, assertion.id);
  const challenge = challengeOf(assertion);
  if (!key || key.userId !== user.id || !challenge) throw invalid;
  const taken = await q.takeChallenge(ctx.db, {
    challenge,
    userId: user.id,
    purpose,
    payloadHash: payloadHash(payload),
    now: ctx.clock.now(),
  });
  if (!taken) throw invalid;
  if (!(await checkAssertion(ctx, key, assertion, challenge))) throw invalid;
  return 'passkey';
}

/** The stored transports, as WebAuthn names them. */
export const transportsOf = (list: string[]) => TRANSPORTS.filter((t) => list.includes(t));
