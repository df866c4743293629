import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheBustQuery } from '@harvest/shared/schemas/common';
import { dashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { AppContext } from '../../context.ts';
import { authHooks, sessionData } from '../../plugins/auth.ts';
import { DASHBOARD_JSON, parseDashboard } from './dashboard.queries.ts';
import { dashboard } from './dashboard.service.ts';

export function dashboardRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUserReading } = authHooks(ctx);
  // One round trip: the session's user row and the whole dashboard in one statement.
  const requireUser = requireUserReading(DASHBOARD_JSON, 'hf_dashboard');
  return async (app) => {
    app.get(
      '/user/dashboard',
      { onRequest: requireUser, schema: { querystring: cacheBustQuery, response: { 200: dashboardResponse } } },
      async (req) => dashboard(ctx, parseDashboard(sessionData(req))),
    );
  };
}
