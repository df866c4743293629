import type { FastifyRequest } from 'fastify';
import { MSG } from '@harvest/shared/messages';
import { can, type Ability } from '@harvest/shared/staff';
import type { AppContext } from '../context.ts';
import { users } from '../db/schema.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { findSessionUser, touchSession, type SessionRead } from '../modules/sessions/sessions.queries.ts';

export type AuthUser = typeof users.$inferSelect;

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
    /** The session was signed in with the second factor. */
    sessionMfa: boolean;
    /** The session of the bearer token (its row's id and readable device); null only for a blocked user's Logout. */
    session: { id: string; device: string } | null;
    /** What a route behind requireUserReading read with the session, in the same statement (else null). */
    screen: unknown;
  }
}

/** A session's last-seen time moves at most this often: the dashboard's polls do not write on every request. */
export const LAST_SEEN_EVERY_MS = 60_000;

/**
 * Bearer-token authentication. Every request reads the user's row and the token's session row by primary key
 * (one round trip) and checks the token version and that the session was not revoked, so a block, a sign-out,
 * a password change or "this wasn't me" takes effect at once on every instance.
 */
export function authHooks(ctx: AppContext) {
  async function authenticate(
    request: FastifyRequest,
    allowBlocked: boolean,
    read: SessionRead = findSessionUser,
  ): Promise<void> {
    const claims = checkedClaims(await ctx.tokens.verify(bearerToken(request)));
    const found = await read(ctx.db, claims.sub, claims.sid);
    if (!found) throw unauthorized(MSG.unauthorized);
    const { user, session } = found;
    if (user.isBlocked) {
      // A block also ends the session (token version); only Logout still accepts the token.
      if (!allowBlocked) throw forbidden(MSG.blocked, 'blocked');
    } else if (session?.revokedAt && session.revokedAt < session.expiresAt)
      // Signed out from another device (one session, all others, "this wasn't me"), not by its own logout.
      throw unauthorized(MSG.sessionEndedElsewhere, 'session_revoked');
    else if (user.tokenVersion !== claims.tv || !session || session.revokedAt)
      throw unauthorized(MSG.sessionExpired, 'session_expired');
    const now = ctx.clock.now();
    if (session && !session.revokedAt && now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS)
      await touchSession(ctx.db, claims.sid, now, new Date(now.getTime() - LAST_SEEN_EVERY_MS));
    request.user = user;
    request.sessionMfa = claims.mfa === true;
    request.session = session && !session.revokedAt ? { id: claims.sid, device: session.device } : null;
    // Read in the statement that proved the session: handed over only now that every check above passed.
    request.screen = found.screen;
  }

  async function requireUser(request: FastifyRequest): Promise<void> {
    await authenticate(request, false);
  }

  /**
   * requireUser for a polled route whose data `read` fetches in the session's own statement (sessionRead): one
   * round trip for both, the same checks, the data in `request.screen` once they passed.
   */
  function requireUserReading(read: SessionRead) {
    return (request: FastifyRequest): Promise<void> => authenticate(request, false, read);
  }

  /** Like requireUser, but a blocked user passes: Logout must work from the Blocked screen. */
  async function requireSession(request: FastifyRequest): Promise<void> {
    await authenticate(request, true);
  }

  /**
   * The one guard of every admin route: a staff member (with the second factor when ADMIN_REQUIRE_2FA is on) whose
   * role has `ability` (packages/shared/src/staff.ts), else 403 `forbidden_role`, whatever the web shows.
   */
  function requireRole(ability: Ability) {
    return async (request: FastifyRequest): Promise<void> => {
      await authenticate(request, false);
      if (!request.user?.isAdmin) throw forbidden(MSG.forbidden);
      if (ctx.config.adminRequire2fa && !request.sessionMfa)
        throw forbidden(MSG.adminNeeds2fa, 'admin_two_factor_required');
      if (!can(request.user.role, ability)) throw forbidden(MSG.forbiddenRole, 'forbidden_role');
    };
  }

  return { requireUser, requireUserReading, requireSession, requireRole };
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

/** Who is asking, for security events and alerts: the client address and the session's device. */
export interface Client {
  ip: string;
  device: string;
  sessionId: string;
}

/** The client of a route behind requireUser. */
export function currentClient(request: FastifyRequest): Client {
  if (!request.session) throw unauthorized(MSG.sessionExpired, 'session_expired');
  return { ip: request.ip, device: request.session.device, sessionId: request.session.id };
}
