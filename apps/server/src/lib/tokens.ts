import { SignJWT, jwtVerify, errors } from 'jose';
import { z } from 'zod';
import type { Clock } from './clock.ts';

const claims = z.object({ sub: z.string().uuid(), tv: z.number().int(), mfa: z.boolean().optional() });
export type TokenClaims = z.infer<typeof claims>;

/** Session tokens: HS256 JWTs with an expiry and the user's token version. */
export class TokenService {
  /**
   * The HMAC key imported once (WebCrypto): jose would otherwise import raw key bytes on every
   * sign and verify, a measurable share of GET /api/user/me (docs/BENCHMARKS.md).
   */
  private readonly key: Promise<CryptoKey>;
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
  ) {
    this.key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  async sign(c: TokenClaims): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const key = await this.key;
    return new SignJWT({ tv: c.tv, ...(c.mfa ? { mfa: true } : {}) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(c.sub)
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlSeconds)
      .sign(key);
  }

  /**
   * Tokens whose signature and claims were verified, with their expiry: a signed-in client sends the
   * same token on every call, and the HMAC check (WebCrypto, asynchronous) was a tenth of the CPU of
   * GET /api/user/me. Only verified tokens are kept (a forged one is checked in full every time), the
   * expiry is checked against the clock on every use, and revocation never depended on this check:
   * the user row (block, token version) is read on every request.
   */
  private readonly verified = new Map<string, { claims: TokenClaims; exp: number }>();
  private static readonly VERIFIED_MAX = 20_000;

  /** The claims of a valid token, or 'expired' / 'invalid'. */
  async verify(token: string): Promise<TokenClaims | 'expired' | 'invalid'> {
    const known = this.verified.get(token);
    if (known) {
      if (Math.floor(this.clock.now().getTime() / 1000) >= known.exp) {
        this.verified.delete(token);
        return 'expired';
      }
      return known.claims;
    }
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        currentDate: this.clock.now(),
        // A token without an expiry would never end: refuse it, whoever signed it.
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      const parsed = claims.safeParse(payload);
      if (!parsed.success) return 'invalid';
      if (typeof payload.exp === 'number') {
        if (this.verified.size >= TokenService.VERIFIED_MAX) {
          const oldest = this.verified.keys().next().value;
          if (oldest !== undefined) this.verified.delete(oldest);
        }
        this.verified.set(token, { claims: parsed.data, exp: payload.exp });
      }
      return parsed.data;
    } catch (err) {
      return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
  }
}
