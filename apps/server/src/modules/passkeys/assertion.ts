import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import type { Assertion } from '@harvest/shared/schemas/passkeys';
import type { AppContext } from '../../context.ts';
import { relyingParty } from '../../lib/webauthn.ts';
import * as q from './passkeys.queries.ts';

/** The challenge an assertion answers (from its client data), or null when that cannot be read. */
export function challengeOf(assertion: { response: { clientDataJSON: string } }): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(assertion.response.clientDataJSON, 'base64url').toString('utf8'));
    return data && typeof data === 'object' && 'challenge' in data && typeof data.challenge === 'string'
      ? data.challenge
      : null;
  } catch {
    return null;
  }
}

/**
 * Whether the assertion is this passkey's signature over `challenge`, for our relying party, with user verification;
 * a good one records the passkey's use. A malformed one is a refusal, not an error.
 */
export async function checkAssertion(
  ctx: AppContext,
  key: q.PasskeyRow,
  assertion: Assertion,
  challenge: string,
): Promise<boolean> {
  const rp = relyingParty(ctx);
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response: { ...assertion, clientExtensionResults: {} },
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: key.credentialId,
        publicKey: Buffer.from(key.publicKey, 'base64url'),
        counter: key.counter,
      },
      requireUserVerification: true,
    });
    if (!verified) return false;
    await q.markUsed(ctx.db, key.id, authenticationInfo.newCounter, ctx.clock.now());
    return true;
  } catch {
    return false;
  }
}
