import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MSG } from '@harvest/shared/messages';
import { AppError } from '../lib/errors.ts';

/**
 * The one place errors become responses: `{ "error": text }` with the fitting status.
 * Known errors keep their text; every 5xx is logged and answered with a generic text,
 * so no stack trace or SQL reaches a client.
 */
export function registerErrorHandler(app: FastifyInstance, spaIndexHtml?: string): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.statusCode).headers(err.headers).send({ error: err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      // A path id of the wrong shape names nothing: not found, like someone else's id.
      if (err.validationContext === 'params') return reply.status(404).send({ error: MSG.notFound });
      const first = err.validation[0];
      return reply.status(400).send({ error: first?.message ?? 'Invalid request' });
    }
    const status = err.statusCode ?? 500;
    if (status === 413) return reply.status(413).send({ error: MSG.payloadTooLarge });
    if (status === 429) return reply.status(429).send({ error: MSG.tooManyRequests });
    if (status >= 400 && status < 500) {
      const text =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code?.startsWith('FST_ERR_CTP')
          ? 'Invalid request body'
          : err.message;
      return reply.status(status).send({ error: text });
    }
    request.log.error({ err }, 'request failed');
    return reply.status(500).send({ error: MSG.internal });
  });

  // Unknown API paths are 404 JSON; any other page path gets the SPA, which routes it.
  app.setNotFoundHandler((request, reply) => {
    const pathOnly = request.url.split('?')[0] ?? '';
    if (spaIndexHtml && request.method === 'GET' && !pathOnly.startsWith('/api') && !/\.[a-z0-9]+$/i.test(pathOnly)) {
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(spaIndexHtml);
    }
    return reply.status(404).send({ error: MSG.notFound });
  });
}
