import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { solvencyResponse } from '@harvest/shared/schemas/solvency';
import type { AppContext } from '../../context.ts';
import { authHooks } from '../../plugins/auth.ts';
import { solvency } from './solvency.service.ts';

export function solvencyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireAdmin } = authHooks(ctx);
  return async (app) => {
    app.get('/admin/solvency', { onRequest: requireAdmin, schema: { response: { 200: solvencyResponse } } }, async () =>
      solvency(ctx),
    );
  };
}
