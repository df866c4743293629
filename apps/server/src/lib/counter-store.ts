import type { Redis } from 'ioredis';
import type { Db } from '../db/client.ts';
import * as q from './counter-store.queries.ts';

export interface CounterWindow {
  count: number;
  ttlMs: number;
}

/**
 * Fixed-window counters for the failure throttles, shared by every instance: in the database
 * (the default) or in Redis (REDIS_URL). `hit` is one atomic step that counts and answers the
 * count, so a caller counts first and decides on the answer: parallel requests can never all
 * see a count below the limit.
 */
export interface CounterStore {
  /** Adds one to the key's window (opening a window of `windowMs` if none is open) and answers the count after it. */
  hit(key: string, windowMs: number): Promise<CounterWindow>;
  /** Takes back one count of an open window (a try that succeeded); never below zero, never opens a window. */
  release(key: string): Promise<void>;
  peek(key: string): Promise<CounterWindow | null>;
  /** Opens (or renews) the key with count 1 for `ttlMs`: a flag such as "this address signed in before". */
  mark(key: string, ttlMs: number): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Counters in the `throttle_counters` table: one upsert per hit, so instances without Redis share them too. */
export class DatabaseCounterStore implements CounterStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  async hit(key: string, windowMs: number) {
    const now = this.now();
    const row = await q.hitCounter(this.db, key, new Date(now), new Date(now + windowMs));
    return { count: row.count, ttlMs: Math.max(1, row.resetAt.getTime() - now) };
  }

  async release(key: string) {
    await q.releaseCounter(this.db, key, new Date(this.now()));
  }

  async peek(key: string) {
    const now = this.now();
    const row = await q.peekCounter(this.db, key, new Date(now));
    return row ? { count: row.count, ttlMs: row.resetAt.getTime() - now } : null;
  }

  async mark(key: string, ttlMs: number) {
    await q.markCounter(this.db, key, new Date(this.now() + ttlMs));
  }

  async reset(key: string) {
    await q.deleteCounter(this.db, key);
  }

  async close() {}
}

/** Takes one back only while the key exists and is above zero (a plain DECR would create a key at -1 without expiry). */
const RELEASE_SCRIPT = `local v = redis.call('GET', KEYS[1])
if v and tonumber(v) > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

export class RedisCounterStore implements CounterStore {
  constructor(
    readonly redis: Redis,
    private readonly prefix = 'hf:throttle:',
  ) {}

  async hit(key: string, windowMs: number) {
    const k = this.prefix + key;
    const res = await this.redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
    const count = Number(res?.[0]?.[1] ?? 1);
    const ttl = Number(res?.[2]?.[1] ?? windowMs);
    return { count, ttlMs: ttl > 0 ? ttl : windowMs };
  }

  async release(key: string) {
    await this.redis.eval(RELEASE_SCRIPT, 1, this.prefix + key);
  }

  async peek(key: string) {
    const k = this.prefix + key;
    const res = await this.redis.multi().get(k).pttl(k).exec();
    const raw = res?.[0]?.[1];
    if (raw === null || raw === undefined) return null;
    return { count: Number(raw), ttlMs: Math.max(0, Number(res?.[1]?.[1] ?? 0)) };
  }

  async mark(key: string, ttlMs: number) {
    await this.redis.set(this.prefix + key, '1', 'PX', ttlMs);
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }

  async close() {
    this.redis.disconnect();
  }
}

/** ioredis is loaded only with REDIS_URL (a server without it does not keep the module in memory). */
export async function createCounterStore(
  redisUrl: string | undefined,
  db: Db,
  now: () => number,
): Promise<CounterStore> {
  if (!redisUrl) return new DatabaseCounterStore(db, now);
  const { Redis } = await import('ioredis');
  return new RedisCounterStore(new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }));
}
