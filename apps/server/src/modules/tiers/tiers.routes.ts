import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheBustQuery } from '@harvest/shared/schemas/common';
import { tiersResponse } from '@harvest/shared/schemas/investments';
import type { AppContext } from '../../context.ts';
import { authHooks } from '../../plugins/auth.ts';
import * as service from './tiers.service.ts';

export function tierRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/investment-tiers',
      { onRequest: requireUser, schema: { querystring: cacheBustQuery, response: { 200: tiersResponse } } },
      async () => ({ tiers: await service.activeTiers(ctx) }),
    );
  };
}
