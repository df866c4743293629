import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponse } from '@harvest/shared/schemas/common';
import {
  adminDepositsQuery,
  adminDepositsResponse,
  adminProcessDepositBody,
  adminProcessDepositResponse,
  adminRejectDepositBody,
  depositResultResponse,
  depositsResponse,
  dismissFailedDepositBody,
  processDepositBody,
  updateFailedDepositBody,
  updateUserBalanceBody,
} from '@harvest/shared/schemas/deposits';
import { depositSettingsResponse } from '@harvest/shared/schemas/deposit-settings';
import { proposalSentResponse } from '@harvest/shared/schemas/proposals';
import type { AppContext } from '../../context.ts';
import { twoOrOne } from '../proposals/proposals.service.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { watcherReadiness } from './deposit-watcher.ts';
import * as admin from './deposits.admin.ts';
import * as service from './deposits.service.ts';

export function depositRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser, requireRole } = authHooks(ctx);

  if (ctx.chain && ctx.config.DEPOSIT_XPUB) ctx.readiness.push(watcherReadiness);
  return async (app) => {
    app.post(
      '/user/process-deposit',
      {
        onRequest: requireUser,
        schema: { body: processDepositBody, response: { 200: depositResultResponse } },
        config: { idempotent: true },
      },
      async (req) => service.submitDeposit(ctx, currentUser(req), req.body, req.idempotency),
    );

    app.get(
      '/user/deposit-settings',
      { onRequest: requireUser, schema: { response: { 200: depositSettingsResponse } } },
      async () => ({
        ownAddress: Boolean(ctx.config.DEPOSIT_XPUB),
        chainId: ctx.config.CHAIN_ID,
        usdcContract: ctx.chain ? (ctx.config.USDC_CONTRACTS[0] ?? null) : null,
        requiredConfirmations: ctx.config.DEPOSIT_CONFIRMATIONS,
      }),
    );

    app.get(
      '/user/deposit-history',
      { onRequest: requireUser, schema: { response: { 200: depositsResponse } } },
      async (req) => ({
        deposits: await service.depositHistory(ctx, currentUser(req)),
      }),
    );

    app.get(
      '/withdrawal/failed-deposits',
      { onRequest: requireUser, schema: { response: { 200: depositsResponse } } },
      async (req) => ({
        deposits: await service.failedDeposits(ctx, currentUser(req)),
      }),
    );

    app.post(
      '/withdrawal/update-failed-deposit',
      {
        onRequest: requireUser,
        schema: { body: updateFailedDepositBody, response: { 200: depositResultResponse } },
        config: { idempotent: true },
      },
      async (req) => service.updateFailedDeposit(ctx, currentUser(req), req.body, req.idempotency),
    );

    app.post(
      '/withdrawal/dismiss-failed-deposit',
      {
        onRequest: requireUser,
        schema: { body: dismissFailedDepositBody, response: { 200: depositResultResponse } },
        config: { idempotent: true },
      },
      async (req) => service.dismissFailedDeposit(ctx, currentUser(req), req.body.depositId, req.idempotency),
    );

    app.get(
      '/admin/deposits',
      {
        onRequest: requireRole('read'),
        schema: { querystring: adminDepositsQuery, response: { 200: adminDepositsResponse } },
      },
      async (req) => admin.adminDeposits(ctx, req.query),
    );

    app.post(
      '/admin/process-deposit',
      {
        onRequest: requireRole('money'),
        schema: {
          body: adminProcessDepositBody,
          response: { 200: adminProcessDepositResponse, 202: proposalSentResponse },
        },
        config: { idempotent: true },
      },
      async (req, reply) =>
        twoOrOne(ctx, req, reply, 'deposit_approve', { depositId: req.body.depositId }, () =>
          admin.approveDeposit(ctx, currentUser(req), req.body.depositId, req.ip, req.idempotency),
        ),
    );

    app.post(
      '/admin/reject-deposit',
      {
        onRequest: requireRole('money'),
        schema: { body: adminRejectDepositBody, response: { 200: adminProcessDepositResponse } },
        config: { idempotent: true },
      },
      async (req) => admin.rejectDeposit(ctx, currentUser(req), req.body, req.ip, req.idempotency),
    );

    app.post(
      '/admin/update-user-balance',
      {
        onRequest: requireRole('money'),
        schema: { body: updateUserBalanceBody, response: { 200: messageResponse, 202: proposalSentResponse } },
        config: { idempotent: true },
      },
      async (req, reply) =>
        twoOrOne(
          ctx,
          req,
          reply,
          'balance_update',
          {
            userId: req.body.userId,
            newBalance: req.body.newBalance.toString(),
            note: req.body.note,
            expectedBalance: req.body.expectedBalance?.toString(),
          },
          () => admin.updateUserBalance(ctx, currentUser(req), req.body, req.ip, req.idempotency),
        ),
    );
  };
}
