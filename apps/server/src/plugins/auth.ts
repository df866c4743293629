import type { FastifyReply, FastifyRequest } from 'fastify';
import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../context.ts';
import { users } from '../db/schema.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import type { SQL } from 'drizzle-orm';
import { findUserById, findUserWith } from '../modules/users/users.queries.ts';

export type AuthUser = typeof users.$inferSelect;

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
    /** The session was signed in with the second factor. */
    sessionMfa: boolean;
  }
}

/**
 * Bearer-token authentication. The user row comes from the session cache (lib/session-cache.ts) or the
 * database, and is checked on every call, so that a block, a logout or a password change (token
 * version) takes effect at once, on every instance.
 */
export function authHooks(ctx: AppContext) {
  async function sessionUser(id: string): Promise<AuthUser | undefined> {
    return ctx.sessions.get(id) ?? loadUser(id);
  }

  /** The user row from the database, kept in the session cache. */
  async function loadUser(id: string): Promise<AuthUser | undefined> {
    const token = ctx.sessions.begin();
    const user = await findUserById(ctx.db, id);
    ctx.sessions.fill(token, user);
    return user;
  }

  async function verifiedClaims(request: FastifyRequest): Promise<Claims> {
    return checkedClaims(await ctx.tokens.verify(bearerToken(request)));
  }

  /**
   * requireUser as a callback hook: a token verified before and a user row in the session cache are
   * checked without a single asynchronous turn (the same checks, on the same row). Otherwise the rest is
   * asynchronous, going on from what is known: a token not verified yet is verified, a row not cached is read.
   */
  function requireUser(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
    let token = '';
    let claims: Claims | undefined;
    let admitted = false;
    try {
      token = bearerToken(request);
      const known = ctx.tokens.known(token);
      if (known !== undefined) {
        claims = checkedClaims(known);
        const user = ctx.sessions.get(claims.sub);
        if (user) admitted = Boolean(admit(request, claims, user));
      }
    } catch (err) {
      done(err as Error);
      return;
    }
    if (admitted) done();
    else admitLater(request, token, claims).then(() => done(), done);
  }

  /** requireUser's asynchronous part: verifies a token not verified yet, reads a row not cached. */
  async function admitLater(request: FastifyRequest, token: string, verified: Claims | undefined): Promise<void> {
    if (verified) {
      admit(request, verified, await loadUser(verified.sub));
      return;
    }
    const claims = checkedClaims(await ctx.tokens.verify(token));
    admit(request, claims, await sessionUser(claims.sub));
  }

  /** Like requireUser, but a blocked user passes: Logout must work from the Blocked screen. */
  async function requireSession(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const claims = await verifiedClaims(request);
    admit(request, claims, await sessionUser(claims.sub), true);
  }

  /**
   * requireUser for the hot reads: the user row and the screen's data (`extra`, SQL over the row
   * aliased `u`) in ONE statement, the same checks applied to that row before the handler may use the
   * data (`sessionData`); a block, a logout or a password change still takes effect at once. The
   * statement is prepared once (`name`: its statement name on PostgreSQL).
   */
  function requireUserReading(extra: SQL, name: string) {
    return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
      const claims = await verifiedClaims(request);
      const token = ctx.sessions.begin();
      const row = await findUserWith(ctx.db, claims.sub, extra, name);
      ctx.sessions.fill(token, row?.user);
      admit(request, claims, row?.user);
      readData.set(request, row?.extra);
    };
  }

  /** requireUser, then an administrator (with the second factor when ADMIN_REQUIRE_2FA is on). */
  function requireAdmin(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    requireUser(request, reply, (err) => {
      if (err) done(err);
      else if (!request.user?.isAdmin) done(forbidden(MSG.forbidden));
      else if (ctx.config.adminRequire2fa && !request.sessionMfa)
        done(forbidden(MSG.adminNeeds2fa, 'admin_two_factor_required'));
      else done();
    });
  }

  return { requireUser, requireSession, requireAdmin, requireUserReading };
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
const readData = new WeakMap<FastifyRequest, unknown>();

/** The data a route behind requireUserReading read with the user row. */
export function sessionData(request: FastifyRequest): unknown {
  if (!readData.has(request)) throw unauthorized(MSG.unauthorized);
  return readData.get(request);
}

/** The checks every authenticated request passes, on the user row read for it. */
function admit(request: FastifyRequest, claims: Claims, user: AuthUser | undefined, allowBlocked = false): AuthUser {
  if (!user) throw unauthorized(MSG.unauthorized);
  if (user.isBlocked) {
    // A block also ends the session (token version); only Logout still accepts the token.
    if (!allowBlocked) throw forbidden(MSG.blocked, 'blocked');
  } else if (user.tokenVersion !== claims.tv) throw unauthorized(MSG.sessionExpired, 'session_expired');
  request.user = user;
  request.sessionMfa = claims.mfa === true;
  return user;
}

/** The signed-in user of a route behind requireUser. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized(MSG.unauthorized);
  return request.user;
}
