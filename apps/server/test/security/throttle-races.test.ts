import { suite } from './throttle-races.suite.ts';

// The database store (PGlite, or PostgreSQL with DATABASE_URL); the Redis store is throttle-races.redis.test.ts.
suite('database store', () => ({}));
