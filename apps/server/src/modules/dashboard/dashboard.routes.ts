import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheBustQuery } from '@harvest/shared/schemas/common';
import { dashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { AppContext } from '../../context.ts';
import { authHooks } from '../../plugins/auth.ts';
import { sessionAndDashboard } from './dashboard.queries.ts';
import { dashboard } from './dashboard.service.ts';

export function dashboardRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUserReading } = authHooks(ctx);
  return async (app) => {
    // The session and the dashboard in one statement (the tab polls it every 2 s).
    app.get(
      '/user/dashboard',
      {
        onRequest: requireUserReading(sessionAndDashboard),
        schema: { querystring: cacheBustQuery, response: { 200: dashboardResponse } },
      },
      async (req) => dashboard(ctx, req.screen),
    );
  };
}
