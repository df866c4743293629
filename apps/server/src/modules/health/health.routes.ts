import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponse } from '@harvest/shared/schemas/health';
import type { AppContext } from '../../context.ts';
import { readiness } from './health.service.ts';

/**
 * Probes for load balancers and orchestrators, outside /api: no session, no rate limit (per-IP
 * limits apply only to the routes that ask for them), no database call in /healthz.
 */
export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const schema = { hide: true, response: { 200: healthResponse, 503: healthResponse } };
    app.get('/healthz', { schema }, async () => ({ status: 'ok' as const }));
    app.get('/readyz', { schema }, async (_req, reply) => {
      const r = await readiness(ctx);
      return reply.status(r.status === 'ok' ? 200 : 503).send(r);
    });
  };
}
