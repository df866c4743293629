import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MSG } from '@harvest/shared/messages';
import { receipt } from '@harvest/shared/said';
import {
  completeCycleBody,
  completeCycleResponse,
  investBody,
  investResponse,
  startEarningBody,
  startEarningResponse,
} from '@harvest/shared/schemas/investments';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { toInvestmentDto } from './investments.dto.ts';
import * as service from './investments.service.ts';

export function investmentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.post(
      '/user/invest',
      {
        onRequest: requireUser,
        config: { idempotent: true },
        schema: { body: investBody, response: { 200: investResponse } },
      },
      async (req) => {
        const { investment } = await service.invest(ctx, currentUser(req), req.body, req.idempotency);
        return { message: MSG.invested, investment: toInvestmentDto(investment, []) };
      },
    );

    app.post(
      '/user/start-earning',
      {
        onRequest: requireUser,
        config: { idempotent: true },
        schema: { body: startEarningBody, response: { 200: startEarningResponse } },
      },
      async (req) => {
        await service.startEarning(ctx, currentUser(req), req.body.investmentId, req.idempotency);
        return { message: MSG.started };
      },
    );

    app.post(
      '/user/complete-cycle',
      {
        onRequest: requireUser,
        config: { idempotent: true },
        schema: { body: completeCycleBody, response: { 200: completeCycleResponse } },
      },
      async (req) => {
        const { gross } = await service.completeCycle(ctx, currentUser(req), req.body.investmentId, req.idempotency);
        return receipt(service.completedMessage(gross));
      },
    );
  };
}
