import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheBustQuery, messageResponse } from '@harvest/shared/schemas/common';
import {
  adminWithdrawalsQuery,
  adminWithdrawalsResponse,
  approveBody,
  assignPayoutBody,
  cancelBatchBody,
  createBatchBody,
  foundPayoutsResponse,
  payoutBatchResponse,
  payoutBatchesResponse,
  myWithdrawalsResponse,
  rejectBody,
  requestAllBody,
  withdrawalActionResponse,
} from '@harvest/shared/schemas/withdrawals';
import { MSG } from '@harvest/shared/messages';
import { receipt } from '@harvest/shared/said';
import { proposalSentResponse } from '@harvest/shared/schemas/proposals';
import type { AppContext } from '../../context.ts';
import { twoOrOne } from '../proposals/proposals.service.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import { pageOf } from '../../db/keyset.ts';
import { idParams } from '@harvest/shared/schemas/user';
import * as z from 'zod/mini';
import * as batches from './batches.service.ts';
import * as payouts from './payouts.service.ts';
import * as service from './withdrawals.service.ts';
import { sessionAndWithdrawals } from './withdrawals.queries.ts';

const batchFileQuery = z.strictObject({ format: z._default(z.enum(['safe', 'csv']), 'safe') });

export function withdrawalRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser, requireRole, requireUserReading } = authHooks(ctx);

  return async (app) => {
    app.post(
      '/withdrawal/request-all',
      {
        onRequest: requireUser,
        schema: { body: requestAllBody, response: { 200: messageResponse } },
        config: { ...perIp(30, 15), idempotent: true },
      },
      async (req) => {
        const res = await service.requestAll(
          ctx,
          currentUser(req),
          req.body,
          { ip: req.ip, sessionId: req.session?.id ?? null },
          req.idempotency,
        );
        return receipt(res.message);
      },
    );

    app.get(
      '/withdrawal/my-withdrawals',
      {
        // The session and the withdrawals in one statement (the Investments tab polls it every 2 s).
        onRequest: requireUserReading(sessionAndWithdrawals),
        schema: { querystring: cacheBustQuery, response: { 200: myWithdrawalsResponse } },
      },
      async (req) => ({ withdrawals: service.myWithdrawals(req.screen) }),
    );

    app.get(
      '/withdrawal/admin/pending',
      {
        onRequest: requireRole('read'),
        schema: { querystring: adminWithdrawalsQuery, response: { 200: adminWithdrawalsResponse } },
      },
      async (req) => service.adminList(ctx, { ...pageOf(req.query), status: 'pending' }),
    );

    app.get(
      '/withdrawal/admin/all',
      {
        onRequest: requireRole('read'),
        schema: { querystring: adminWithdrawalsQuery, response: { 200: adminWithdrawalsResponse } },
      },
      async (req) => service.adminList(ctx, { ...pageOf(req.query), status: req.query.status }),
    );

    app.post(
      '/withdrawal/admin/approve',
      {
        onRequest: requireRole('money'),
        schema: { body: approveBody, response: { 200: withdrawalActionResponse, 202: proposalSentResponse } },
        config: { idempotent: true },
      },
      async (req, reply) =>
        twoOrOne(ctx, req, reply, 'withdrawal_approve', req.body, async () => ({
          message: MSG.withdrawalApproved,
          withdrawal: await service.approve(ctx, currentUser(req), req.body, req.ip, req.idempotency),
        })),
    );

    app.post(
      '/withdrawal/admin/reject',
      {
        onRequest: requireRole('money'),
        schema: { body: rejectBody, response: { 200: withdrawalActionResponse } },
        config: { idempotent: true },
      },
      async (req) => ({
        message: MSG.withdrawalRejected,
        withdrawal: await service.reject(ctx, currentUser(req), req.body, req.ip, req.idempotency),
      }),
    );

    // ------------------------------------------------------------ payout batches (a multisig pays them)
    app.get(
      '/withdrawal/admin/batches',
      { onRequest: requireRole('read'), schema: { response: { 200: payoutBatchesResponse } } },
      async () => ({ batches: await batches.listBatches(ctx) }),
    );

    app.post(
      '/withdrawal/admin/batches',
      {
        onRequest: requireRole('money'),
        schema: { body: createBatchBody, response: { 201: payoutBatchResponse } },
        config: { idempotent: true },
      },
      async (req, reply) => {
        const batch = await batches.createBatch(ctx, currentUser(req), req.body, req.ip, req.idempotency);
        return reply.status(201).send({ ...receipt(MSG.batchCreated(batch.withdrawals)), batch });
      },
    );

    app.get(
      '/withdrawal/admin/batches/:id/file',
      { onRequest: requireRole('money'), schema: { params: idParams, querystring: batchFileQuery } },
      async (req, reply) => {
        const file = await batches.batchFile(ctx, currentUser(req), req.params.id, req.query.format, req.ip);
        return reply
          .header('content-type', file.type)
          .header('content-disposition', `attachment; filename="${file.name}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );

    app.post(
      '/withdrawal/admin/batches/:id/cancel',
      {
        onRequest: requireRole('money'),
        schema: { params: idParams, body: cancelBatchBody, response: { 200: payoutBatchResponse } },
      },
      async (req) => {
        const r = await batches.cancelBatch(ctx, currentUser(req), req.params.id, req.body ?? {}, req.ip);
        return { message: r.grace ? MSG.batchCancelledGrace : MSG.batchCancelled, batch: r.batch };
      },
    );

    // ------------------------------------------------------------ payouts the watcher could not settle
    app.get(
      '/withdrawal/admin/payouts',
      { onRequest: requireRole('read'), schema: { response: { 200: foundPayoutsResponse } } },
      async () => ({ payouts: await payouts.foundPayouts(ctx) }),
    );

    app.post(
      '/withdrawal/admin/payouts/:id/assign',
      {
        onRequest: requireRole('money'),
        schema: { params: idParams, body: assignPayoutBody, response: { 200: messageResponse } },
        config: { idempotent: true },
      },
      async (req) => {
        const input = { payoutId: req.params.id, ...req.body };
        await payouts.assignPayout(ctx, currentUser(req), input, req.ip, req.idempotency);
        return { message: MSG.payoutAssigned };
      },
    );

    app.post(
      '/withdrawal/admin/payouts/:id/dismiss',
      { onRequest: requireRole('money'), schema: { params: idParams, response: { 200: messageResponse } } },
      async (req) => {
        await payouts.dismissPayout(ctx, currentUser(req), req.params.id, req.ip);
        return { message: MSG.payoutDismissed };
      },
    );
  };
}
