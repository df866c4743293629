import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  porHistoryResponse,
  porIdParams,
  porProofQuery,
  porProofSchema,
  porReservesResponse,
  porSignaturesBody,
  porSnapshotSchema,
} from '@harvest/shared/schemas/proof-of-reserves';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import * as service from './por.service.ts';

/** Shared caches may keep an answer a minute: a snapshot's figures change only when signatures are uploaded. */
const LATEST = 'public, max-age=60';
/** Snapshots the back office lists, newest first. */
const ADMIN_LIST = 100;

/** Proof of reserves: public snapshots (no sign-in), an investor's own proof, an administrator's snapshot and signatures. */
export function porRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireRole, requireUser } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/proof-of-reserves',
      { config: perIp(120, 1), schema: { response: { 200: porSnapshotSchema } } },
      async (_req, reply) => {
        const s = await service.snapshot(ctx);
        return reply.header('cache-control', LATEST).send(s);
      },
    );
    app.get(
      '/proof-of-reserves/history',
      { config: perIp(120, 1), schema: { response: { 200: porHistoryResponse } } },
      async (_req, reply) => {
        const snapshots = await service.history(ctx);
        return reply.header('cache-control', LATEST).send({ snapshots });
      },
    );
    app.get(
      '/proof-of-reserves/:id',
      { config: perIp(120, 1), schema: { params: porIdParams, response: { 200: porSnapshotSchema } } },
      async (req, reply) => {
        const s = await service.snapshot(ctx, req.params.id);
        return reply.header('cache-control', LATEST).send(s);
      },
    );
    app.get(
      '/proof-of-reserves/:id/reserves',
      { config: perIp(120, 1), schema: { params: porIdParams, response: { 200: porReservesResponse } } },
      async (req, reply) => {
        const r = await service.reserves(ctx, req.params.id);
        return reply.header('cache-control', LATEST).send(r);
      },
    );
    app.get(
      '/user/proof-of-reserves/proof',
      { onRequest: requireUser, schema: { querystring: porProofQuery, response: { 200: porProofSchema } } },
      async (req, reply) => {
        const proof = await service.proofFor(ctx, currentUser(req).id, req.query.id);
        return reply.header('cache-control', 'private, no-store').send(proof);
      },
    );
    // The back office's reads: never cached, so counted reserves show at once after an upload.
    app.get(
      '/admin/proof-of-reserves/snapshots',
      { onRequest: requireRole('read'), schema: { response: { 200: porHistoryResponse } } },
      async (_req, reply) => {
        const snapshots = (await service.history(ctx, ADMIN_LIST)).reverse();
        return reply.header('cache-control', 'private, no-store').send({ snapshots });
      },
    );
    app.get(
      '/admin/proof-of-reserves/:id/reserves',
      { onRequest: requireRole('read'), schema: { params: porIdParams, response: { 200: porReservesResponse } } },
      async (req, reply) => {
        const r = await service.reserves(ctx, req.params.id);
        return reply.header('cache-control', 'private, no-store').send(r);
      },
    );
    app.post(
      '/admin/proof-of-reserves/snapshots',
      { onRequest: requireRole('money'), schema: { response: { 200: porSnapshotSchema } } },
      async (req) => service.adminSnapshot(ctx, currentUser(req), req.ip),
    );
    app.post(
      '/admin/proof-of-reserves/:id/signatures',
      {
        onRequest: requireRole('money'),
        schema: { params: porIdParams, body: porSignaturesBody, response: { 200: porReservesResponse } },
      },
      async (req) => service.uploadSignatures(ctx, currentUser(req), req.params.id, req.body.signatures, req.ip),
    );
  };
}
