import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { MSG } from '@harvest/shared/messages';
import { badRequest } from '../lib/errors.ts';

/** Security headers for the API and the SPA served from the same origin. No CORS: same origin only. */
export async function registerSecurity(app: FastifyInstance, production: boolean): Promise<void> {
  const headers = await helmetHeaders({
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
  // The API's answers are JSON read by the app, never documents: they carry the headers that matter for
  // an API (OWASP REST Security: no sniffing, no framing, no caching, no referrer, not embeddable from
  // another origin, HSTS) and not the ones that only mean something for a page (docs/decisions/0079).
  const apiHeaders: Record<string, string> = {
    'content-security-policy': "default-src 'self'; object-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
    ...(headers['strict-transport-security']
      ? { 'strict-transport-security': headers['strict-transport-security'] }
      : {}),
  };
  // The same headers on every response; @fastify/helmet would rebuild them (CSP parsing included) per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : headers);
    done();
  });
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

/**
 * The headers helmet sets with these options, computed once: a throwaway Fastify instance with
 * @fastify/helmet answers one request, and every helmet header of that answer is kept.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', async () => 'probe');
  const res = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (!own.has(name) && value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return out;
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
