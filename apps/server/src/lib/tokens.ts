import { SignJWT, jwtVerify, errors } from 'jose';
import { z } from 'zod';
import type { Clock } from './clock.ts';

const claims = z.object({ sub: z.string().uuid(), tv: z.number().int(), mfa: z.boolean().optional() });
export type TokenClaims = z.infer<typeof claims>;

/**
 * Session tokens: HS256 JWTs with an expiry and the user's token version. Signed with the current
 * secret; with a previous one (JWT_SECRET_PREVIOUS, during a rotation) tokens it signed are still
 * accepted until they expire, so rotating the secret signs nobody out.
 */
export class TokenService {
  private readonly key: Uint8Array;
  private readonly previousKey: Uint8Array | null;
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
    previousSecret?: string,
  ) {
    this.key = new TextEncoder().encode(secret);
    this.previousKey = previousSecret ? new TextEncoder().encode(previousSecret) : null;
  }

  sign(c: TokenClaims): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ tv: c.tv, ...(c.mfa ? { mfa: true } : {}) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(c.sub)
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlSeconds)
      .sign(this.key);
  }

  /** The claims of a valid token, or 'expired' / 'invalid'. */
  async verify(token: string): Promise<TokenClaims | 'expired' | 'invalid'> {
    const result = await this.verifyWith(this.key, token);
    if (result === 'bad_signature')
      return this.previousKey ? this.finish(await this.verifyWith(this.previousKey, token)) : 'invalid';
    return this.finish(result);
  }

  private finish(r: TokenClaims | 'expired' | 'invalid' | 'bad_signature'): TokenClaims | 'expired' | 'invalid' {
    return r === 'bad_signature' ? 'invalid' : r;
  }

  private async verifyWith(
    key: Uint8Array,
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
      return parsed.success ? parsed.data : 'invalid';
    } catch (err) {
      if (err instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
      return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
  }
}
