import { afterAll, beforeAll, describe } from 'vitest';
import { redisAvailable, startRedis } from '../redis.ts';
import { suite } from './throttle-races.suite.ts';

// The Redis store (REDIS_URL), against a throwaway redis-server (npm run test:system).
let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
describe.runIf(redisAvailable)('with REDIS_URL', () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  suite('Redis store', () => ({ REDIS_URL: redis?.url ?? '' }));
});
