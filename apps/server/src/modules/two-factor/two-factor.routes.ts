import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  twoFactorDisableBody,
  twoFactorDisableResponse,
  twoFactorEnableBody,
  twoFactorEnableResponse,
  twoFactorSetupBody,
  twoFactorSetupResponse,
} from '@harvest/shared/schemas/two-factor';
import type { AppContext } from '../../context.ts';
import { authHooks, currentClient, currentUser } from '../../plugins/auth.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import * as service from './two-factor.service.ts';

export function twoFactorRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.post(
      '/user/2fa/setup',
      {
        onRequest: requireUser,
        config: perIp(10, 15),
        schema: { body: twoFactorSetupBody, response: { 200: twoFactorSetupResponse } },
      },
      async (req) => service.setup(ctx, currentUser(req), req.body.password, req.ip),
    );
    app.post(
      '/user/2fa/enable',
      {
        onRequest: requireUser,
        config: perIp(10, 15),
        schema: { body: twoFactorEnableBody, response: { 200: twoFactorEnableResponse } },
      },
      async (req) => service.enable(ctx, currentUser(req), req.body, currentClient(req)),
    );
    app.post(
      '/user/2fa/disable',
      {
        onRequest: requireUser,
        config: perIp(10, 15),
        schema: { body: twoFactorDisableBody, response: { 200: twoFactorDisableResponse } },
      },
      async (req) => service.disable(ctx, currentUser(req), req.body, currentClient(req)),
    );
  };
}
