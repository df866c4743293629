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
  // The same headers on every response; @fastify/helmet would rebuild them (CSP parsing included) per request.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
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
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}
