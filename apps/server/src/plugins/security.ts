import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
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
    if (request.routeOptions.schema?.body !== undefined) return;
    const body: unknown = request.body;
    if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) return;
    throw badRequest('This call takes no request body');
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
