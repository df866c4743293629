import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheBustQuery } from '@harvest/shared/schemas/common';
import { tiersResponse } from '@harvest/shared/schemas/investments';
import { microToUsdc, scaledToRate } from '@harvest/shared/money';
import type { AppContext } from '../../context.ts';
import { authHooks } from '../../plugins/auth.ts';
import { listActiveTiers } from './tiers.queries.ts';

export function tierRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/investment-tiers',
      { onRequest: requireUser, schema: { querystring: cacheBustQuery, response: { 200: tiersResponse } } },
      async () => ({
        tiers: (await listActiveTiers(ctx.db)).map((t) => ({
          _id: t.id,
          name: t.name,
          amount: microToUsdc(t.amount),
          dailyRate: scaledToRate(t.dailyRateScaled),
        })),
      }),
    );
  };
}
