import { SignJWT, jwtVerify, errors } from 'jose';
import { z } from 'zod';
import type { Clock } from './clock.ts';

const claims = z.object({ sub: z.string().uuid(), tv: z.number().int(), mfa: z.boolean().optional() });
export type TokenClaims = z.infer<typeof claims>;

/** Session tokens: HS256 JWTs with an expiry and the user's token version. */
export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
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
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: this.clock.now(),
        // A token without an expiry would never end: refuse it, whoever signed it.
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      const parsed = claims.safeParse(payload);
      return parsed.success ? parsed.data : 'invalid';
    } catch (err) {
      return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
  }
}
