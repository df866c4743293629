import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MSG } from '@harvest/shared/messages';
import { receipt } from '@harvest/shared/said';
import { messageResponse } from '@harvest/shared/schemas/common';
import { accountPageQuery, sessionsResponse } from '@harvest/shared/schemas/security';
import { idParams } from '@harvest/shared/schemas/user';
import type { AppContext } from '../../context.ts';
import { authHooks, currentClient, currentUser } from '../../plugins/auth.ts';
import * as service from './sessions.service.ts';

/** The caller's sessions: the list (Profile), "Sign out" of one, "Sign out all others". */
export function sessionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/sessions',
      { onRequest: requireUser, schema: { querystring: accountPageQuery, response: { 200: sessionsResponse } } },
      async (req) => service.listSessions(ctx, currentUser(req), currentClient(req), req.query),
    );

    app.delete(
      '/user/sessions/:id',
      { onRequest: requireUser, schema: { params: idParams, response: { 200: messageResponse } } },
      async (req) => {
        await service.revokeOne(ctx, currentUser(req), currentClient(req), req.params.id);
        return { message: MSG.sessionRevoked };
      },
    );

    app.post(
      '/user/sessions/revoke-others',
      { onRequest: requireUser, schema: { response: { 200: messageResponse } } },
      async (req) =>
        receipt(MSG.sessionsRevoked(await service.revokeOthers(ctx, currentUser(req), currentClient(req)))),
    );
  };
}
