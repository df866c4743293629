import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authResponse, loginBody, registerBody, sendCodeBody } from '@harvest/shared/schemas/auth';
import { messageResponse } from '@harvest/shared/schemas/common';
import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../../context.ts';
import { FailureThrottle } from '../../lib/throttle.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import { toUserDto } from '../users/users.dto.ts';
import * as service from './auth.service.ts';

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // Wrong passwords per account: 10 per 15 minutes, whatever IP they come from.
  const loginFailures = new FailureThrottle('login', 10, 15 * 60_000, ctx.counters, ctx.config.rateLimits);
  const dto = (u: Parameters<typeof toUserDto>[0]) => toUserDto(u, ctx.config.DEPOSIT_ADDRESS);

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
        const { token, user } = await service.register(ctx, req.body);
        return { token, user: dto(user) };
      },
    );

    app.post(
      '/login',
      { schema: { body: loginBody, response: { 200: authResponse } }, config: perIp(30, 15) },
      async (req) => {
        const key = req.body.email;
        await loginFailures.check(key);
        try {
          const { token, user } = await service.login(ctx, req.body.email, req.body.password, req.body.totpCode);
          await loginFailures.reset(key);
          return { token, user: dto(user) };
        } catch (err) {
          // Wrong passwords and wrong second-factor codes count; a missing code does not.
          if (err instanceof Error && 'statusCode' in err && err.statusCode === 401 && err.message !== MSG.totpRequired)
            await loginFailures.fail(key);
          throw err;
        }
      },
    );
  };
}
