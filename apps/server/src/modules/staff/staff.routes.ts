import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponse } from '@harvest/shared/schemas/common';
import {
  proposalSentResponse,
  staffInviteBody,
  staffJoinBody,
  staffResponse,
  staffRoleBody,
} from '@harvest/shared/schemas/proposals';
import { idParams } from '@harvest/shared/schemas/user';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { twoOrOne } from '../proposals/proposals.service.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import * as invites from './staff-invites.service.ts';
import * as service from './staff.service.ts';

/** Staff management: the list for every role; invitations, role changes and removal for owners. */
export function staffRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireRole } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/admin/staff',
      { onRequest: requireRole('read'), schema: { response: { 200: staffResponse } } },
      async () => ({ staff: await service.listStaff(ctx) }),
    );

    app.post(
      '/admin/staff/invite',
      {
        onRequest: requireRole('staff'),
        schema: { body: staffInviteBody, response: { 200: messageResponse, 202: proposalSentResponse } },
      },
      async (req, reply) =>
        twoOrOne(ctx, req, reply, 'staff_invite', req.body, () =>
          invites.invite(ctx, currentUser(req), req.body, req.ip),
        ),
    );

    // The e-mailed link's page: public, the link's secret is the credential.
    app.post(
      '/security/staff-invite',
      { config: perIp(20, 15), schema: { body: staffJoinBody, response: { 200: messageResponse } } },
      async (req) => invites.join(ctx, req.body.token, req.body.password),
    );

    app.put(
      '/admin/staff/:id/role',
      {
        onRequest: requireRole('staff'),
        schema: {
          params: idParams,
          body: staffRoleBody,
          response: { 200: messageResponse, 202: proposalSentResponse },
        },
      },
      async (req, reply) =>
        twoOrOne(ctx, req, reply, 'staff_role', { userId: req.params.id, role: req.body.role }, () =>
          service.changeRole(ctx, currentUser(req), req.params.id, req.body.role, req.ip),
        ),
    );
  };
}
