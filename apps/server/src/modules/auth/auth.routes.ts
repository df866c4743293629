import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authResponse, loginBody, registerBody, sendCodeBody } from '@harvest/shared/schemas/auth';
import { messageResponse } from '@harvest/shared/schemas/common';
import type { AppContext } from '../../context.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import { userView } from '../users/users.dto.ts';
import * as service from './auth.service.ts';

const signInClient = (req: FastifyRequest, deviceId: string | undefined) => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'],
  deviceId,
});

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const dto = (u: Parameters<typeof userView>[1]) => userView(ctx, u);

  return async (app) => {
    app.post(
      '/send-code',
      { schema: { body: sendCodeBody, response: { 200: messageResponse } }, config: perIp(10, 10) },
      async (req) => ({
        message: await service.sendCode(ctx, req.body.email),
      }),
    );

    app.post(
      '/register',
      { schema: { body: registerBody, response: { 200: authResponse } }, config: perIp(20, 15) },
      async (req) => {
        const { token, user } = await service.register(ctx, req.body, signInClient(req, req.body.deviceId));
        return { token, user: await dto(user) };
      },
    );

    app.post(
      '/login',
      { schema: { body: loginBody, response: { 200: authResponse } }, config: perIp(30, 15) },
      async (req) => {
        const { token, user } = await service.login(ctx, req.body, signInClient(req, req.body.deviceId));
        return { token, user: await dto(user) };
      },
    );
  };
}
