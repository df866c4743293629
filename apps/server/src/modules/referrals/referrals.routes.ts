import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheBustQuery } from '@harvest/shared/schemas/common';
import { referralTreeSchema, referralsResponse } from '@harvest/shared/schemas/referrals';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { toReferralTreeDto, toReferralsDto } from './referrals.dto.ts';
import { referralRewardsOf, referralTree } from './referrals.queries.ts';

export function referralRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/referral-tree',
      { onRequest: requireUser, schema: { querystring: cacheBustQuery, response: { 200: referralTreeSchema } } },
      async (req) => toReferralTreeDto(await referralTree(ctx.db, currentUser(req).id)),
    );
    app.get(
      '/user/referrals',
      { onRequest: requireUser, schema: { querystring: cacheBustQuery, response: { 200: referralsResponse } } },
      async (req) => toReferralsDto(await referralRewardsOf(ctx.db, currentUser(req).id)),
    );
  };
}
