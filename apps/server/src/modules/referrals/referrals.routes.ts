import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheBustQuery } from '@harvest/shared/schemas/common';
import { referralTreeSchema, referralsResponse } from '@harvest/shared/schemas/referrals';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import * as service from './referrals.service.ts';

export function referralRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/referral-tree',
      { onRequest: requireUser, schema: { querystring: cacheBustQuery, response: { 200: referralTreeSchema } } },
      async (req) => service.network(ctx, currentUser(req).id),
    );
    app.get(
      '/user/referrals',
      { onRequest: requireUser, schema: { querystring: cacheBustQuery, response: { 200: referralsResponse } } },
      async (req) => service.rewards(ctx, currentUser(req).id),
    );
  };
}
