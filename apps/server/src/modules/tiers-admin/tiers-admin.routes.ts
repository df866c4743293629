import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminTierResponse, adminTiersResponse, createTierBody, updateTierBody } from '@harvest/shared/schemas/admin';
import { idParams } from '@harvest/shared/schemas/user';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import * as service from './tiers-admin.service.ts';

/** Tier management for administrators: list (inactive too), create, edit, (de)activate. */
export function tiersAdminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireAdmin } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/admin/tiers',
      { onRequest: requireAdmin, schema: { response: { 200: adminTiersResponse } } },
      async () => ({ tiers: await service.listTiers(ctx) }),
    );

    app.post(
      '/admin/tiers',
      { onRequest: requireAdmin, schema: { body: createTierBody, response: { 201: adminTierResponse } } },
      async (req, reply) => {
        const tier = await service.createTier(ctx, currentUser(req), req.body, req.ip);
        return reply.status(201).send({ tier });
      },
    );

    app.put(
      '/admin/tiers/:id',
      {
        onRequest: requireAdmin,
        schema: { params: idParams, body: updateTierBody, response: { 200: adminTierResponse } },
      },
      async (req) => ({ tier: await service.updateTier(ctx, currentUser(req), req.params.id, req.body, req.ip) }),
    );
  };
}
