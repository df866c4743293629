import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MSG } from '@harvest/shared/messages';
import { messageResponse } from '@harvest/shared/schemas/common';
import {
  idParams,
  invitationResponse,
  meResponse,
  preferencesBody,
  preferencesResponse,
  profileBody,
  profileResponse,
  toggleBlockResponse,
  updateEmailBody,
  updateEmailResponse,
  withdrawalPasswordBody,
} from '@harvest/shared/schemas/user';
import type { AppContext } from '../../context.ts';
import { authHooks, currentClient, currentUser } from '../../plugins/auth.ts';
import { signOut } from '../sessions/sessions.service.ts';
import { userView } from './users.dto.ts';
import * as service from './users.service.ts';

export function userRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser, requireSession, requireRole } = authHooks(ctx);
  /** The public shape of a users row. */
  const dto = (u: Parameters<typeof userView>[1]) => userView(ctx, u);

  return async (app) => {
    const platform = {
      timeZone: ctx.config.PLATFORM_TIMEZONE,
      demoDeposits: !ctx.chain,
      ...(ctx.config.EXPLORER_URL ? { explorerUrl: ctx.config.EXPLORER_URL } : {}),
    };
    app.get('/user/me', { onRequest: requireUser, schema: { response: { 200: meResponse } } }, async (req) => ({
      user: await dto(currentUser(req)),
      platform,
    }));

    app.put(
      '/user/profile',
      {
        onRequest: requireUser,
        schema: { body: profileBody, response: { 200: profileResponse } },
      },
      async (req) => {
        const { user, token } = await service.updateProfile(
          ctx,
          currentUser(req),
          req.body,
          currentClient(req),
          req.sessionMfa,
        );
        return { user: await dto(user), ...(token ? { token } : {}) };
      },
    );

    app.put(
      '/user/withdrawal-password',
      { onRequest: requireUser, schema: { body: withdrawalPasswordBody, response: { 200: messageResponse } } },
      async (req) => {
        await service.changeWithdrawalPassword(ctx, currentUser(req), req.body, currentClient(req));
        return { message: MSG.withdrawalPasswordChanged };
      },
    );

    app.put(
      '/user/preferences',
      { onRequest: requireUser, schema: { body: preferencesBody, response: { 200: preferencesResponse } } },
      async (req) => ({ user: await dto(await service.updatePreferences(ctx, currentUser(req), req.body)) }),
    );

    app.put(
      '/user/admin/update-email',
      {
        onRequest: requireRole('read'),
        schema: { body: updateEmailBody, response: { 200: updateEmailResponse } },
      },
      async (req) => {
        const user = await service.updateEmail(ctx, currentUser(req), req.body, req.ip);
        return { message: MSG.emailUpdated, user: await dto(user) };
      },
    );

    app.post(
      '/user/generate-invitation',
      { onRequest: requireUser, schema: { response: { 200: invitationResponse } } },
      async (req) => ({
        code: await service.invitationCode(ctx, currentUser(req)),
      }),
    );

    app.post(
      '/user/logout',
      { onRequest: requireSession, schema: { response: { 200: messageResponse } } },
      async (req) => {
        // This session only: the account's other devices stay signed in.
        await signOut(ctx, currentUser(req), req.session?.id ?? null, req.ip);
        return { message: MSG.signedOut };
      },
    );

    app.post(
      '/user/admin/toggle-block/:id',
      { onRequest: requireRole('support'), schema: { params: idParams, response: { 200: toggleBlockResponse } } },
      async (req) => {
        const user = await service.toggleBlock(ctx, currentUser(req), req.params.id, req.ip);
        return { message: user.isBlocked ? MSG.userBlocked : MSG.userUnblocked, user: await dto(user) };
      },
    );
  };
}
