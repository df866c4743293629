import { Redis } from 'ioredis';

/** Fixed-window counters for throttles: in memory (one instance) or Redis (shared by all instances). */
export interface CounterStore {
  /** Adds one to the key's window (opening a window of `windowMs` if none) and answers the count and time left. */
  hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  peek(key: string): Promise<{ count: number; ttlMs: number } | null>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly now: () => number) {}

  async hit(key: string, windowMs: number) {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    if (this.windows.size > 100_000) for (const [k, x] of this.windows) if (x.resetAt <= now) this.windows.delete(k);
    return { count: w.count, ttlMs: w.resetAt - now };
  }

  async peek(key: string) {
    const w = this.windows.get(key);
    const now = this.now();
    return w && w.resetAt > now ? { count: w.count, ttlMs: w.resetAt - now } : null;
  }

  async reset(key: string) {
    this.windows.delete(key);
  }

  async close() {}
}

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

  async peek(key: string) {
    const k = this.prefix + key;
    const res = await this.redis.multi().get(k).pttl(k).exec();
    const raw = res?.[0]?.[1];
    if (raw === null || raw === undefined) return null;
    return { count: Number(raw), ttlMs: Math.max(0, Number(res?.[1]?.[1] ?? 0)) };
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }

  async close() {
    this.redis.disconnect();
  }
}

export function createCounterStore(redisUrl: string | undefined, now: () => number): CounterStore {
  return redisUrl
    ? new RedisCounterStore(new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }))
    : new MemoryCounterStore(now);
}
