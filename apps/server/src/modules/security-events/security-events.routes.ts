import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountPageQuery, securityEventsResponse } from '@harvest/shared/schemas/security';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { listSecurityEvents } from './security-events.service.ts';

export function securityEventRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/security-events',
      { onRequest: requireUser, schema: { querystring: accountPageQuery, response: { 200: securityEventsResponse } } },
      async (req) => listSecurityEvents(ctx.db, currentUser(req).id, req.query),
    );
  };
}
