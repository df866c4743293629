import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MSG } from '@harvest/shared/messages';
import { authResponse } from '@harvest/shared/schemas/auth';
import { messageResponse } from '@harvest/shared/schemas/common';
import {
  addPasskeyBody,
  addPasskeyResponse,
  passkeySignInBody,
  passkeysResponse,
  registrationOptionsBody,
  removePasskeyBody,
  webauthnOptionsResponse,
} from '@harvest/shared/schemas/passkeys';
import { stepUpBody } from '@harvest/shared/schemas/step-up';
import { idParams } from '@harvest/shared/schemas/user';
import type { AppContext } from '../../context.ts';
import { authHooks, currentClient, currentUser } from '../../plugins/auth.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import { proposalStepUpPayload } from '../proposals/proposals.service.ts';
import { userView } from '../users/users.dto.ts';
import { withdrawAllPayload } from '../withdrawals/withdrawals.service.ts';
import * as service from './passkeys.service.ts';
import { stepUpOptions } from './step-up.ts';

const signInClient = (req: FastifyRequest, deviceId: string | undefined) => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'],
  deviceId,
});

/** Passkeys: Profile's list, registering and removing one, signing in with one, and step-up challenges. */
export function passkeyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/passkeys',
      { onRequest: requireUser, schema: { response: { 200: passkeysResponse } } },
      async (req) => service.listPasskeys(ctx, currentUser(req)),
    );

    app.post(
      '/user/passkeys/registration-options',
      {
        onRequest: requireUser,
        config: perIp(20, 15),
        schema: { body: registrationOptionsBody, response: { 200: webauthnOptionsResponse } },
      },
      async (req) => ({
        options: { ...(await service.registrationOptions(ctx, currentUser(req), currentClient(req), req.body)) },
      }),
    );

    app.post(
      '/user/passkeys',
      {
        onRequest: requireUser,
        config: perIp(20, 15),
        schema: { body: addPasskeyBody, response: { 201: addPasskeyResponse } },
      },
      async (req, reply) => {
        const passkey = await service.addPasskey(ctx, currentUser(req), currentClient(req), req.body);
        return reply.status(201).send({ message: MSG.passkeyAdded, passkey });
      },
    );

    app.post(
      '/user/passkeys/:id/remove',
      {
        onRequest: requireUser,
        config: perIp(10, 15),
        schema: { params: idParams, body: removePasskeyBody, response: { 200: messageResponse } },
      },
      async (req) => {
        await service.removePasskey(ctx, currentUser(req), currentClient(req), req.params.id, req.body);
        return { message: MSG.passkeyRemoved };
      },
    );

    app.post(
      '/passkey-login/options',
      { config: perIp(30, 15), schema: { response: { 200: webauthnOptionsResponse } } },
      async () => ({ options: { ...(await service.signInOptions(ctx)) } }),
    );

    app.post(
      '/passkey-login',
      { config: perIp(30, 15), schema: { body: passkeySignInBody, response: { 200: authResponse } } },
      async (req) => {
        const { token, user } = await service.signInWithPasskey(
          ctx,
          req.body.response,
          signInClient(req, req.body.deviceId),
        );
        return { token, user: await userView(ctx, user) };
      },
    );

    app.post(
      '/user/step-up',
      {
        onRequest: requireUser,
        config: perIp(30, 15),
        schema: { body: stepUpBody, response: { 200: webauthnOptionsResponse } },
      },
      async (req) => {
        const user = currentUser(req);
        const b = req.body;
        const payload =
          b.purpose === 'withdraw_all'
            ? await withdrawAllPayload(ctx, user, b.walletAddress)
            : b.purpose === 'add_address'
              ? { address: b.address }
              : b.purpose === 'approve_proposal'
                ? await proposalStepUpPayload(ctx, user, b.proposalId)
                : { enabled: false };
        return { options: { ...(await stepUpOptions(ctx, user, b.purpose, payload)) } };
      },
    );
  };
}
