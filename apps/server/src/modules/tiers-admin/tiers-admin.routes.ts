import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminTierResponse, adminTiersResponse, createTierBody, updateTierBody } from '@harvest/shared/schemas/admin';
import { idParams } from '@harvest/shared/schemas/user';
import { proposalSentResponse } from '@harvest/shared/schemas/proposals';
import type { AppContext } from '../../context.ts';
import { twoOrOne } from '../proposals/proposals.service.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import * as service from './tiers-admin.service.ts';

/** Tier management for administrators: list (inactive too), create, edit, (de)activate. */
export function tiersAdminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireRole } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/admin/tiers',
      { onRequest: requireRole('read'), schema: { response: { 200: adminTiersResponse } } },
      async () => ({ tiers: await service.listTiers(ctx) }),
    );

    app.post(
      '/admin/tiers',
      {
        onRequest: requireRole('money'),
        schema: { body: createTierBody, response: { 201: adminTierResponse, 202: proposalSentResponse } },
      },
      async (req, reply) =>
        twoOrOne(ctx, req, reply, 'tier_create', { ...req.body, amount: req.body.amount.toString() }, async () => {
          const tier = await service.createTier(ctx, currentUser(req), req.body, req.ip);
          return reply.status(201).send({ tier });
        }),
    );

    app.put(
      '/admin/tiers/:id',
      {
        onRequest: requireRole('money'),
        schema: {
          params: idParams,
          body: updateTierBody,
          response: { 200: adminTierResponse, 202: proposalSentResponse },
        },
      },
      async (req, reply) =>
        twoOrOne(
          ctx,
          req,
          reply,
          'tier_update',
          { tierId: req.params.id, ...req.body, amount: req.body.amount?.toString() },
          async () => ({ tier: await service.updateTier(ctx, currentUser(req), req.params.id, req.body, req.ip) }),
        ),
    );
  };
}
