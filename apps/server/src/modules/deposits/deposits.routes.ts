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
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { watcherReadiness } from './deposit-watcher.ts';
import * as admin from './deposits.admin.ts';
import * as service from './deposits.service.ts';

export function depositRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser, requireAdmin } = authHooks(ctx);

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
        onRequest: requireAdmin,
        schema: { querystring: adminDepositsQuery, response: { 200: adminDepositsResponse } },
      },
      async (req) => admin.adminDeposits(ctx, req.query),
    );

    app.post(
      '/admin/process-deposit',
      {
        onRequest: requireAdmin,
        schema: { body: adminProcessDepositBody, response: { 200: adminProcessDepositResponse } },
        config: { idempotent: true },
      },
      async (req) => admin.approveDeposit(ctx, currentUser(req), req.body.depositId, req.ip, req.idempotency),
    );

    app.post(
      '/admin/reject-deposit',
      {
        onRequest: requireAdmin,
        schema: { body: adminRejectDepositBody, response: { 200: adminProcessDepositResponse } },
        config: { idempotent: true },
      },
      async (req) => admin.rejectDeposit(ctx, currentUser(req), req.body, req.ip, req.idempotency),
    );

    app.post(
      '/admin/update-user-balance',
      {
        onRequest: requireAdmin,
        schema: { body: updateUserBalanceBody, response: { 200: messageResponse } },
        config: { idempotent: true },
      },
      async (req) => admin.updateUserBalance(ctx, currentUser(req), req.body, req.ip, req.idempotency),
    );
  };
}
