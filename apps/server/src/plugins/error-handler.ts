import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_STATUS, type ErrorCode } from '@harvest/shared/errors';
import * as z from 'zod/mini';
import { errorResponse, paramsSchema } from '@harvest/shared/schemas/common';
import { MSG } from '@harvest/shared/messages';
import { AppError } from '../lib/errors.ts';

/** The closest code for an error Fastify itself raised with this status (bad JSON, wrong media type...). */
function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 408:
      return 'request_timeout';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    default:
      return 'validation';
  }
}

/** What a schema's check with values (atMost) puts in its issue: the text's template and values. */
const issueSaid = z.object({ template: z.string(), params: paramsSchema });

/**
 * The one place errors become responses: `{ "error": text, "code": stable-code }` with the
 * status the code stands for (ERROR_STATUS in the shared package), plus `field` when it is about one
 * property of the body, and `template` and `params` when the text has values. Known errors keep their text; every 5xx is logged and answered with
 * a generic text, so no stack trace or SQL reaches a client.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  // Every API route answers errors in the one shape; the OpenAPI document shows it (and the codes).
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || route.schema?.hide) return;
    route.schema = {
      ...route.schema,
      response: { '4XX': errorResponse, '5XX': errorResponse, ...(route.schema?.response ?? {}) },
    };
  });
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      const { template, params, field } = err;
      return reply
        .status(err.statusCode)
        .headers(err.headers)
        .send({ error: err.message, code: err.code, ...(field && { field }), ...(template && { template, params }) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      // A path id of the wrong shape names nothing: not found, like someone else's id.
      if (err.validationContext === 'params') return reply.status(404).send({ error: MSG.notFound, code: 'not_found' });
      const first = err.validation[0];
      const values = z.safeParse(issueSaid, first?.params.params);
      return reply
        .status(400)
        .send({ error: first?.message ?? MSG.invalidRequest, code: 'validation', ...(values.success && values.data) });
    }
    const status = err.statusCode ?? 500;
    if (status === 413) return reply.status(413).send({ error: MSG.payloadTooLarge, code: 'payload_too_large' });
    if (status === 429) return reply.status(429).send({ error: MSG.tooManyRequests, code: 'rate_limited' });
    if (status >= 400 && status < 500) {
      const text = err.code?.startsWith('FST_ERR_CTP') ? MSG.invalidRequestBody : err.message;
      const code = codeForStatus(status);
      return reply.status(ERROR_STATUS[code]).send({ error: text, code });
    }
    // A failed query is logged with its SQL and the driver's error, not its parameters (user input, data).
    request.log.error(
      err instanceof DrizzleQueryError ? { query: err.query, err: err.cause } : { err },
      'request failed',
    );
    return reply.status(500).send({ error: MSG.internal, code: 'internal' });
  });
}

/** Unknown API paths: 404 JSON. */
export function apiNotFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.status(404).send({ error: MSG.notFound, code: 'not_found' });
}

/** Any other unknown path: the SPA, which routes it, for a page; 404 JSON for a missing file or another method. */
export function pageNotFound(spaPage?: (pathname: string) => string) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const pathOnly = request.url.split('?')[0] ?? '';
    if (spaPage && request.method === 'GET' && !/\.[a-z0-9]+$/i.test(pathOnly))
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(spaPage(pathOnly));
    return apiNotFound(request, reply);
  };
}
