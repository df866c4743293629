import type { FastifyReply, FastifyRequest } from 'fastify';
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
 * Bearer-token authentication. The user row is read on every call so that a block, a
 * logout or a password change (token version) takes effect at once.
 */
export function authHooks(ctx: AppContext) {
  async function requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await authenticate(request, reply, false);
  }

  /** Like requireUser, but a blocked user passes: Logout must work from the Blocked screen. */
  async function requireSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await authenticate(request, reply, true);
  }

  async function authenticate(request: FastifyRequest, _reply: FastifyReply, allowBlocked: boolean): Promise<void> {
    const header = request.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header) : null;
    if (!m?.[1]) throw unauthorized(MSG.unauthorized);
    const claims = await ctx.tokens.verify(m[1]);
    if (claims === 'expired') throw unauthorized(MSG.sessionExpired, 'session_expired');
    if (claims === 'invalid') throw unauthorized(MSG.unauthorized);
    const user = await findUserById(ctx.db, claims.sub);
    if (!user) throw unauthorized(MSG.unauthorized);
    if (user.isBlocked) {
      // A block also ends the session (token version); only Logout still accepts the token.
      if (!allowBlocked) throw forbidden(MSG.blocked, 'blocked');
    } else if (user.tokenVersion !== claims.tv) throw unauthorized(MSG.sessionExpired, 'session_expired');
    request.user = user;
    request.sessionMfa = claims.mfa === true;
  }

  async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await requireUser(request, reply);
    if (!request.user?.isAdmin) throw forbidden(MSG.forbidden);
    if (ctx.config.adminRequire2fa && !request.sessionMfa)
      throw forbidden(MSG.adminNeeds2fa, 'admin_two_factor_required');
  }

  return { requireUser, requireSession, requireAdmin };
}

/** The signed-in user of a route behind requireUser. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized(MSG.unauthorized);
  return request.user;
}
