import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MSG } from '@harvest/shared/messages';
import {
  myWithdrawalLimitsResponse,
  withdrawalPolicyBody,
  withdrawalPolicyResponse,
  withdrawalPolicySaved,
} from '@harvest/shared/schemas/withdrawal-limits';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import * as service from './withdrawal-limits.service.ts';

/** The withdrawal limits: the policy (administrators) and an investor's own limits and hold (Profile). */
export function withdrawalLimitRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser, requireAdmin } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/admin/withdrawal-policy',
      { onRequest: requireAdmin, schema: { response: { 200: withdrawalPolicyResponse } } },
      async () => ({ policy: await service.getWithdrawalPolicy(ctx) }),
    );

    app.put(
      '/admin/withdrawal-policy',
      { onRequest: requireAdmin, schema: { body: withdrawalPolicyBody, response: { 200: withdrawalPolicySaved } } },
      async (req) => ({
        message: MSG.withdrawalPolicySaved,
        policy: await service.setWithdrawalPolicy(ctx, currentUser(req), req.body, req.ip),
      }),
    );

    app.get(
      '/user/withdrawal-limits',
      { onRequest: requireUser, schema: { response: { 200: myWithdrawalLimitsResponse } } },
      async (req) => service.myWithdrawalLimits(ctx, currentUser(req).id),
    );
  };
}
