import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { POLLED_READS } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import { AppError } from '../lib/errors.ts';

/** The event loop's delay is read over windows this long. */
const WINDOW_MS = 250;
/** The delay histogram's timer, in ms (Node records each of its turns: the interval plus how late it came). */
const RESOLUTION_MS = 10;
/** What a shed poll is told to wait at least (the web waits longer each time it is shed again). */
export const OVERLOAD_RETRY_AFTER_S = 5;

const polled = new Set(POLLED_READS);

/** A poll of the web (GET on a POLLED_READS route): the only request shed under overload. */
export const isPolledRead = (request: FastifyRequest) =>
  request.method === 'GET' && polled.has(request.routeOptions.url ?? '');

/**
 * Overload bends (decision 0096): while the event loop's mean delay has been above `lagMs` in the last two windows,
 * a polled read is answered 503 `overloaded` with Retry-After at once, before authentication and SQL, rather than
 * late; every other request, every non-GET (money) among them, is served as always. Two windows, not one: one long
 * stall (a big query on the embedded database, a garbage collection) is not a queue. Measured from `onReady`, so
 * the start's own work does not count. `lagMs` 0: off.
 */
export function registerOverload(app: FastifyInstance, lagMs: number): void {
  if (lagMs <= 0) return;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  let windowsOver = 0;
  let lastMs = 0;
  let sample: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    histogram.enable();
    sample = setInterval(() => {
      // No turn of the timer in a whole window: the loop was held all of it.
      lastMs = histogram.count === 0 ? Infinity : histogram.mean / 1e6 - RESOLUTION_MS;
      windowsOver = lastMs > lagMs ? windowsOver + 1 : 0;
      histogram.reset();
    }, WINDOW_MS);
    sample.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(sample);
    histogram.disable();
  });

  // Shed polls log at debug (plugins/observability.ts) and count in the request histogram; this says so at warn,
  // at most every 10 s.
  let warnedAt = -Infinity;
  app.addHook('onRequest', (request, _reply, done) => {
    if (windowsOver < 2 || !isPolledRead(request)) return done();
    if (performance.now() - warnedAt >= 10_000) {
      warnedAt = performance.now();
      request.log.warn({ eventLoopDelayMs: Math.round(lastMs), limitMs: lagMs }, 'overloaded: polls answered 503');
    }
    done(new AppError('overloaded', MSG.overloaded, { 'retry-after': String(OVERLOAD_RETRY_AFTER_S) }));
  });
}
