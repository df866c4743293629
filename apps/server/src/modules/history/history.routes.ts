import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { historyQuery, historyResponse } from '@harvest/shared/schemas/history';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import * as service from './history.service.ts';

/** The investor's full history: every deposit and withdrawal, paged, filtered and searched. */
export function historyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/history',
      { onRequest: requireUser, schema: { querystring: historyQuery, response: { 200: historyResponse } } },
      async (req) => service.userHistory(ctx, currentUser(req), req.query),
    );
  };
}
