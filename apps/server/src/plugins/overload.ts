import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { POLLED_READS } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import { AppError } from '../lib/errors.ts';

/** The event loop's utilization is read over windows this long: short, so shedding starts before a queue is long. */
const WINDOW_MS = 250;
/** What a shed poll is told to wait at least (the web waits longer each time it is shed again). */
export const OVERLOAD_RETRY_AFTER_S = 5;

const polled = new Set(POLLED_READS);

/** A poll of the web (GET on a POLLED_READS route): the only request shed under overload. */
export const isPolledRead = (request: FastifyRequest) =>
  request.method === 'GET' && polled.has(request.routeOptions.url ?? '');

/**
 * Overload bends (decision 0096): while the event loop has been busy more than `maxUtilization` of the last two
 * windows (Node's event-loop utilization), a polled read is answered 503 `overloaded` with Retry-After at once,
 * before authentication and SQL, rather than late; every other request, every non-GET (money) among them, is
 * served as always. Utilization, not the loop's delay: behind a proxy's pool of connections the queue waits in the
 * proxy, and the loop's mean delay was 4 ms (median; 8 ms p90) at saturation (bench/README.md). Two windows, not
 * one: one busy quarter second is not a queue (one window alone shed polls at a load served in 55 ms p99).
 * Measured from `onReady`, so the start's own work does not count. 0: off.
 */
export function registerOverload(app: FastifyInstance, maxUtilization: number): void {
  if (maxUtilization <= 0) return;
  let windowsOver = 0;
  let last = 0;
  let sample: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    let before: EventLoopUtilization = performance.eventLoopUtilization();
    sample = setInterval(() => {
      const now = performance.eventLoopUtilization();
      last = performance.eventLoopUtilization(now, before).utilization;
      before = now;
      windowsOver = last > maxUtilization ? windowsOver + 1 : 0;
    }, WINDOW_MS);
    sample.unref();
  });
  app.addHook('onClose', async () => clearInterval(sample));

  // Shed polls log at debug (plugins/observability.ts) and count in the request histogram; this says so at warn,
  // at most every 10 s.
  let warnedAt = -Infinity;
  app.addHook('onRequest', (request, _reply, done) => {
    if (windowsOver < 2 || !isPolledRead(request)) return done();
    if (performance.now() - warnedAt >= 10_000) {
      warnedAt = performance.now();
      request.log.warn({ eventLoopUtilization: last, limit: maxUtilization }, 'overloaded: polls answered 503');
    }
    done(new AppError('overloaded', MSG.overloaded, { 'retry-after': String(OVERLOAD_RETRY_AFTER_S) }));
  });
}
