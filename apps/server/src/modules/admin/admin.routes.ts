import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import {
  adminDashboardResponse,
  adminReferralLookupResponse,
  adminUserDepositsResponse,
  adminUsersQuery,
  adminUsersResponse,
  analyticsQuery,
  analyticsResponse,
  auditQuery,
  auditResponse,
  csvResponse,
  depositStatusFilter,
  usersExportQuery,
  withdrawalStatusFilter,
} from '@harvest/shared/schemas/admin';
import { messageResponse, pageQuery } from '@harvest/shared/schemas/common';
import { MSG } from '@harvest/shared/messages';
import { receipt } from '@harvest/shared/said';
import {
  accountPageQuery,
  adminSessionsResponse,
  adminWithdrawalAddressesResponse,
  freezeWithdrawalsBody,
} from '@harvest/shared/schemas/security';
import { idParams } from '@harvest/shared/schemas/user';
import { proposalSentResponse } from '@harvest/shared/schemas/proposals';
import type { AppContext } from '../../context.ts';
import { twoOrOne } from '../proposals/proposals.service.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import * as security from './admin-security.service.ts';
import * as service from './admin.service.ts';
import * as csvExports from './exports.service.ts';

/**
 * Back-office reads across areas (admin actions on one area stay in that area's module). Every route sits
 * behind requireRole in onRequest, so a non-admin or a role without the ability is refused before the request is even parsed.
 */
export function adminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireRole } = authHooks(ctx);

  function sendCsv(reply: FastifyReply, name: string, stream: Readable) {
    const stamp = ctx.clock.now().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}-${stamp}.csv"`)
      .header('cache-control', 'no-store')
      .send(stream);
  }

  return async (app) => {
    app.get(
      '/admin/dashboard',
      { onRequest: requireRole('read'), schema: { response: { 200: adminDashboardResponse } } },
      async () => service.dashboard(ctx),
    );

    app.get(
      '/user/admin/analytics',
      { onRequest: requireRole('read'), schema: { querystring: analyticsQuery, response: { 200: analyticsResponse } } },
      async (req) => service.analytics(ctx, req.query.period),
    );

    app.get(
      '/admin/users',
      {
        onRequest: requireRole('read'),
        schema: { querystring: adminUsersQuery, response: { 200: adminUsersResponse } },
      },
      async (req) => service.users(ctx, req.query),
    );

    app.get(
      '/admin/users/:id/deposits',
      {
        onRequest: requireRole('read'),
        schema: { params: idParams, querystring: pageQuery, response: { 200: adminUserDepositsResponse } },
      },
      async (req) => service.userDeposits(ctx, req.params.id, req.query),
    );

    app.get(
      '/admin/users/:id/referral-tree',
      { onRequest: requireRole('read'), schema: { params: idParams, response: { 200: adminReferralLookupResponse } } },
      async (req) => service.referralLookup(ctx, req.params.id),
    );

    // ------------------------------------------------------------ a user's sessions and address book
    app.get(
      '/admin/users/:id/sessions',
      {
        onRequest: requireRole('read'),
        schema: { params: idParams, querystring: accountPageQuery, response: { 200: adminSessionsResponse } },
      },
      async (req) => security.userSessions(ctx, req.params.id, req.query),
    );

    app.get(
      '/admin/users/:id/withdrawal-addresses',
      {
        onRequest: requireRole('read'),
        schema: {
          params: idParams,
          querystring: accountPageQuery,
          response: { 200: adminWithdrawalAddressesResponse },
        },
      },
      async (req) => security.userAddresses(ctx, req.params.id, req.query),
    );

    app.post(
      '/admin/users/:id/revoke-sessions',
      { onRequest: requireRole('support'), schema: { params: idParams, response: { 200: messageResponse } } },
      async (req) =>
        receipt(
          MSG.adminSessionsRevoked(await security.revokeUserSessions(ctx, currentUser(req), req.params.id, req.ip)),
        ),
    );

    app.put(
      '/admin/users/:id/withdrawals-frozen',
      {
        onRequest: requireRole('support'),
        schema: {
          params: idParams,
          body: freezeWithdrawalsBody,
          response: { 200: messageResponse, 202: proposalSentResponse },
        },
      },
      async (req, reply) => {
        const set = async () => {
          await security.setWithdrawalsFrozen(ctx, currentUser(req), req.params.id, req.body, req.ip);
          return { message: req.body.frozen ? MSG.adminWithdrawalsFrozen : MSG.adminWithdrawalsUnfrozen };
        };
        // Freezing stops money: one person may do it at once. Lifting it is a second person's decision.
        if (req.body.frozen) return set();
        return twoOrOne(ctx, req, reply, 'withdrawals_unfreeze', { userId: req.params.id, note: req.body.note }, set);
      },
    );

    app.get(
      '/admin/audit',
      { onRequest: requireRole('read'), schema: { querystring: auditQuery, response: { 200: auditResponse } } },
      async (req) => service.audit(ctx, req.query),
    );

    app.get(
      '/admin/export/deposits.csv',
      { onRequest: requireRole('read'), schema: { querystring: depositStatusFilter, response: { 200: csvResponse } } },
      async (req, reply) =>
        sendCsv(reply, 'deposits', await csvExports.depositsCsv(ctx, currentUser(req), req.query.status, req.ip)),
    );

    app.get(
      '/admin/export/withdrawals.csv',
      {
        onRequest: requireRole('read'),
        schema: { querystring: withdrawalStatusFilter, response: { 200: csvResponse } },
      },
      async (req, reply) =>
        sendCsv(reply, 'withdrawals', await csvExports.withdrawalsCsv(ctx, currentUser(req), req.query.status, req.ip)),
    );

    app.get(
      '/admin/export/users.csv',
      { onRequest: requireRole('read'), schema: { querystring: usersExportQuery, response: { 200: csvResponse } } },
      async (req, reply) =>
        sendCsv(reply, 'users', await csvExports.usersCsv(ctx, currentUser(req), req.query.search, req.ip)),
    );
  };
}
