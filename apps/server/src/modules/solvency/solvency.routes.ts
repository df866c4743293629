import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponse } from '@harvest/shared/schemas/common';
import { reconciliationResponse, solvencyResponse } from '@harvest/shared/schemas/solvency';
import { idParams } from '@harvest/shared/schemas/user';
import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import * as service from './solvency.service.ts';

/** The Solvency panel: what is owed against what the chain holds, the watcher, the reconciliation, alarms. */
export function solvencyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireRole } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/admin/solvency',
      { onRequest: requireRole('read'), schema: { response: { 200: solvencyResponse } } },
      async () => service.solvency(ctx),
    );
    app.post(
      '/admin/solvency/refresh',
      { onRequest: requireRole('money'), schema: { response: { 200: solvencyResponse } } },
      async (req) => service.adminRefresh(ctx, currentUser(req), req.ip),
    );
    app.get('/admin/solvency/sweep-plan', { onRequest: requireRole('money') }, async (req, reply) => {
      const plan = await service.adminSweepPlan(ctx, currentUser(req), req.ip);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="sweep-plan-${plan.createdAt.slice(0, 10)}.json"`)
        .header('cache-control', 'no-store')
        .send(`${JSON.stringify(plan, null, 2)}\n`);
    });
    app.post(
      '/admin/solvency/reconcile',
      { onRequest: requireRole('money'), schema: { response: { 202: reconciliationResponse } } },
      async (req, reply) =>
        reply.status(202).send({
          message: MSG.reconciliationStarted,
          reconciliation: await service.adminReconcile(ctx, currentUser(req), req.ip),
        }),
    );
    app.post(
      '/admin/chain-alarms/:id/acknowledge',
      { onRequest: requireRole('money'), schema: { params: idParams, response: { 200: messageResponse } } },
      async (req) => {
        await service.acknowledgeAlarm(ctx, currentUser(req), req.params.id, req.ip);
        return { message: MSG.chainAlarmAcknowledged };
      },
    );
  };
}
