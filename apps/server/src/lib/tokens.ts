import { SignJWT, jwtVerify, errors } from 'jose';
import { z } from 'zod';
import type { Clock } from './clock.ts';

const claims = z.object({ sub: z.string().uuid(), tv: z.number().int(), mfa: z.boolean().optional() });
export type TokenClaims = z.infer<typeof claims>;

/** An HMAC key imported once (WebCrypto): jose would otherwise import raw key bytes on every call. */
const hmacKey = (secret: string) =>
  crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);

/**
 * Session tokens: HS256 JWTs with an expiry and the user's token version. Signed with the current
 * secret; also accepted: tokens of the secret that comes next (JWT_SECRET_NEXT, verify-only, the first
 * step of a rolling rotation) and of the one it replaced (JWT_SECRET_PREVIOUS, until they expire), so
 * rotating the secret over several instances signs nobody out (docs/OPERATIONS.md, section 5).
 */
export class TokenService {
  private readonly key: Promise<CryptoKey>;
  /** The other keys that may have signed a token we accept: JWT_SECRET_NEXT, then JWT_SECRET_PREVIOUS. */
  private readonly otherKeys: Promise<CryptoKey>[];
  /**
   * Tokens whose signature and claims were verified, with their expiry: a signed-in client sends the
   * same token on every call, and the HMAC check (WebCrypto, asynchronous) was a tenth of the CPU of
   * GET /api/user/me (docs/BENCHMARKS.md). Only verified tokens are kept (a forged one is checked in
   * full every time), the expiry is checked against the clock on every use, and revocation never
   * depended on this check: the user row (block, token version) is read on every request.
   */
  private readonly verified = new Map<string, { claims: TokenClaims; exp: number }>();
  private static readonly VERIFIED_MAX = 20_000;
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
    return new SignJWT({ tv: c.tv, ...(c.mfa ? { mfa: true } : {}) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(c.sub)
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlSeconds)
      .sign(await this.key);
  }

  /**
   * The claims of a token verified before, or 'expired' (checked against the clock now); undefined when
   * this token has not been verified yet (`verify` checks it). Synchronous: the hot path takes no turn.
   */
  known(token: string): TokenClaims | 'expired' | undefined {
    const known = this.verified.get(token);
    if (!known) return undefined;
    if (Math.floor(this.clock.now().getTime() / 1000) >= known.exp) {
      this.verified.delete(token);
      return 'expired';
    }
    return known.claims;
  }

  /** The claims of a valid token, or 'expired' / 'invalid'. */
  async verify(token: string): Promise<TokenClaims | 'expired' | 'invalid'> {
    const known = this.known(token);
    if (known !== undefined) return known;
    let result = await this.verifyWith(await this.key, token);
    for (const other of this.otherKeys)
      if (result === 'bad_signature') result = await this.verifyWith(await other, token);
    if (result === 'bad_signature') return 'invalid';
    if (typeof result === 'object') {
      if (this.verified.size >= TokenService.VERIFIED_MAX) {
        const oldest = this.verified.keys().next().value;
        if (oldest !== undefined) this.verified.delete(oldest);
      }
      this.verified.set(token, result);
      return result.claims;
    }
    return result;
  }

  private async verifyWith(
    key: CryptoKey,
    token: string,
  ): Promise<{ claims: TokenClaims; exp: number } | 'expired' | 'invalid' | 'bad_signature'> {
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
      return { claims: parsed.data, exp };
    } catch (err) {
      if (err instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
      return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
  }
}
