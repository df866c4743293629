import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MSG } from '@harvest/shared/messages';
import { messageResponse } from '@harvest/shared/schemas/common';
import { linkPreviewBody, linkPreviewResponse, linkTokenBody } from '@harvest/shared/schemas/security';
import type { AppContext } from '../../context.ts';
import { perIp } from '../../plugins/rate-limit.ts';
import { previewLink } from './account-links.service.ts';
import { reportNotMe } from './not-me.service.ts';

/** The e-mailed links' pages: public, the link's secret is the credential. */
export function accountLinkRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/security/link-preview',
      { config: perIp(60, 15), schema: { body: linkPreviewBody, response: { 200: linkPreviewResponse } } },
      async (req) => previewLink(ctx, req.body.page, req.body.token),
    );
    app.post(
      '/security/not-me',
      { config: perIp(20, 15), schema: { body: linkTokenBody, response: { 200: messageResponse } } },
      async (req) => {
        await reportNotMe(ctx, req.body.token, { ip: req.ip, userAgent: req.headers['user-agent'] });
        return { message: MSG.notMeDone };
      },
    );
  };
}
