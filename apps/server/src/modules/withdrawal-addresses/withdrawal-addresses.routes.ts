import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MSG } from '@harvest/shared/messages';
import { receipt } from '@harvest/shared/said';
import { messageResponse } from '@harvest/shared/schemas/common';
import {
  accountPageQuery,
  addWithdrawalAddressBody,
  addWithdrawalAddressResponse,
  linkTokenBody,
  proofMessageBody,
  proofMessageResponse,
  withdrawalAddressesResponse,
  withdrawalLockBody,
  withdrawalLockResponse,
} from '@harvest/shared/schemas/security';
import { idParams } from '@harvest/shared/schemas/user';
import type { AppContext } from '../../context.ts';
import { authHooks, currentClient, currentUser } from '../../plugins/auth.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import * as service from './withdrawal-addresses.service.ts';
import { proofMessage } from './address-proof.ts';

/** The withdrawal address book and its lock. */
export function withdrawalAddressRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/withdrawal-addresses',
      {
        onRequest: requireUser,
        schema: { querystring: accountPageQuery, response: { 200: withdrawalAddressesResponse } },
      },
      async (req) => service.listAddresses(ctx, currentUser(req), req.query),
    );

    app.post(
      '/user/withdrawal-addresses',
      {
        onRequest: requireUser,
        config: perIp(20, 15),
        schema: { body: addWithdrawalAddressBody, response: { 201: addWithdrawalAddressResponse } },
      },
      async (req, reply) => {
        const address = await service.addAddress(ctx, currentUser(req), currentClient(req), req.body);
        const hours = ctx.config.WITHDRAWAL_ADDRESS_COOLDOWN_HOURS;
        return reply
          .status(201)
          .send({ ...receipt((address.proven ? MSG.addressAddedProven : MSG.addressAdded)(hours)), address });
      },
    );

    app.post(
      '/user/withdrawal-addresses/proof-message',
      {
        onRequest: requireUser,
        config: perIp(30, 15),
        schema: { body: proofMessageBody, response: { 200: proofMessageResponse } },
      },
      async (req) => ({ message: await proofMessage(ctx, currentUser(req), req.body.address) }),
    );

    app.post(
      '/user/withdrawal-addresses/confirm',
      {
        onRequest: requireUser,
        config: perIp(30, 15),
        schema: { body: linkTokenBody, response: { 200: addWithdrawalAddressResponse } },
      },
      async (req) => ({
        message: MSG.addressConfirmed,
        address: await service.confirmAddress(ctx, currentUser(req), currentClient(req), req.body.token),
      }),
    );

    app.delete(
      '/user/withdrawal-addresses/:id',
      { onRequest: requireUser, schema: { params: idParams, response: { 200: messageResponse } } },
      async (req) => {
        await service.removeAddress(ctx, currentUser(req), currentClient(req), req.params.id);
        return { message: MSG.addressRemoved };
      },
    );

    app.put(
      '/user/withdrawal-lock',
      {
        onRequest: requireUser,
        config: perIp(20, 15),
        schema: { body: withdrawalLockBody, response: { 200: withdrawalLockResponse } },
      },
      async (req) => service.setWithdrawalLock(ctx, currentUser(req), currentClient(req), req.body),
    );

    app.post(
      '/user/withdrawal-lock/confirm',
      {
        onRequest: requireUser,
        config: perIp(30, 15),
        schema: { body: linkTokenBody, response: { 200: withdrawalLockResponse } },
      },
      async (req) => service.confirmLockOff(ctx, currentUser(req), currentClient(req), req.body.token),
    );
  };
}
