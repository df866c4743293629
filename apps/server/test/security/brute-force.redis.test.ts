import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, makeUser, uniqueEmail, type TestApp } from '../helpers.ts';
import { redisAvailable, startRedis } from '../redis.ts';

describe.runIf(redisAvailable)('with REDIS_URL, instances share the counts', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await startRedis();
    a = await createTestApp({ RATE_LIMITS: 'on', REDIS_URL: redis.url });
    b = await createTestApp({ RATE_LIMITS: 'on', REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await redis.stop();
  });

  it('wrong passwords spread over two instances add up', async () => {
    // Two databases here, one user e-mail: the throttle key is the e-mail, shared through Redis.
    const email = uniqueEmail();
    await makeUser(a, { email });
    await makeUser(b, { email });
    for (let i = 0; i < 10; i++)
      await call(i % 2 ? a : b, 'POST', '/api/login', { body: { email, password: `wrong-${i}` } });
    expect((await call(a, 'POST', '/api/login', { body: { email, password: 'password-1' } })).statusCode).toBe(429);
    expect((await call(b, 'POST', '/api/login', { body: { email, password: 'password-1' } })).statusCode).toBe(429);
  });

  it('request limits per IP are shared too', async () => {
    let last = 0;
    for (let i = 0; i < 12; i++)
      last = (await call(i % 2 ? a : b, 'POST', '/api/send-code', { body: { email: uniqueEmail() } })).statusCode;
    expect(last).toBe(429);
  });
});
