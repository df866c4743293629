import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { MSG } from '@harvest/shared/messages';
import { badRequest } from '../lib/errors.ts';

/** Security headers for the API and the SPA served from the same origin. No CORS: same origin only. */
export async function registerSecurity(app: FastifyInstance, production: boolean): Promise<void> {
  await app.register(helmet, {
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
    hsts: production ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  // A call that declares no body (logout, generate-invitation, toggle-block, 2fa/setup) takes none:
  // fields sent to it are refused, as the strict body schemas refuse extra fields elsewhere.
  app.addHook('preValidation', async (request) => {
    // PostgreSQL text cannot hold NUL: such a value would fail in the database as a 500.
    if (hasNul(request.body) || hasNul(request.query) || hasNul(request.params)) throw badRequest(MSG.invalidCharacter);
    if (request.routeOptions.schema?.body !== undefined) return;
    const body: unknown = request.body;
    if (
      body === undefined ||
      body === null ||
      (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)
    )
      return;
    throw badRequest(MSG.noBodyAllowed);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** Any string (value or key) in a parsed request holds a NUL character. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value !== 'object' || value === null || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}
