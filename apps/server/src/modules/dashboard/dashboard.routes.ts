import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheBustQuery } from '@harvest/shared/schemas/common';
import { dashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { dashboard } from './dashboard.service.ts';

export function dashboardRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/dashboard',
      { onRequest: requireUser, schema: { querystring: cacheBustQuery, response: { 200: dashboardResponse } } },
      async (req) => dashboard(ctx, currentUser(req).id),
    );
  };
}
