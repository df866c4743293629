import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { proposalSentResponse } from '@harvest/shared/schemas/proposals';
import { MSG } from '@harvest/shared/messages';
import {
  myWithdrawalLimitsResponse,
  withdrawalPolicyBody,
  withdrawalPolicyResponse,
  withdrawalPolicySaved,
} from '@harvest/shared/schemas/withdrawal-limits';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { twoOrOne } from '../proposals/proposals.service.ts';
import * as service from './withdrawal-limits.service.ts';

/** The withdrawal limits: the policy (administrators) and an investor's own limits and hold (Profile). */
export function withdrawalLimitRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser, requireRole } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/admin/withdrawal-policy',
      { onRequest: requireRole('read'), schema: { response: { 200: withdrawalPolicyResponse } } },
      async () => ({ policy: await service.getWithdrawalPolicy(ctx) }),
    );

    app.put(
      '/admin/withdrawal-policy',
      {
        onRequest: requireRole('money'),
        schema: { body: withdrawalPolicyBody, response: { 200: withdrawalPolicySaved, 202: proposalSentResponse } },
      },
      async (req, reply) => {
        const set = async () => ({
          message: MSG.withdrawalPolicySaved,
          policy: await service.setWithdrawalPolicy(ctx, currentUser(req), req.body, req.ip),
        });
        const text = (v: bigint | null) => (v === null ? null : v.toString());
        const { perInvestorDay, perInvestorMonth, platformDay } = req.body;
        return twoOrOne(
          ctx,
          req,
          reply,
          'withdrawal_policy',
          {
            perInvestorDay: text(perInvestorDay),
            perInvestorMonth: text(perInvestorMonth),
            platformDay: text(platformDay),
          },
          set,
        );
      },
    );

    app.get(
      '/user/withdrawal-limits',
      { onRequest: requireUser, schema: { response: { 200: myWithdrawalLimitsResponse } } },
      async (req) => service.myWithdrawalLimits(ctx, currentUser(req).id),
    );
  };
}
