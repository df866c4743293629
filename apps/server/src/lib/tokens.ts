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
 * secret; with a previous one (JWT_SECRET_PREVIOUS, during a rotation) tokens it signed are still
 * accepted until they expire, so rotating the secret signs nobody out.
 */
export class TokenService {
  private readonly key: Promise<CryptoKey>;
  private readonly previousKey: Promise<CryptoKey> | null;
  /**
   * Tokens whose signature and claims were verified, with their expiry: a signed-in client sends the
   * same token on every call, and the HMAC check (WebCrypto, asynchronous) was a tenth of the CPU of
   * GET /api/user/me (docs/BENCHMARKS.md). Only verified tokens are kept (a forged one is checked in
   * full every time), the expiry is checked against the clock on every use, and revocation never
   * depended on this check: the user row (block, token version) is read on every request.
   */
  private readonly verified = new Map<string, { claims: TokenClaims; exp: number }>();
  private static readonly VERIFIED_MAX = 20_000;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
    previousSecret?: string,
  ) {
    this.key = hmacKey(secret);
    this.previousKey = previousSecret ? hmacKey(previousSecret) : null;
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
    if (result === 'bad_signature' && this.previousKey) result = await this.verifyWith(await this.previousKey, token);
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
      return parsed.success && typeof payload.exp === 'number' ? { claims: parsed.data, exp: payload.exp } : 'invalid';
    } catch (err) {
      if (err instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
      return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
  }
}
