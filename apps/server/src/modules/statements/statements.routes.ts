import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { statementQuery, statementResponse, type StatementFormat } from '@harvest/shared/schemas/statements';
import { statementTexts } from '@harvest/shared/statement-texts';
import { idParams } from '@harvest/shared/schemas/user';
import type { AppContext } from '../../context.ts';
import { authHooks, currentUser } from '../../plugins/auth.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import { statementCsv } from './statement-csv.ts';
import { statementPdf } from './statement-pdf.ts';
import * as service from './statements.service.ts';

/** A statement reads a year of one person's ledger and may lay out a PDF of it: plenty for people, not for a loop. */
const STATEMENT_LIMIT = perIp(60, 10);

const TYPES = { csv: 'text/csv; charset=utf-8', pdf: 'application/pdf' } as const;

/** The statement in the format asked for: JSON on screen, or a CSV or PDF file to keep. */
async function send(reply: FastifyReply, s: service.StatementData, format: StatementFormat) {
  if (format === 'json') return service.statementJson(s);
  const name = `${statementTexts().fileName(s.from, s.to)}.${format}`;
  reply
    .header('content-type', TYPES[format])
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store');
  return reply.send(format === 'csv' ? statementCsv(s) : await statementPdf(s));
}

/**
 * Statements of account: an investor's own (the session says whose: the route takes no user), and any
 * user's for an administrator (audited).
 */
export function statementRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { requireUser, requireRole } = authHooks(ctx);
  return async (app) => {
    app.get(
      '/user/statement',
      {
        onRequest: requireUser,
        schema: { querystring: statementQuery, response: { 200: statementResponse } },
        config: STATEMENT_LIMIT,
      },
      async (req, reply) => send(reply, await service.statementOf(ctx, currentUser(req), req.query), req.query.format),
    );
    app.get(
      '/admin/users/:id/statement',
      {
        onRequest: requireRole('read'),
        schema: { params: idParams, querystring: statementQuery, response: { 200: statementResponse } },
        config: STATEMENT_LIMIT,
      },
      async (req, reply) =>
        send(
          reply,
          await service.userStatement(ctx, currentUser(req), req.params.id, req.query, req.ip),
          req.query.format,
        ),
    );
  };
}
