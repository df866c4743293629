import { SignJWT, jwtVerify, errors } from 'jose';
import { z } from 'zod';
import type { Clock } from './clock.ts';

/** `sid`: the session row of the sign-in (tokens signed before sessions existed carry none and are refused). */
const claims = z.object({
  sub: z.string().uuid(),
  sid: z.string().uuid(),
  tv: z.number().int(),
  mfa: z.boolean().optional(),
});
export type TokenClaims = z.infer<typeof claims>;

/** The secret as a WebCrypto HMAC key, imported once per TokenService. */
const hmacKey = (secret: string) =>
  crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);

/**
 * Session tokens: HS256 JWTs with an expiry, the session's id and the user's token version. Signed with the current
 * secret; also accepted: tokens of the secret that comes next (JWT_SECRET_NEXT, verify-only, the first
 * step of a rolling rotation) and of the one it replaced (JWT_SECRET_PREVIOUS, until they expire), so
 * rotating the secret over several instances signs nobody out (docs/OPERATIONS.md, section 5).
 */
export class TokenService {
  private readonly key: Promise<CryptoKey>;
  /** The other keys that may have signed a token we accept: JWT_SECRET_NEXT, then JWT_SECRET_PREVIOUS. */
  private readonly otherKeys: Promise<CryptoKey>[];
  /** How far an instance's clock may run ahead of this one's for its tokens' `iat`. */
  private static readonly CLOCK_SKEW_SECONDS = 5;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
    previousSecret?: string,
    nextSecret?: string,
  ) {
    this.key = hmacKey(secret);
    this.otherKeys = [nextSecret, previousSecret].filter((s): s is string => Boolean(s)).map(hmacKey);
  }

  async sign(c: TokenClaims): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ sid: c.sid, tv: c.tv, ...(c.mfa ? { mfa: true } : {}) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(c.sub)
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlSeconds)
      .sign(await this.key);
  }

  /** The claims of a valid token, or 'expired' / 'invalid'. */
  async verify(token: string): Promise<TokenClaims | 'expired' | 'invalid'> {
    let result = await this.verifyWith(await this.key, token);
    for (const other of this.otherKeys)
      if (result === 'bad_signature') result = await this.verifyWith(await other, token);
    return result === 'bad_signature' ? 'invalid' : result;
  }

  private async verifyWith(
    key: CryptoKey,
    token: string,
  ): Promise<TokenClaims | 'expired' | 'invalid' | 'bad_signature'> {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        currentDate: this.clock.now(),
        // A token without an expiry would never end: refuse it, whoever signed it.
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      const parsed = claims.safeParse(payload);
      const { exp, iat } = payload;
      if (!parsed.success || typeof exp !== 'number' || typeof iat !== 'number') return 'invalid';
      // A signed token is ours only if it looks like one we sign: issued in the past (clocks of instances
      // may differ by a little) and living no longer than JWT_TTL_SECONDS. A forged one with a known or
      // guessed key is often neither; an old secret's tokens of a longer TTL end when the TTL is lowered.
      const now = Math.floor(this.clock.now().getTime() / 1000);
      if (iat > now + TokenService.CLOCK_SKEW_SECONDS || exp - iat > this.ttlSeconds) return 'invalid';
      return parsed.data;
    } catch (err) {
      if (err instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
      return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
  }
}
