import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponse } from '@harvest/shared/schemas/common';
import { approveProposalBody, proposalsResponse, rejectProposalBody } from '@harvest/shared/schemas/proposals';
import { idParams } from '@harvest/shared/schemas/user';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import * as service from './proposals.service.ts';

/** The Approvals tab: open four-eyes proposals, and a second staff member's approval or rejection. */
export function proposalRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireRole } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/admin/proposals',
      { onRequest: requireRole('read'), schema: { response: { 200: proposalsResponse } } },
      async () => service.listOpen(ctx),
    );

    app.post(
      '/admin/proposals/:id/approve',
      {
        onRequest: requireRole('approve'),
        schema: { params: idParams, body: approveProposalBody, response: { 200: messageResponse } },
      },
      async (req) => service.approve(ctx, currentUser(req), req.params.id, req.ip, req.body?.passkey),
    );

    app.post(
      '/admin/proposals/:id/reject',
      {
        onRequest: requireRole('approve'),
        schema: { params: idParams, body: rejectProposalBody, response: { 200: messageResponse } },
      },
      async (req) => service.reject(ctx, currentUser(req), req.params.id, req.body?.reason, req.ip),
    );
  };
}
