import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheBustQuery, messageResponse } from '@harvest/shared/schemas/common';
import {
  adminWithdrawalsQuery,
  adminWithdrawalsResponse,
  approveBody,
  myWithdrawalsResponse,
  rejectBody,
  requestAllBody,
  withdrawalActionResponse,
} from '@harvest/shared/schemas/withdrawals';
import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import { pageOf } from '../../db/keyset.ts';
import * as service from './withdrawals.service.ts';

export function withdrawalRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser, requireAdmin } = authHooks(ctx);

  return async (app) => {
    app.post(
      '/withdrawal/request-all',
      {
        onRequest: requireUser,
        schema: { body: requestAllBody, response: { 200: messageResponse } },
        config: { ...perIp(30, 15), idempotent: true },
      },
      async (req) => {
        const res = await service.requestAll(ctx, currentUser(req), req.body, req.ip);
        return { message: res.message };
      },
    );

    app.get(
      '/withdrawal/my-withdrawals',
      { onRequest: requireUser, schema: { querystring: cacheBustQuery, response: { 200: myWithdrawalsResponse } } },
      async (req) => ({
        withdrawals: await service.myWithdrawals(ctx.db, currentUser(req).id),
      }),
    );

    app.get(
      '/withdrawal/admin/pending',
      {
        onRequest: requireAdmin,
        schema: { querystring: adminWithdrawalsQuery, response: { 200: adminWithdrawalsResponse } },
      },
      async (req) => service.adminList(ctx.db, { ...pageOf(req.query), status: 'pending' }),
    );

    app.get(
      '/withdrawal/admin/all',
      {
        onRequest: requireAdmin,
        schema: { querystring: adminWithdrawalsQuery, response: { 200: adminWithdrawalsResponse } },
      },
      async (req) => service.adminList(ctx.db, { ...pageOf(req.query), status: req.query.status }),
    );

    app.post(
      '/withdrawal/admin/approve',
      {
        onRequest: requireAdmin,
        schema: { body: approveBody, response: { 200: withdrawalActionResponse } },
        config: { idempotent: true },
      },
      async (req) => ({
        message: MSG.withdrawalApproved,
        withdrawal: await service.approve(ctx, currentUser(req), req.body, req.ip),
      }),
    );

    app.post(
      '/withdrawal/admin/reject',
      {
        onRequest: requireAdmin,
        schema: { body: rejectBody, response: { 200: withdrawalActionResponse } },
        config: { idempotent: true },
      },
      async (req) => ({
        message: MSG.withdrawalRejected,
        withdrawal: await service.reject(ctx, currentUser(req), req.body, req.ip),
      }),
    );
  };
}
