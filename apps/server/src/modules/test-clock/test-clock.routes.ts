import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SettableClock } from '../../lib/clock.ts';

/** Black-box tests only (TEST_CLOCK=1, never in production): moves the server's clock. */
export function testClockRoutes(clock: SettableClock): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/__test__/clock',
      {
        schema: {
          body: z.strictObject({ now: z.iso.datetime({ offset: true }) }),
          response: { 200: z.object({ now: z.string() }) },
        },
      },
      async (req) => {
        clock.set(new Date(req.body.now));
        return { now: clock.now().toISOString() };
      },
    );
  };
}
