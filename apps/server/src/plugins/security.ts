import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { MSG } from '@harvest/shared/messages';
import { badRequest } from '../lib/errors.ts';

const hsts = (production: boolean) => (production ? { maxAge: 31536000, includeSubDomains: true } : false);

/** Helmet's headers for the pages (the SPA, its assets, the health checks). */
export function pageHelmet(production: boolean): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // react-toastify injects its stylesheet at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    hsts: hsts(production),
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * The API's answers are JSON read by the app, never documents: the headers that matter for an API (OWASP REST
 * Security: no sniffing, no framing, no referrer, not embeddable from another origin, HSTS) and not the ones that
 * only mean something for a page.
 */
export function apiHelmet(production: boolean): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'self'"], objectSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    hsts: hsts(production),
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    dnsPrefetchControl: false,
    ieNoOpen: false,
    permittedCrossDomainPolicies: false,
    xssFilter: false,
  };
}

/** The API context: its helmet headers, and nothing it answers is cached (personal data, balances). */
export async function registerApiSecurity(api: FastifyInstance, production: boolean): Promise<void> {
  await api.register(helmet, apiHelmet(production));
  api.addHook('onRequest', (_request, reply, done) => {
    reply.header('cache-control', 'no-store');
    done();
  });
}

/** Checks on every request's parsed input. No CORS: same origin only. */
export function registerInputGuards(app: FastifyInstance): void {
  // A call that declares no body (logout, generate-invitation, toggle-block, 2fa/setup) takes none:
  // fields sent to it are refused, as the strict body schemas refuse extra fields elsewhere.
  app.addHook('preValidation', (request, _reply, done) => {
    // PostgreSQL text cannot hold NUL: such a value would fail in the database as a 500.
    if (hasNul(request.body) || hasNul(request.query) || hasNul(request.params))
      return done(badRequest(MSG.invalidCharacter));
    const body: unknown = request.body;
    if (
      request.routeOptions.schema?.body !== undefined ||
      body === undefined ||
      body === null ||
      (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)
    )
      return done();
    done(badRequest(MSG.noBodyAllowed));
  });
}

/** Any string (value or key) in a parsed request holds a NUL character. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value !== 'object' || value === null || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1));
  for (const k in value)
    if (k.includes('\u0000') || hasNul((value as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}
