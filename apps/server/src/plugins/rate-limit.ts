import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { MSG } from '@harvest/shared/messages';
import { AppError } from '../lib/errors.ts';

/**
 * Request-count limits per client IP on the routes that ask for them (`config.rateLimit`).
 * RATE_LIMITS=off skips the plugin, so route limits are ignored (benchmarks, black-box runs).
 */
export async function registerRateLimit(app: FastifyInstance, enabled: boolean, redis?: Redis): Promise<void> {
  if (!enabled) return;
  await app.register(rateLimit, {
    global: false,
    // With REDIS_URL every instance counts in the same place.
    ...(redis ? { redis, nameSpace: 'hf:rl:' } : {}),
    errorResponseBuilder: (_req, ctx) =>
      new AppError('rate_limited', MSG.tooManyRequests, { 'retry-after': String(Math.ceil(ctx.ttl / 1000)) }),
  });
}

/** Route option: at most `max` requests per `minutes` per IP. */
export const perIp = (max: number, minutes: number) => ({ rateLimit: { max, timeWindow: minutes * 60_000 } });
