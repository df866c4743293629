import type { FastifyRequest } from 'fastify';
import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../context.ts';
import { users } from '../db/schema.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { findUserById } from '../modules/users/users.queries.ts';

export type AuthUser = typeof users.$inferSelect;

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
    /** The session was signed in with the second factor. */
    sessionMfa: boolean;
  }
}

/**
 * Bearer-token authentication. Every request reads the user's row by primary key and compares its token
 * version with the token's, so a block, a logout or a password change takes effect at once on every instance.
 */
export function authHooks(ctx: AppContext) {
  async function authenticate(request: FastifyRequest, allowBlocked: boolean): Promise<void> {
    const claims = checkedClaims(await ctx.tokens.verify(bearerToken(request)));
    const user = await findUserById(ctx.db, claims.sub);
    if (!user) throw unauthorized(MSG.unauthorized);
    if (user.isBlocked) {
      // A block also ends the session (token version); only Logout still accepts the token.
      if (!allowBlocked) throw forbidden(MSG.blocked, 'blocked');
    } else if (user.tokenVersion !== claims.tv) throw unauthorized(MSG.sessionExpired, 'session_expired');
    request.user = user;
    request.sessionMfa = claims.mfa === true;
  }

  async function requireUser(request: FastifyRequest): Promise<void> {
    await authenticate(request, false);
  }

  /** Like requireUser, but a blocked user passes: Logout must work from the Blocked screen. */
  async function requireSession(request: FastifyRequest): Promise<void> {
    await authenticate(request, true);
  }

  /** requireUser, then an administrator (with the second factor when ADMIN_REQUIRE_2FA is on). */
  async function requireAdmin(request: FastifyRequest): Promise<void> {
    await authenticate(request, false);
    if (!request.user?.isAdmin) throw forbidden(MSG.forbidden);
    if (ctx.config.adminRequire2fa && !request.sessionMfa)
      throw forbidden(MSG.adminNeeds2fa, 'admin_two_factor_required');
  }

  return { requireUser, requireSession, requireAdmin };
}

type Claims = Exclude<Awaited<ReturnType<AppContext['tokens']['verify']>>, 'expired' | 'invalid'>;

/** The bearer token of the request (401 without one). */
function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header) : null;
  if (!m?.[1]) throw unauthorized(MSG.unauthorized);
  return m[1];
}

/** Claims of a usable token; an expired or invalid one is a 401. */
function checkedClaims(claims: Claims | 'expired' | 'invalid'): Claims {
  if (claims === 'expired') throw unauthorized(MSG.sessionExpired, 'session_expired');
  if (claims === 'invalid') throw unauthorized(MSG.unauthorized);
  return claims;
}

/** The signed-in user of a route behind requireUser. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized(MSG.unauthorized);
  return request.user;
}
